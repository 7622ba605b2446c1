// The Pinterest emulator refuses what the real API refuses (§9.12): client authentication, grants,
// scopes per endpoint, board access, PinCreate's rules, the S3 upload's rules, rate limits — each
// answered in Pinterest's own format (or S3's XML on the upload host).
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { createPinterestEmulator } from '../../src/sandbox/pinterest/emulator.ts';
import { startEmulatorServer } from '../../src/sandbox/server.ts';
import { approveConsent } from '../helpers/platform.ts';
import { fileServer, GIF, REDIRECT, sleep, startHarness, type Harness } from './pinterest-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
afterEach(() => {
  h.emu.faults.clear();
  Object.assign(h.emu.settings, { writesPerMinute: 60, uploadPolicyTtlMs: 3600_000, processingMs: 30 });
});
after(() => h.close());

const BASIC = `Basic ${Buffer.from(`${SANDBOX_APP.clientId}:${SANDBOX_APP.clientSecret}`).toString('base64')}`;
const ALL = 'boards:read,boards:write,pins:read,pins:write,user_accounts:read';
const JPEG_B64 = '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=';

function consentUrl(params: Record<string, string> = {}): string {
  const u = new URL(`${h.root}/oauth/`);
  for (const [k, v] of Object.entries({ client_id: SANDBOX_APP.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: ALL, state: 'st', ...params })) u.searchParams.set(k, v);
  return u.toString();
}

async function token(form: Record<string, string>, auth: string | null = BASIC) {
  const res = await fetch(`${h.root}/v5/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

async function login(user: string, params: Record<string, string> = {}) {
  const { code } = await approveConsent(consentUrl(params), { sandbox_user: user });
  const t = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  assert.equal(t.status, 200, JSON.stringify(t.body));
  return t.body as { access_token: string; refresh_token: string; scope: string };
}

async function api(method: string, path: string, accessToken: string | null, body?: unknown) {
  const res = await fetch(`${h.root}${path}`, {
    method,
    headers: { ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers, text };
}

async function firstBoard(accessToken: string): Promise<string> {
  return (await api('GET', '/v5/boards', accessToken)).body.items[0].id;
}

describe('OAuth', () => {
  test('the consent page checks the app, redirect, response_type and scopes, and echoes state', async () => {
    const bads: Record<string, string>[] = [{ client_id: 'nope' }, { redirect_uri: 'not a url' }, { response_type: 'token' }, { scope: 'pins:read,pins:fly' }, { scope: '' }];
    for (const bad of bads) {
      const res = await fetch(consentUrl(bad), { redirect: 'manual' });
      assert.equal(res.status, 400, JSON.stringify(bad));
    }
    const ok = await approveConsent(consentUrl(), { sandbox_user: 'consenter' });
    assert.equal(ok.state, 'st');
    const denied = await fetch(consentUrl({ sandbox_deny: '1' }), { redirect: 'manual' });
    assert.equal(new URL(denied.headers.get('location')!).searchParams.get('error'), 'access_denied');
  });

  test('the token endpoint takes HTTP Basic only, a form body, and a valid, unused grant', async () => {
    const { code } = await approveConsent(consentUrl(), { sandbox_user: 'granter' });
    const body = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT };
    const inBody = await token({ ...body, client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret }, null);
    assert.deepEqual([inBody.status, inBody.body.code], [401, 2]);
    assert.deepEqual((await token(body, `Basic ${Buffer.from(`${SANDBOX_APP.clientId}:wrong`).toString('base64')}`)).body.code, 2);
    const json = await fetch(`${h.root}/v5/oauth/token`, { method: 'POST', headers: { authorization: BASIC, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(json.status, 400);
    assert.deepEqual((await token({ ...body, redirect_uri: 'https://other.example/cb' })).body, { code: 283, message: 'The authorization grant is invalid' });
    const ok = await token(body);
    assert.equal(ok.status, 200);
    assert.match(ok.body.access_token, /^pina\./);
    assert.match(ok.body.refresh_token, /^pinr\./);
    assert.equal(ok.body.expires_in, 2592000);
    assert.equal(ok.body.refresh_token_expires_in, 5184000);
    assert.equal(ok.body.response_type, 'authorization_code');
    assert.equal(ok.body.scope, 'boards:read boards:write pins:read pins:write user_accounts:read');
    assert.equal((await token(body)).status, 401, 'a code works once');
  });

  test('refresh hands out a new continuous refresh token and kills the one used; a narrower scope is allowed', async () => {
    const first = await login('refresher');
    const r1 = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.equal(r1.status, 200);
    assert.equal(r1.body.response_type, 'refresh_token');
    assert.notEqual(r1.body.refresh_token, first.refresh_token);
    assert.ok(Math.abs(r1.body.refresh_token_expires_at - (Date.now() / 1000 + 5184000)) < 5);
    assert.deepEqual((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.code, 283);
    const narrow = await token({ grant_type: 'refresh_token', refresh_token: r1.body.refresh_token, scope: 'pins:read' });
    assert.equal(narrow.body.scope, 'pins:read');
    assert.equal((await api('GET', '/v5/user_account', narrow.body.access_token)).body.code, 3);
    assert.equal((await token({ grant_type: 'refresh_token', refresh_token: narrow.body.refresh_token, scope: 'ads:read' })).status, 400);
  });

  test('revoke: 403 code 29 for a person\'s token; a system user\'s grant ends', async () => {
    const person = await login('person');
    const revoke = (tok: string) => fetch(`${h.root}/v5/oauth/token/revoke`, { method: 'POST', headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tok }) });
    const refused = await revoke(person.access_token);
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), { code: 29, message: 'You are not permitted to access that resource.' });
    const system = await login('robot', { sandbox_system: '1' });
    assert.equal((await revoke(system.refresh_token)).status, 200);
    assert.equal((await api('GET', '/v5/user_account', system.access_token)).status, 401);
  });
});

describe('the API', () => {
  test('every answer carries x-pinterest-rid; a bad token is 401 code 2, a missing scope 401 code 3', async () => {
    const none = await api('GET', '/v5/user_account', null);
    assert.deepEqual([none.status, none.body], [401, { code: 2, message: 'Authentication failed.', status: 'failure' }]);
    assert.match(none.headers.get('x-pinterest-rid') ?? '', /^\d+$/);
    const t = await login('scoped', { scope: 'user_accounts:read' });
    assert.equal((await api('GET', '/v5/user_account', t.access_token)).status, 200);
    const boards = await api('GET', '/v5/boards', t.access_token);
    assert.deepEqual([boards.status, boards.body.code], [401, 3]);
    // Pin create needs all four scopes: three are not enough.
    const three = await login('scoped3', { scope: 'boards:read,pins:read,pins:write,user_accounts:read' });
    assert.equal((await api('POST', '/v5/pins', three.access_token, {})).body.code, 3);
  });

  test('an expired token is 401 code 2; a wrong method 405 code 5; an unknown path 404', async () => {
    const t = await login('expiry');
    h.emu.oauth.expireAccessTokens();
    assert.equal((await api('GET', '/v5/user_account', t.access_token)).body.code, 2);
    const put = await api('PUT', '/v5/pins', t.access_token, {});
    assert.deepEqual([put.status, put.body.code], [405, 5]);
    assert.equal((await api('GET', '/v5/nothing', t.access_token)).status, 404);
  });

  test('boards: secret ones only with boards:read_secret; bookmarks page and are checked', async () => {
    const plain = await login('boarder');
    const names = (await api('GET', '/v5/boards', plain.access_token)).body.items.map((b: any) => b.name);
    assert.deepEqual(names, ['Ideas', 'Recipes']);
    const secret = await login('boarder', { scope: `${ALL},boards:read_secret` });
    assert.equal((await api('GET', '/v5/boards', secret.access_token)).body.items.length, 3);
    const p1 = await api('GET', '/v5/boards?page_size=1', plain.access_token);
    assert.equal(p1.body.items.length, 1);
    const p2 = await api('GET', `/v5/boards?page_size=1&bookmark=${p1.body.bookmark}`, plain.access_token);
    assert.equal(p2.body.items[0].name, 'Recipes');
    assert.equal(p2.body.bookmark, null);
    assert.equal((await api('GET', '/v5/boards?bookmark=garbage', plain.access_token)).body.code, 1);
    assert.equal((await api('GET', '/v5/boards?page_size=251', plain.access_token)).status, 400);
  });
});

describe('POST /v5/pins', () => {
  test('board, lengths, link and media are checked as Pinterest checks them', async () => {
    const t = await login('pinner');
    const other = await login('stranger');
    const board = await firstBoard(t.access_token);
    const img = { source_type: 'image_base64', content_type: 'image/jpeg', data: JPEG_B64 };
    const cases: [Record<string, unknown>, number, number][] = [
      [{ media_source: img }, 400, 1],
      [{ board_id: await firstBoard(other.access_token), media_source: img }, 404, 40],
      [{ board_id: board, board_section_id: '5', media_source: img }, 404, 2031],
      [{ board_id: board, title: 'x'.repeat(101), media_source: img }, 400, 1],
      [{ board_id: board, description: 'x'.repeat(801), media_source: img }, 400, 1],
      [{ board_id: board, link: 'not a link', media_source: img }, 400, 1],
      [{ board_id: board }, 400, 1],
      [{ board_id: board, media_source: { ...img, content_type: 'image/gif' } }, 400, 1],
      [{ board_id: board, media_source: { ...img, data: 'not base64!' } }, 400, 1],
      [{ board_id: board, media_source: { ...img, data: Buffer.from('hello').toString('base64') } }, 403, 235],
      [{ board_id: board, media_source: { source_type: 'multiple_image_base64', items: [img] } }, 400, 1],
      [{ board_id: board, media_source: { source_type: 'multiple_image_base64', items: Array(6).fill(img) } }, 400, 1],
      [{ board_id: board, media_source: { source_type: 'image_url', url: `${h.server.mediaUrl}/missing.jpg` } }, 400, 1],
      [{ board_id: board, media_source: { source_type: 'video_id', media_id: '123', cover_image_key_frame_time: 0 } }, 404, 404],
      [{ board_id: board, media_source: { source_type: 'pin_url', url: 'https://www.pinterest.com/pin/1/' } }, 403, 29],
    ];
    for (const [body, status, code] of cases) {
      const res = await api('POST', '/v5/pins', t.access_token, body);
      assert.deepEqual([res.status, res.body.code], [status, code], JSON.stringify(body).slice(0, 120));
    }
    assert.equal(h.emu.ledger.list({ accountId: (await api('GET', '/v5/user_account', t.access_token)).body.id }).length, 0);
  });

  test('image URLs are downloaded: a GIF is taken, text posing as an image is 403 code 235', async () => {
    const files = await fileServer({ 'a.gif': { type: 'image/gif', body: GIF }, 'fake.jpg': { type: 'image/jpeg', body: Buffer.from('not an image') } });
    try {
      const t = await login('downloader');
      const board = await firstBoard(t.access_token);
      const ok = await api('POST', '/v5/pins', t.access_token, { board_id: board, description: 'gif', media_source: { source_type: 'image_url', url: files.url('a.gif') } });
      assert.equal(ok.status, 201, ok.text);
      assert.match(ok.body.id, /^\d{19}$/);
      assert.ok(BigInt(ok.body.id) > 2n ** 53n);
      assert.equal(h.emu.ledger.get(ok.body.id)?.extra?.mediaBytes?.toString(), String(GIF.length));
      const broken = await api('POST', '/v5/pins', t.access_token, { board_id: board, media_source: { source_type: 'image_url', url: files.url('fake.jpg') } });
      assert.deepEqual([broken.status, broken.body.code], [403, 235]);
    } finally {
      await files.close();
    }
  });

  test('by default the emulator, like Pinterest, cannot reach private or loopback image URLs', async () => {
    const emu = createPinterestEmulator();
    const server = await startEmulatorServer([emu]);
    try {
      const root = server.rootOf('pinterest');
      const u = new URL(`${root}/oauth/`);
      for (const [k, v] of Object.entries({ client_id: SANDBOX_APP.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: ALL })) u.searchParams.set(k, v);
      const { code } = await approveConsent(u.toString());
      const t = (await (await fetch(`${root}/v5/oauth/token`, { method: 'POST', headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }) })).json()) as any;
      const board = ((await (await fetch(`${root}/v5/boards`, { headers: { authorization: `Bearer ${t.access_token}` } })).json()) as any).items[0].id;
      const res = await fetch(`${root}/v5/pins`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ board_id: board, media_source: { source_type: 'image_url', url: `${server.mediaUrl}/sample.jpg` } }),
      });
      assert.equal(res.status, 400);
      assert.match(((await res.json()) as any).message, /could not fetch/);
    } finally {
      await server.close();
    }
  });

  test('secret boards take Pins only with the secret write scopes', async () => {
    const secretScopes = `${ALL},boards:read_secret`;
    const t = await login('secretive', { scope: secretScopes });
    const drafts = (await api('GET', '/v5/boards?privacy=SECRET', t.access_token)).body.items[0].id;
    const body = { board_id: drafts, media_source: { source_type: 'image_base64', content_type: 'image/jpeg', data: JPEG_B64 } };
    assert.deepEqual((await api('POST', '/v5/pins', t.access_token, body)).body.code, 40);
    const w = await login('secretive', { scope: `${secretScopes},boards:write_secret,pins:write_secret` });
    assert.equal((await api('POST', '/v5/pins', w.access_token, body)).status, 201);
  });

  test('org_write is rate limited per user: 429 code 8 with Retry-After', async () => {
    h.emu.settings.writesPerMinute = 2;
    const t = await login('busy-writer');
    const board = await firstBoard(t.access_token);
    const body = { board_id: board, media_source: { source_type: 'image_base64', content_type: 'image/jpeg', data: JPEG_B64 } };
    assert.equal((await api('POST', '/v5/pins', t.access_token, body)).status, 201);
    assert.equal((await api('POST', '/v5/media', t.access_token, { media_type: 'video' })).status, 201);
    const limited = await api('POST', '/v5/pins', t.access_token, body);
    assert.deepEqual([limited.status, limited.body.code], [429, 8]);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(limited.headers.get('x-userendpoint-ratelimit-remaining'), '0');
  });

  test('delete: 204, then 404; another user\'s Pin 403; editing is a beta this app lacks', async () => {
    const t = await login('deleter');
    const other = await login('bystander');
    const made = await api('POST', '/v5/pins', t.access_token, { board_id: await firstBoard(t.access_token), media_source: { source_type: 'image_base64', content_type: 'image/jpeg', data: JPEG_B64 } });
    assert.equal((await api('PATCH', `/v5/pins/${made.body.id}`, t.access_token, { description: 'new' })).body.code, 29);
    assert.equal((await api('DELETE', `/v5/pins/${made.body.id}`, other.access_token)).status, 403);
    assert.equal((await api('DELETE', `/v5/pins/${made.body.id}`, t.access_token)).status, 204);
    assert.deepEqual((await api('DELETE', `/v5/pins/${made.body.id}`, t.access_token)).body, { code: 404, message: 'Pin not found.' });
    assert.equal((await api('GET', `/v5/pins/${made.body.id}`, t.access_token)).body.code, 50);
    assert.equal(h.emu.ledger.get(made.body.id)?.extra?.deletedAt !== undefined, true);
    assert.equal(h.emu.ledger.list({ kind: 'delete' }).filter((e) => e.id === made.body.id).length, 1);
  });
});

describe('video upload', () => {
  async function register(accessToken: string) {
    const res = await api('POST', '/v5/media', accessToken, { media_type: 'video' });
    assert.equal(res.status, 201, res.text);
    return res.body as { media_id: string; upload_url: string; upload_parameters: Record<string, string> };
  }

  function form(params: Record<string, string>, file: Buffer, order: 'fields-first' | 'file-first' = 'fields-first'): FormData {
    const f = new FormData();
    const add = () => Object.entries(params).forEach(([k, v]) => f.append(k, v));
    if (order === 'fields-first') add();
    f.append('file', new Blob([file], { type: 'video/mp4' }), 'v.mp4');
    if (order === 'file-first') add();
    return f;
  }

  const MP4 = Buffer.concat([Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0mp42isom', 'latin1'), Buffer.alloc(2000)]);

  test('S3 rules: fields before the file, a valid signature, no bearer token, an unexpired policy', async () => {
    const t = await login('uploader');
    const reg = await register(t.access_token);
    assert.deepEqual(Object.keys(reg.upload_parameters).sort(), ['Content-Type', 'key', 'policy', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-security-token', 'x-amz-signature']);
    const post = (body: FormData, headers: Record<string, string> = {}) => fetch(reg.upload_url, { method: 'POST', body, headers });
    const afterFile = await post(form(reg.upload_parameters, MP4, 'file-first'));
    assert.equal(afterFile.status, 400);
    assert.match(await afterFile.text(), /<Code>InvalidArgument<\/Code>/);
    const bearer = await post(form(reg.upload_parameters, MP4), { authorization: `Bearer ${t.access_token}` });
    assert.equal(bearer.status, 400);
    const forged = await post(form({ ...reg.upload_parameters, 'x-amz-signature': '0'.repeat(64) }, MP4));
    assert.match(await forged.text(), /SignatureDoesNotMatch/);
    assert.equal((await api('GET', `/v5/media/${reg.media_id}`, t.access_token)).body.status, 'registered');
    // Processing time is the emulator's setting: long enough here to see the state, then over.
    h.emu.settings.processingMs = 60_000;
    const ok = await post(form(reg.upload_parameters, MP4));
    assert.equal(ok.status, 204);
    assert.equal((await api('GET', `/v5/media/${reg.media_id}`, t.access_token)).body.status, 'processing');
    h.emu.settings.processingMs = 0;
    assert.equal((await api('GET', `/v5/media/${reg.media_id}`, t.access_token)).body.status, 'succeeded');

    h.emu.settings.uploadPolicyTtlMs = 1;
    const late = await register(t.access_token);
    await sleep(10);
    const res = await post(form(late.upload_parameters, MP4));
    assert.equal(res.status, 403);
    assert.match(await res.text(), /Policy expired/);
  });

  test('bytes that are not a video fail processing; a video Pin needs a processed upload, a cover, and uses it once', async () => {
    const t = await login('videographer');
    const board = await firstBoard(t.access_token);
    const bad = await register(t.access_token);
    assert.equal((await fetch(bad.upload_url, { method: 'POST', body: form(bad.upload_parameters, Buffer.from('not a video at all')) })).status, 204);
    const good = await register(t.access_token);
    const early = await api('POST', '/v5/pins', t.access_token, { board_id: board, media_source: { source_type: 'video_id', media_id: good.media_id, cover_image_key_frame_time: 1 } });
    assert.deepEqual([early.status, early.body.code], [400, 1]);
    assert.match(early.body.message, /registered/);
    assert.equal((await fetch(good.upload_url, { method: 'POST', body: form(good.upload_parameters, MP4) })).status, 204);
    await sleep(60);
    assert.equal((await api('GET', `/v5/media/${bad.media_id}`, t.access_token)).body.status, 'failed');
    const noCover = await api('POST', '/v5/pins', t.access_token, { board_id: board, media_source: { source_type: 'video_id', media_id: good.media_id } });
    assert.match(noCover.body.message, /cover/);
    const made = await api('POST', '/v5/pins', t.access_token, { board_id: board, description: 'clip', media_source: { source_type: 'video_id', media_id: good.media_id, cover_image_key_frame_time: 0 } });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.media.media_type, 'video');
    assert.equal(h.emu.ledger.get(made.body.id)?.extra?.mediaBytes?.toString(), String(MP4.length));
    const again = await api('POST', '/v5/pins', t.access_token, { board_id: board, media_source: { source_type: 'video_id', media_id: good.media_id, cover_image_key_frame_time: 0 } });
    assert.match(again.body.message, /already used/);
  });
});

test('the upload host answers a body that is not multipart in S3\'s XML', async () => {
  const res = await fetch(`${h.root}/pinterest-media-upload/`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: 'not multipart' });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /<Code>MalformedPOSTRequest<\/Code>/);
});

// The LinkedIn emulator refuses what LinkedIn refuses (platforms.md 7.13), over raw HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLinkedInEmulator, PRODUCT_SCOPES, type LinkedInEmulator } from '../../src/sandbox/linkedin/emulator.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { SAMPLE_MEDIA } from '../../src/sandbox/media.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { approveConsent } from '../helpers/platform.ts';
import { mp4, pdf } from './linkedin-files.ts';

const REDIRECT = 'https://app.example/cb';
const VERSION = '202609';
const CM = [...PRODUCT_SCOPES.community_management].filter((s) => s !== 'r_organization_admin');

interface Emu {
  emu: LinkedInEmulator;
  server: EmulatorServer;
  root: string;
}

// The emulators' clock: media processing ends when the test moves it on (settle), not after a real wait
// that a busy machine could overrun.
let clockOffset = 0;
const PROCESSING_MS = 60_000;

async function start(options: Parameters<typeof createLinkedInEmulator>[0] = {}): Promise<Emu> {
  const emu = createLinkedInEmulator({ processingMs: PROCESSING_MS, partBytes: 64 * 1024, now: () => Date.now() + clockOffset, ...options });
  const server = await startEmulatorServer([emu]);
  return { emu, server, root: server.rootOf('linkedin') };
}

function authorizeUrl(e: Emu, scopes: string[] | string, extra: Record<string, string> = {}): string {
  const url = new URL(`${e.root}/oauth/v2/authorization`);
  const q = { response_type: 'code', client_id: SANDBOX_APP.clientId, redirect_uri: REDIRECT, state: 'st', scope: Array.isArray(scopes) ? scopes.join(' ') : scopes, ...extra };
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  return url.toString();
}

async function form(url: string, body: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function grant(e: Emu, user: string, scopes: string[] = CM, extra: Record<string, string> = {}) {
  const { code } = await approveConsent(authorizeUrl(e, scopes), { sandbox_user: user, ...extra });
  const res = await form(`${e.root}/accessToken`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as Record<string, any>;
}

interface CallOptions {
  token?: string;
  json?: unknown;
  bytes?: Buffer;
  headers?: Record<string, string>;
  version?: string | null;
  protocol?: string | null;
}

async function call(e: Emu, method: string, path: string, o: CallOptions = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.version !== null) headers['linkedin-version'] = o.version ?? VERSION;
  if (o.protocol !== null) headers['x-restli-protocol-version'] = o.protocol ?? '2.0.0';
  let body: RequestInit['body'];
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.bytes) {
    headers['content-type'] = 'application/octet-stream';
    body = o.bytes as Uint8Array<ArrayBuffer>;
  }
  const url = path.startsWith('http') ? path : `${e.root}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const enc = encodeURIComponent;
const post = (author: string, commentary: string, extra: Record<string, unknown> = {}) => ({
  author,
  commentary,
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
  isReshareDisabledByAuthor: false,
  ...extra,
});

async function memberOf(e: Emu, token: string) {
  const me = await call(e, 'GET', '/v2/me', { token, version: null });
  return `urn:li:person:${me.body.id}`;
}

async function pageOf(e: Emu, token: string) {
  const acls = await call(e, 'GET', '/rest/organizationAcls?q=roleAssignee&state=APPROVED', { token });
  return acls.body.elements[0].organization as string;
}

async function uploadImage(e: Emu, token: string, owner: string, bytes: Buffer = SAMPLE_MEDIA['sample.jpg']!.bytes) {
  const init = await call(e, 'POST', '/rest/images?action=initializeUpload', { token, json: { initializeUploadRequest: { owner } } });
  assert.equal(init.status, 200, JSON.stringify(init.body));
  const put = await call(e, 'PUT', init.body.value.uploadUrl, { token, bytes, version: null, protocol: null });
  assert.equal(put.status, 201);
  return init.body.value.image as string;
}

const settle = async () => {
  clockOffset += PROCESSING_MS + 1;
};

let e: Emu;
before(async () => {
  e = await start();
});
after(() => e.server.close());

describe('OAuth', () => {
  test('consent refuses scopes the app\'s products do not grant, comma lists, and a cancelled login', async () => {
    for (const [scopes, refused] of [
      [[...CM, 'openid'], 'openid'],
      ['w_member_social,r_basicprofile', 'w_member_social,r_basicprofile'],
    ] as const) {
      const res = await fetch(authorizeUrl(e, scopes as string[] | string), { redirect: 'manual' });
      const to = new URL(res.headers.get('location')!);
      assert.equal(to.searchParams.get('error'), 'unauthorized_scope_error');
      assert.equal(to.searchParams.get('error_description'), `Scope "${refused}" is not authorized for your application`);
      assert.equal(to.searchParams.get('state'), 'st');
    }
    const cancelled = await fetch(authorizeUrl(e, CM, { sandbox_cancel: '1' }), { redirect: 'manual' });
    assert.equal(new URL(cancelled.headers.get('location')!).searchParams.get('error'), 'user_cancelled_authorize');
    const stranger = await fetch(authorizeUrl(e, CM, { client_id: 'someone-else' }), { redirect: 'manual' });
    assert.equal(stranger.status, 400);
  });

  test('the token endpoint: client secret, single-use codes, 60-day tokens, comma scopes, no refresh token by default', async () => {
    const { code } = await approveConsent(authorizeUrl(e, CM), { sandbox_user: 'oauth-a' });
    const bad = await form(`${e.root}/accessToken`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: SANDBOX_APP.clientId, client_secret: 'wrong' });
    assert.deepEqual([bad.status, bad.body.error], [401, 'invalid_client']);
    const body = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret };
    const ok = await form(`${e.root}/oauth/v2/accessToken`, body);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.expires_in, 5_184_000);
    assert.equal(ok.body.scope, CM.join(','));
    assert.equal(ok.body.refresh_token, undefined);
    const again = await form(`${e.root}/accessToken`, body);
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_request');
    assert.match(again.body.error_description, /^Unable to retrieve access token/);
  });

  test('programmatic refresh: the same refresh token comes back and its 365 days are not extended', async () => {
    const p = await start({ programmaticRefresh: true });
    try {
      const t = await grant(p, 'refresher');
      assert.ok(t.refresh_token);
      assert.equal(t.refresh_token_expires_in, 365 * 86400);
      await new Promise((r) => setTimeout(r, 1100));
      const r = await form(`${p.root}/accessToken`, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret });
      assert.equal(r.status, 200);
      assert.notEqual(r.body.access_token, t.access_token);
      assert.equal(r.body.refresh_token, t.refresh_token);
      assert.ok(r.body.refresh_token_expires_in < t.refresh_token_expires_in);
    } finally {
      await p.server.close();
    }
  });

  test('introspection, and revoke ending the whole grant', async () => {
    const t = await grant(e, 'revoker');
    const creds = { client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret };
    const live = await form(`${e.root}/introspectToken`, { ...creds, token: t.access_token });
    assert.equal(live.body.active, true);
    assert.equal(live.body.status, 'active');
    assert.equal(live.body.scope, CM.join(','));
    assert.equal(live.body.auth_type, '3L');
    const second = await grant(e, 'revoker');
    const revoked = await form(`${e.root}/revoke`, { ...creds, token: t.access_token });
    assert.equal(revoked.status, 200);
    assert.deepEqual([(await form(`${e.root}/introspectToken`, { ...creds, token: t.access_token })).body.status, (await form(`${e.root}/introspectToken`, { ...creds, token: second.access_token })).body.status], ['revoked', 'revoked']);
    const me = await call(e, 'GET', '/v2/me', { token: t.access_token, version: null });
    assert.deepEqual([me.status, me.body.serviceErrorCode, me.body.code], [401, 65601, 'REVOKED_ACCESS_TOKEN']);
  });
});

describe('identity and versions', () => {
  test('/v2/me needs r_basicprofile, /v2/userinfo needs openid', async () => {
    const t = await grant(e, 'Jane Doe');
    const me = await call(e, 'GET', '/v2/me', { token: t.access_token, version: null });
    assert.equal(me.body.vanityName, 'jane-doe');
    const info = await call(e, 'GET', '/v2/userinfo', { token: t.access_token, version: null });
    assert.deepEqual(info.body, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: userinfo.GET.NO_VERSION' });
    const s = await start({ product: 'self_serve' });
    try {
      const self = await grant(s, 'Jane Doe', [...PRODUCT_SCOPES.self_serve]);
      const ui = await call(s, 'GET', '/v2/userinfo', { token: self.access_token, version: null });
      assert.equal(ui.body.name, 'Jane Doe');
      assert.equal(ui.body.email_verified, true);
      assert.equal((await call(s, 'GET', '/v2/me', { token: self.access_token, version: null })).status, 403);
      const acls = await call(s, 'GET', '/rest/organizationAcls?q=roleAssignee', { token: self.access_token });
      assert.match(acls.body.message, /organizationAcls\.FINDER-roleAssignee\.20260901/);
    } finally {
      await s.server.close();
    }
  });

  test('every /rest call needs a served LinkedIn-Version and the protocol header', async () => {
    const t = await grant(e, 'versions');
    const path = '/rest/organizationAcls?q=roleAssignee';
    assert.equal((await call(e, 'GET', path, { token: t.access_token, version: null })).body.code, 'VERSION_MISSING');
    const old = await call(e, 'GET', path, { token: t.access_token, version: '202504' });
    assert.deepEqual(old.body, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 20250401 is not active' });
    assert.equal((await call(e, 'GET', path, { token: t.access_token, version: '209912' })).status, 426);
    assert.equal((await call(e, 'GET', path, { token: t.access_token, protocol: null })).status, 400);
    assert.equal((await call(e, 'GET', path, { token: t.access_token })).status, 200);
  });

  test('tokens: empty, unknown and expired get LinkedIn\'s 401s', async () => {
    const path = '/rest/organizationAcls?q=roleAssignee';
    assert.equal((await call(e, 'GET', path)).body.code, 'EMPTY_ACCESS_TOKEN');
    assert.equal((await call(e, 'GET', path, { token: 'AQnope' })).body.serviceErrorCode, 65600);
    const t = await grant(e, 'expiring');
    e.emu.oauth.expireAccessTokens();
    const expired = await call(e, 'GET', path, { token: t.access_token });
    assert.deepEqual([expired.status, expired.body.serviceErrorCode, expired.body.code], [401, 65602, 'EXPIRED_ACCESS_TOKEN']);
  });

  test('organizationAcls lists the caller\'s roles; organizations answers a REST.li batch', async () => {
    const t = await grant(e, 'admin', CM, { sandbox_pages: '3' });
    const acls = await call(e, 'GET', '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&count=2', { token: t.access_token });
    assert.equal(acls.body.paging.total, 3);
    assert.equal(acls.body.elements.length, 2);
    const ids = acls.body.elements.map((x: { organization: string }) => x.organization.split(':').pop());
    const batch = await call(e, 'GET', `/rest/organizations?ids=List(${ids.join(',')})`, { token: t.access_token });
    assert.deepEqual(Object.keys(batch.body.results).sort(), [...ids].sort());
    assert.match(batch.body.results[ids[0]].localizedName, /^admin Page/);
  });
});

describe('posts', () => {
  test('a text post: 201, no body, the URN in x-restli-id; reserved characters unescaped cut the text', async () => {
    const t = await grant(e, 'poster');
    const author = await memberOf(e, t.access_token);
    const ok = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'Launch day \\(beta\\) #ship') });
    assert.equal(ok.status, 201);
    assert.equal(ok.body, undefined);
    const urn = ok.headers.get('x-restli-id')!;
    assert.match(urn, /^urn:li:share:\d{19}$/);
    assert.equal(e.emu.ledger.get(urn)?.text, 'Launch day (beta) #ship');
    const cut = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'This is a test. (This is also a test.)') });
    assert.equal(cut.status, 201, 'LinkedIn answers 201 all the same');
    const entry = e.emu.ledger.get(cut.headers.get('x-restli-id')!)!;
    assert.equal(entry.text, 'This is a test. ');
    assert.equal(entry.extra?.truncated, true);
  });

  test('schema, length, duplicate and author checks', async () => {
    const t = await grant(e, 'checker');
    const author = await memberOf(e, t.access_token);
    const missing = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: { author, commentary: 'x', bogus: 1 } });
    assert.equal(missing.status, 422);
    assert.match(missing.body.message, /ERROR :: \/bogus :: unrecognized field found but not allowed/);
    const long = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'y'.repeat(3001)) });
    assert.equal(long.status, 400);
    assert.equal(long.body.errorDetails.inputErrors[0].code, 'FIELD_ARRAY_SIZE_TOO_HIGH');
    assert.match(long.body.message, /\(3001 characters\) exceeded the maximum allowed \(3000 characters\)/);
    const first = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'same text') });
    const dup = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'same text') });
    assert.equal(dup.status, 422);
    assert.equal(dup.body.errorDetails.inputErrors[0].code, 'DUPLICATE_POST');
    assert.equal(dup.body.message, `Content is a duplicate of ${first.headers.get('x-restli-id')}`);
    const other = await grant(e, 'someone-else');
    const stranger = await call(e, 'POST', '/rest/posts', { token: other.access_token, json: post(author, 'as you') });
    assert.equal(stranger.status, 403);
    assert.match(stranger.body.message, /\[\/author\]/);
  });

  test('Pages: a posting role is needed, and they cannot post for CONNECTIONS', async () => {
    const analyst = await grant(e, 'analyst', CM, { sandbox_page_role: 'ANALYST' });
    const page = await pageOf(e, analyst.access_token);
    assert.equal((await call(e, 'POST', '/rest/posts', { token: analyst.access_token, json: post(page, 'hi') })).status, 403);
    const admin = await grant(e, 'page-admin');
    const own = await pageOf(e, admin.access_token);
    const connections = await call(e, 'POST', '/rest/posts', { token: admin.access_token, json: post(own, 'hi', { visibility: 'CONNECTIONS' }) });
    assert.equal(connections.status, 422);
    assert.equal((await call(e, 'POST', '/rest/posts', { token: admin.access_token, json: post(own, 'hi') })).status, 201);
  });

  test('reads: a member\'s own posts are partner-only, a Page\'s need r_organization_social; URN keys come encoded', async () => {
    const t = await grant(e, 'reader');
    const author = await memberOf(e, t.access_token);
    const urn = (await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'read me') })).headers.get('x-restli-id')!;
    const finder = await call(e, 'GET', `/rest/posts?q=author&author=${enc(author)}`, { token: t.access_token });
    assert.equal(finder.status, 403);
    assert.match(finder.body.message, /partnerApiPostsExternal\.FINDER-author\.20260901/);
    assert.equal((await call(e, 'GET', `/rest/posts/${enc(urn)}`, { token: t.access_token })).status, 403);
    const page = await pageOf(e, t.access_token);
    await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(page, 'page news') });
    const pagePosts = await call(e, 'GET', `/rest/posts?q=author&author=${enc(page)}&count=10`, { token: t.access_token });
    assert.equal(pagePosts.status, 200);
    assert.deepEqual(pagePosts.body.elements.map((p: { commentary: string }) => p.commentary), ['page news']);
    assert.equal((await call(e, 'GET', `/rest/posts/${urn}`, { token: t.access_token })).status, 400, 'bare URN key');

    const partner = await start({ partner: true });
    try {
      const pt = await grant(partner, 'partner-member', [...CM, 'r_member_social']);
      const me = await memberOf(partner, pt.access_token);
      const mine = (await call(partner, 'POST', '/rest/posts', { token: pt.access_token, json: post(me, 'mine') })).headers.get('x-restli-id')!;
      assert.equal((await call(partner, 'GET', `/rest/posts/${enc(mine)}`, { token: pt.access_token })).body.commentary, 'mine');
    } finally {
      await partner.server.close();
    }
  });

  test('PARTIAL_UPDATE sets the commentary only; DELETE is idempotent', async () => {
    const t = await grant(e, 'editor');
    const author = await memberOf(e, t.access_token);
    const urn = (await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'before') })).headers.get('x-restli-id')!;
    const path = `/rest/posts/${enc(urn)}`;
    assert.equal((await call(e, 'POST', path, { token: t.access_token, json: { patch: { $set: { commentary: 'after' } } } })).status, 400, 'no method header');
    const other = await call(e, 'POST', path, { token: t.access_token, headers: { 'x-restli-method': 'PARTIAL_UPDATE' }, json: { patch: { $set: { visibility: 'CONNECTIONS' } } } });
    assert.equal(other.status, 422);
    const ok = await call(e, 'POST', path, { token: t.access_token, headers: { 'x-restli-method': 'PARTIAL_UPDATE' }, json: { patch: { $set: { commentary: 'after \\(edited\\)' } } } });
    assert.equal(ok.status, 204);
    assert.deepEqual(e.emu.ledger.list({ kind: 'edit' }).filter((x) => x.id === urn).map((x) => x.text), ['after (edited)']);
    assert.equal((await call(e, 'DELETE', path, { token: t.access_token, headers: { 'x-restli-method': 'DELETE' } })).status, 204);
    assert.equal((await call(e, 'DELETE', path, { token: t.access_token })).status, 204);
    assert.equal(e.emu.ledger.list({ kind: 'delete' }).filter((x) => x.id === urn).length, 1);
    assert.equal((await call(e, 'DELETE', `/rest/posts/${enc('urn:li:share:1')}`, { token: t.access_token })).status, 404);
  });

  test('the daily quota: 429 with serviceErrorCode 101 and no reset header', async () => {
    const q = await start({ dailyPostsPerMember: 2 });
    try {
      const t = await grant(q, 'busy');
      const author = await memberOf(q, t.access_token);
      for (const n of [1, 2]) assert.equal((await call(q, 'POST', '/rest/posts', { token: t.access_token, json: post(author, `post ${n}`) })).status, 201);
      const third = await call(q, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'post 3') });
      assert.equal(third.status, 429);
      assert.equal(third.body.serviceErrorCode, 101);
      assert.equal(third.headers.get('retry-after'), null);
    } finally {
      await q.server.close();
    }
  });
});

describe('media', () => {
  test('images: owner checks, the owner\'s token on the upload URL, processing, and only AVAILABLE media in a post', async () => {
    const t = await grant(e, 'imager');
    const author = await memberOf(e, t.access_token);
    const other = await grant(e, 'not-imager');
    const foreign = await call(e, 'POST', '/rest/images?action=initializeUpload', { token: other.access_token, json: { initializeUploadRequest: { owner: author } } });
    assert.equal(foreign.status, 403);
    const init = await call(e, 'POST', '/rest/images?action=initializeUpload', { token: t.access_token, json: { initializeUploadRequest: { owner: author } } });
    const { uploadUrl, image } = init.body.value;
    const early = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'too early', { content: { media: { id: image } } }) });
    assert.equal(early.status, 422);
    assert.match(early.body.message, /status WAITING_UPLOAD/);
    assert.equal((await call(e, 'PUT', uploadUrl, { bytes: SAMPLE_MEDIA['sample.jpg']!.bytes, version: null, protocol: null })).status, 401);
    assert.equal((await call(e, 'PUT', uploadUrl, { token: t.access_token, bytes: SAMPLE_MEDIA['sample.jpg']!.bytes, version: null, protocol: null })).status, 201);
    assert.equal((await call(e, 'GET', `/rest/images/${enc(image)}`, { token: t.access_token })).body.status, 'PROCESSING');
    await settle();
    assert.equal((await call(e, 'GET', `/rest/images/${enc(image)}`, { token: t.access_token })).body.status, 'AVAILABLE');
    const single = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'one image', { content: { multiImage: { images: [{ id: image }] } } }) });
    assert.equal(single.status, 422, 'multiImage needs 2 to 20');
    const page = await pageOf(e, t.access_token);
    assert.equal((await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(page, 'not mine', { content: { media: { id: image } } }) })).status, 422, 'owner ≠ author');
    const ok = await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'with image', { content: { media: { id: image, altText: 'a dot' } } }) });
    assert.equal(ok.status, 201);
    const entry = e.emu.ledger.get(ok.headers.get('x-restli-id')!)!;
    assert.deepEqual(entry.extra?.altTexts, ['a dot']);
    assert.deepEqual(entry.extra?.mediaBytes, [SAMPLE_MEDIA['sample.jpg']!.bytes.length]);
  });

  test('a file that is not an image fails processing', async () => {
    const t = await grant(e, 'bad-imager');
    const author = await memberOf(e, t.access_token);
    const image = await uploadImage(e, t.access_token, author, pdf(1));
    await settle();
    assert.equal((await call(e, 'GET', `/rest/images/${enc(image)}`, { token: t.access_token })).body.status, 'PROCESSING_FAILED');
  });

  test('videos: parts of the announced size, ETags in order, finalize, processing', async () => {
    const t = await grant(e, 'videographer');
    const author = await memberOf(e, t.access_token);
    const file = mp4(5, 200_000);
    const init = await call(e, 'POST', '/rest/videos?action=initializeUpload', { token: t.access_token, json: { initializeUploadRequest: { owner: author, fileSizeBytes: file.length, uploadCaptions: false, uploadThumbnail: false } } });
    const { video, uploadInstructions, uploadToken } = init.body.value;
    assert.equal(uploadInstructions.length, 4);
    assert.deepEqual(uploadInstructions.at(-1).lastByte, file.length - 1);
    assert.ok(uploadToken);
    const wrong = await call(e, 'PUT', uploadInstructions[0].uploadUrl, { token: t.access_token, bytes: file.subarray(0, 10), version: null, protocol: null });
    assert.equal(wrong.status, 400);
    const etags: string[] = [];
    for (const [i, p] of uploadInstructions.entries()) {
      if (i === 3) {
        const early = await call(e, 'POST', '/rest/videos?action=finalizeUpload', { token: t.access_token, json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags } } });
        assert.match(early.body.message, /Part 3 of 4 was not uploaded/);
      }
      const put = await call(e, 'PUT', p.uploadUrl, { token: t.access_token, bytes: file.subarray(p.firstByte, p.lastByte + 1), version: null, protocol: null });
      assert.equal(put.status, 200);
      etags.push(put.headers.get('etag')!);
    }
    const shuffled = await call(e, 'POST', '/rest/videos?action=finalizeUpload', { token: t.access_token, json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: [...etags].reverse() } } });
    assert.equal(shuffled.status, 400);
    assert.equal((await call(e, 'GET', `/rest/videos/${enc(video)}`, { token: t.access_token })).body.status, 'WAITING_UPLOAD');
    const done = await call(e, 'POST', '/rest/videos?action=finalizeUpload', { token: t.access_token, json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags } } });
    assert.equal(done.status, 200);
    await settle();
    assert.equal((await call(e, 'GET', `/rest/videos/${enc(video)}`, { token: t.access_token })).body.status, 'AVAILABLE');
    const single = await call(e, 'POST', '/rest/videos?action=initializeUpload', { token: t.access_token, json: { initializeUploadRequest: { owner: author, fileSizeBytes: 1000 } } });
    assert.equal(single.body.value.uploadToken, '', 'a single-part upload has an empty token');
  });

  test('a too-short video and a document without a title are refused', async () => {
    const t = await grant(e, 'documenter');
    const author = await memberOf(e, t.access_token);
    const file = mp4(2, 80_000);
    const init = await call(e, 'POST', '/rest/videos?action=initializeUpload', { token: t.access_token, json: { initializeUploadRequest: { owner: author, fileSizeBytes: file.length } } });
    const etags: string[] = [];
    for (const p of init.body.value.uploadInstructions) {
      etags.push((await call(e, 'PUT', p.uploadUrl, { token: t.access_token, bytes: file.subarray(p.firstByte, p.lastByte + 1), version: null, protocol: null })).headers.get('etag')!);
    }
    const { video, uploadToken } = init.body.value;
    await call(e, 'POST', '/rest/videos?action=finalizeUpload', { token: t.access_token, json: { finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags } } });
    await settle();
    assert.equal((await call(e, 'GET', `/rest/videos/${enc(video)}`, { token: t.access_token })).body.status, 'PROCESSING_FAILED');

    const docInit = await call(e, 'POST', '/rest/documents?action=initializeUpload', { token: t.access_token, json: { initializeUploadRequest: { owner: author } } });
    await call(e, 'PUT', docInit.body.value.uploadUrl, { token: t.access_token, bytes: pdf(2), version: null, protocol: null });
    await settle();
    const doc = docInit.body.value.document;
    assert.equal((await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'deck', { content: { media: { id: doc } } }) })).status, 422);
    assert.equal((await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'deck', { content: { media: { id: doc, title: 'Deck.pdf' } } }) })).status, 201);
  });
});

describe('comments', () => {
  test('plain text kept verbatim, at most 1,250 characters, as someone the caller may act as', async () => {
    const t = await grant(e, 'commenter');
    const author = await memberOf(e, t.access_token);
    const urn = (await call(e, 'POST', '/rest/posts', { token: t.access_token, json: post(author, 'comment on me') })).headers.get('x-restli-id')!;
    const path = `/rest/socialActions/${enc(urn)}/comments`;
    const long = await call(e, 'POST', path, { token: t.access_token, json: { actor: author, object: urn, message: { text: 'c'.repeat(1251) } } });
    assert.equal(long.status, 400);
    const ok = await call(e, 'POST', path, { token: t.access_token, json: { actor: author, object: urn, message: { text: 'first \\(comment\\)' } } });
    assert.equal(ok.status, 201);
    assert.match(ok.headers.get('x-restli-id')!, /^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    assert.equal(e.emu.ledger.get(ok.headers.get('x-restli-id')!)?.text, 'first \\(comment\\)', 'escapes show in comments');
    const other = await grant(e, 'comment-stranger');
    assert.equal((await call(e, 'POST', path, { token: other.access_token, json: { actor: author, object: urn, message: { text: 'as you' } } })).status, 403);
    assert.equal((await call(e, 'GET', path, { token: t.access_token })).status, 403, 'a member\'s own post comments are partner-only');
  });
});

describe('faults', () => {
  test('an injected throttle says when it lifts; a fault on the token endpoint answers in OAuth\'s shape', async () => {
    e.emu.faults.add({ kind: 'rate_limited', path: '/rest/organizationAcls', resetSeconds: 90 });
    const t = await grant(e, 'faulty');
    const r = await call(e, 'GET', '/rest/organizationAcls?q=roleAssignee', { token: t.access_token });
    assert.deepEqual([r.status, r.body.serviceErrorCode, r.headers.get('retry-after')], [429, 101, '90']);
    e.emu.faults.add({ kind: 'server_error', path: '/accessToken' });
    const f = await form(`${e.root}/accessToken`, {});
    assert.deepEqual([f.status, f.body.error], [500, 'server_error']);
  });
});

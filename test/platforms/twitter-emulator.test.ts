// The X emulator on its own: what it answers over HTTP, mounted at any prefix, with its own clock.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { SAMPLE_MEDIA } from '../../src/sandbox/media.ts';
import { createTwitterEmulator } from '../../src/sandbox/twitter/emulator.ts';
import { adapterDeps } from '../helpers/platform.ts';

const REDIRECT = 'https://herald.example/cb';
const BASIC = `Basic ${Buffer.from(`${SANDBOX_APP.clientId}:${SANDBOX_APP.clientSecret}`).toString('base64')}`;
let clock = Date.now();
const emu = createTwitterEmulator({ now: () => clock, processingMs: 10_000 });
let server: EmulatorServer;
let root: string;

before(async () => {
  server = await startEmulatorServer([emu]);
  root = server.rootOf('twitter');
});
after(() => server.close());

function authorizeUrl(base: string, extra: Record<string, string> = {}, challenge = 'c'.repeat(43)): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: SANDBOX_APP.clientId,
    redirect_uri: REDIRECT,
    scope: 'tweet.read tweet.write users.read media.write offline.access',
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });
  return `${base}/i/oauth2/authorize?${q}`;
}

async function token(base: string, user: string, extra: Record<string, string> = {}): Promise<{ access_token: string; refresh_token?: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const res = await fetch(authorizeUrl(base, { sandbox_user: user, ...extra }, challenge), { redirect: 'manual' });
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const tok = await fetch(`${base}/2/oauth2/token`, {
    method: 'POST',
    headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }),
  });
  assert.equal(tok.status, 200);
  return (await tok.json()) as { access_token: string; refresh_token?: string };
}

function api(path: string, accessToken: string, init: { method?: string; json?: unknown; form?: FormData } = {}): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${root}${path}`, { method: init.method ?? 'GET', headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form });
}

const post = (t: string, body: unknown) => api('/2/tweets', t, { method: 'POST', json: body });

test('works mounted under any prefix', async () => {
  const app: FastifyInstance = Fastify();
  const other = createTwitterEmulator();
  await app.register(other.plugin, { prefix: '/sandbox/twitter' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/sandbox/twitter`;
    const { access_token } = await token(base, 'mounted');
    const me = await fetch(`${base}/2/users/me`, { headers: { authorization: `Bearer ${access_token}` } });
    assert.equal(me.status, 200);
    assert.equal(((await me.json()) as { data: { username: string } }).data.username, 'mounted');
    assert.ok(me.headers.get('x-rate-limit-reset'));
    assert.deepEqual(other.calls.map((c) => c.path), ['/i/oauth2/authorize', '/2/oauth2/token', '/2/users/me']);
  } finally {
    await app.close();
  }
});

test('the consent page checks the client, PKCE and redirect; a denial comes back as access_denied', async () => {
  const bads: Record<string, string>[] = [{ client_id: 'someone-else' }, { code_challenge: '' }, { redirect_uri: 'not a url' }, { response_type: 'token' }, { scope: 'tweet.read nonsense' }];
  for (const bad of bads) {
    const res = await fetch(authorizeUrl(root, bad), { redirect: 'manual' });
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
  }
  const denied = await fetch(authorizeUrl(root, { sandbox_deny: '1' }), { redirect: 'manual' });
  assert.equal(denied.status, 302);
  const to = new URL(denied.headers.get('location')!);
  assert.equal(to.searchParams.get('error'), 'access_denied');
  assert.equal(to.searchParams.get('state'), 'st');
  assert.equal(to.searchParams.get('code'), null);
});

test('the token endpoint wants Basic auth, a fresh code and the right verifier', async () => {
  const res = await fetch(authorizeUrl(root, { sandbox_user: 'tok', scope: 'tweet.read users.read' }), { redirect: 'manual' });
  const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
  const form = (extra: Record<string, string>) => new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...extra });
  const noBasic = await fetch(`${root}/2/oauth2/token`, { method: 'POST', body: form({ code_verifier: 'v', client_id: SANDBOX_APP.clientId }) });
  assert.equal(noBasic.status, 401);
  assert.deepEqual(await noBasic.json(), { error: 'unauthorized_client', error_description: 'Missing valid authorization header' });
  const headers = { authorization: BASIC };
  const noVerifier = await fetch(`${root}/2/oauth2/token`, { method: 'POST', headers, body: form({}) });
  assert.equal(noVerifier.status, 400);
  const wrongVerifier = await fetch(`${root}/2/oauth2/token`, { method: 'POST', headers, body: form({ code_verifier: 'wrong' }) });
  assert.equal(wrongVerifier.status, 400);
  assert.equal(((await wrongVerifier.json()) as { error_description: string }).error_description, 'Value passed for the authorization code was invalid.');
  const t = await token(root, 'tok2', { scope: 'tweet.read users.read' });
  assert.equal(t.refresh_token, undefined, 'no offline.access, no refresh token');
});

test('a user gets 100 posts per 15 minutes, then a 429 X-style; the adapter reads the reset', async () => {
  const { access_token } = await token(root, 'busy');
  let last: Response | undefined;
  for (let i = 0; i < 100; i++) {
    last = await post(access_token, { text: `post number ${i}` });
    assert.equal(last.status, 201);
  }
  assert.equal(last!.headers.get('x-rate-limit-limit'), '100');
  assert.equal(last!.headers.get('x-rate-limit-remaining'), '0');
  const over = await post(access_token, { text: 'one too many' });
  assert.equal(over.status, 429);
  assert.match(over.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.deepEqual(await over.json(), { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 });
  const reset = Number(over.headers.get('x-rate-limit-reset'));
  assert.ok(reset * 1000 > clock && reset * 1000 <= clock + 15 * 60_000 + 1000);

  const me = (await (await api('/2/users/me', access_token)).json()) as { data: { id: string; username: string } };
  const adapter = createTwitterAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/i/oauth2/authorize` }));
  const out = await adapter.publish({
    account: { accountId: me.data.id, username: me.data.username, accessToken: access_token, refreshToken: null, expiresAt: null, scopes: [], meta: {} },
    content: 'still too many',
    media: [],
    settings: {},
    checkpoint: null,
    saveCheckpoint: async () => {},
    attemptStartedAt: Date.now(),
  });
  assert.ok(!out.ok && out.category === 'rate_limited');
  assert.equal(out.retryAt, reset * 1000);
  assert.equal(emu.ledger.list({ accountId: me.data.id }).length, 100);
});

test('duplicates, unknown media, mixed media and replies to nothing are refused in X\'s words', async () => {
  const { access_token } = await token(root, 'strict');
  assert.equal((await post(access_token, { text: 'only once' })).status, 201);
  const dup = await post(access_token, { text: 'only once' });
  assert.equal(dup.status, 403);
  assert.deepEqual(await dup.json(), { title: 'Forbidden', detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', status: 403 });
  const unknown = await post(access_token, { text: 'pic', media: { media_ids: ['1234567890123'] } });
  assert.equal(unknown.status, 400);
  assert.equal(((await unknown.json()) as { type: string }).type, 'https://api.x.com/2/problems/invalid-request');
  const orphan = await post(access_token, { text: 'hello?', reply: { in_reply_to_tweet_id: '999999999999' } });
  assert.equal(orphan.status, 403);
  assert.equal((await post(access_token, { text: 'x'.repeat(281) })).status, 400, 'free accounts stop at 280');
  assert.equal((await post(access_token, {})).status, 400);
  assert.equal((await post(access_token, { text: 'hi', reply_settings: 'nobody' })).status, 400);

  const form = new FormData();
  form.set('media', new Blob([SAMPLE_MEDIA['sample.jpg']!.bytes]), 'a.jpg');
  form.set('media_category', 'tweet_image');
  const img = (await (await api('/2/media/upload', access_token, { method: 'POST', form })).json()) as { data: { id: string } };
  const mp4 = SAMPLE_MEDIA['sample.mp4']!.bytes;
  const init = await api('/2/media/upload/initialize', access_token, { method: 'POST', json: { media_type: 'video/mp4', total_bytes: mp4.byteLength, media_category: 'tweet_video' } });
  const vid = ((await init.json()) as { data: { id: string } }).data.id;
  const chunk = new FormData();
  chunk.set('segment_index', '0');
  chunk.set('media', new Blob([mp4]));
  assert.equal((await api(`/2/media/upload/${vid}/append`, access_token, { method: 'POST', form: chunk })).status, 200);
  assert.equal((await api(`/2/media/upload/${vid}/finalize`, access_token, { method: 'POST' })).status, 200);
  clock += 10_000; // processing done
  const mixed = await post(access_token, { text: 'mix', media: { media_ids: [img.data.id, vid] } });
  assert.equal(mixed.status, 400);
  assert.match(((await mixed.json()) as { errors: { message: string }[] }).errors[0]!.message, /not a mix/);
  assert.equal((await post(access_token, { text: 'just the video', media: { media_ids: [vid] } })).status, 201);
});

test('edits: Premium only, own latest version, within 1 hour, at most 5; edit_controls tell the same', async () => {
  const premium = (await token(root, 'editor', { sandbox_subscription: 'Premium' })).access_token;
  const created = (await (await post(premium, { text: 'v1' })).json()) as { data: { id: string } };
  const id = created.data.id;
  clock += 59 * 60_000;
  const edited = await post(premium, { text: 'v2', edit_options: { previous_post_id: id } });
  assert.equal(edited.status, 201);
  const v2 = ((await edited.json()) as { data: { id: string; edit_history_tweet_ids: string[] } }).data;
  assert.deepEqual(v2.edit_history_tweet_ids, [id, v2.id]);
  const look = (await (await api(`/2/tweets/${v2.id}?tweet.fields=edit_controls`, premium)).json()) as {
    data: { edit_controls: { is_edit_eligible: boolean; edits_remaining: number; editable_until: string } };
  };
  assert.equal(look.data.edit_controls.edits_remaining, 4);
  assert.equal(look.data.edit_controls.is_edit_eligible, true);
  assert.equal(Date.parse(look.data.edit_controls.editable_until) - Date.parse(new Date(clock - 59 * 60_000).toISOString()), 60 * 60_000);
  assert.equal((await post(premium, { text: 'old', edit_options: { previous_post_id: id } })).status, 403, 'only the latest version');

  const other = (await token(root, 'bystander', { sandbox_subscription: 'Premium' })).access_token;
  assert.equal((await post(other, { text: 'mine now', edit_options: { previous_post_id: v2.id } })).status, 403);
  clock += 2 * 60_000;
  const late = await post(premium, { text: 'v3', edit_options: { previous_post_id: v2.id } });
  assert.equal(late.status, 403);
  assert.match(((await late.json()) as { detail: string }).detail, /edit window has closed/);
  assert.deepEqual(emu.ledger.list({ kind: 'edit' }).map((e) => e.extra?.previousPostId), [id]);
});

test('chunked media goes pending → in_progress → succeeded on the emulator clock; junk fails', async () => {
  const t = (await token(root, 'uploader')).access_token;
  async function upload(bytes: Uint8Array, mediaType: string): Promise<string> {
    const init = await api('/2/media/upload/initialize', t, { method: 'POST', json: { media_type: mediaType, total_bytes: bytes.byteLength, media_category: 'tweet_video' } });
    const id = ((await init.json()) as { data: { id: string } }).data.id;
    const form = new FormData();
    form.set('segment_index', '0');
    form.set('media', new Blob([bytes as Uint8Array<ArrayBuffer>]));
    assert.equal((await api(`/2/media/upload/${id}/append`, t, { method: 'POST', form })).status, 200);
    const fin = (await (await api(`/2/media/upload/${id}/finalize`, t, { method: 'POST' })).json()) as { data: { processing_info: { state: string } } };
    assert.equal(fin.data.processing_info.state, 'pending');
    return id;
  }
  const status = async (id: string) =>
    ((await (await api(`/2/media/upload?command=STATUS&media_id=${id}`, t)).json()) as { data: { processing_info: Record<string, unknown> } }).data.processing_info;
  const good = await upload(SAMPLE_MEDIA['sample.mp4']!.bytes, 'video/mp4');
  const bad = await upload(new Uint8Array(64).fill(9), 'video/mp4');
  assert.equal((await post(t, { text: 'too soon', media: { media_ids: [good] } })).status, 400);
  clock += 5_000;
  const mid = await status(good);
  assert.equal(mid.state, 'in_progress');
  assert.equal(mid.check_after_secs, 5);
  assert.equal(mid.progress_percent, 50);
  clock += 5_000;
  assert.equal((await status(good)).state, 'succeeded');
  const failed = await status(bad);
  assert.equal(failed.state, 'failed');
  assert.deepEqual(failed.error, { code: 1, name: 'InvalidMedia', message: 'Invalid or Unsupported media, Reason: UnsupportedMedia.' });
  assert.equal((await post(t, { text: 'ready now', media: { media_ids: [good] } })).status, 201);
  assert.equal((await post(t, { text: 'broken', media: { media_ids: [bad] } })).status, 400);
});

test('the command-style upload (INIT / APPEND / FINALIZE on /2/media/upload) works too', async () => {
  const t = (await token(root, 'legacy')).access_token;
  const bytes = SAMPLE_MEDIA['sample.png']!.bytes;
  const send = async (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const res = await api('/2/media/upload', t, { method: 'POST', form });
    assert.equal(res.status, 200, JSON.stringify(fields));
    return (await res.json()) as { data: { id: string } };
  };
  const { data } = await send({ command: 'INIT', media_type: 'image/png', total_bytes: String(bytes.byteLength), media_category: 'tweet_image' });
  await send({ command: 'APPEND', media_id: data.id, segment_index: '0', media: new Blob([bytes]) });
  await send({ command: 'FINALIZE', media_id: data.id });
  assert.equal((await post(t, { text: 'legacy upload', media: { media_ids: [data.id] } })).status, 201);
});

test('the timeline pages newest first, honours start_time, and long posts carry note_tweet', async () => {
  const t = (await token(root, 'writer', { sandbox_subscription: 'Premium' })).access_token;
  const me = ((await (await api('/2/users/me', t)).json()) as { data: { id: string } }).data;
  const longText = 'long '.repeat(100).trim();
  for (const text of ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', longText]) assert.equal((await post(t, { text })).status, 201);
  const page1 = (await (await api(`/2/users/${me.id}/tweets?max_results=5&tweet.fields=created_at,note_tweet`, t)).json()) as {
    data: { text: string; note_tweet?: { text: string } }[];
    meta: { next_token: string; result_count: number };
  };
  assert.equal(page1.meta.result_count, 5);
  assert.ok(page1.data[0]!.text.endsWith('…'), 'long posts are cut short in text');
  assert.equal(page1.data[0]!.note_tweet?.text, longText);
  const page2 = (await (await api(`/2/users/${me.id}/tweets?max_results=5&pagination_token=${page1.meta.next_token}`, t)).json()) as { data: { text: string }[] };
  assert.deepEqual(page2.data.map((p) => p.text), ['a2', 'a1']);
  const future = new Date(clock + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  assert.deepEqual(await (await api(`/2/users/${me.id}/tweets?start_time=${future}`, t)).json(), { meta: { result_count: 0 } });
  assert.equal((await api(`/2/users/${me.id}/tweets?max_results=500`, t)).status, 400);
});

test('injected errors come back in X\'s formats, with rate-limit headers', async () => {
  const cases = [
    ['server_error', 503, 'about:blank'],
    ['rate_limited', 429, 'about:blank'],
    ['expired_token', 401, 'about:blank'],
    ['validation', 400, 'https://api.x.com/2/problems/invalid-request'],
    ['permission', 403, 'https://api.x.com/2/problems/client-forbidden'],
  ] as const;
  for (const [kind, status, type] of cases) {
    emu.faults.add({ kind, path: '/2/users/me', resetSeconds: 30 });
    const res = await fetch(`${root}/2/users/me`);
    assert.equal(res.status, status, kind);
    assert.equal(((await res.json()) as { type: string }).type, type, kind);
    assert.ok(res.headers.get('x-rate-limit-limit'), `${kind} carries x-rate-limit-limit`);
    if (kind === 'rate_limited') {
      assert.equal(res.headers.get('x-rate-limit-remaining'), '0');
      assert.equal(Number(res.headers.get('x-rate-limit-reset')), Math.ceil(clock / 1000) + 30);
    }
  }
  const unauth = await fetch(`${root}/2/users/me`);
  assert.equal(unauth.status, 401);
  assert.ok(unauth.headers.get('x-rate-limit-reset'), 'even a 401 carries the headers');
});

test('reset forgets posts, tokens and users', async () => {
  const t = (await token(root, 'forgetful')).access_token;
  assert.equal((await post(t, { text: 'soon gone' })).status, 201);
  emu.reset();
  assert.equal(emu.ledger.list().length, 0);
  assert.equal((await api('/2/users/me', t)).status, 401);
});

// Strictness: what X refuses, the emulator refuses too (src/sandbox/README.md, "As strict as the platform").

test('strict: a state over 500 characters is refused on the consent page', async () => {
  const res = await fetch(authorizeUrl(root, { state: 's'.repeat(501) }), { redirect: 'manual' });
  assert.equal(res.status, 400);
  assert.match(((await res.json()) as { error_description: string }).error_description, /state may be at most 500/);
});

test('strict: uploads need media_category, one that fits the media type, and a size within its limit', async () => {
  const t = (await token(root, 'categorist')).access_token;
  const oneShot = new FormData();
  oneShot.set('media', new Blob([SAMPLE_MEDIA['sample.jpg']!.bytes]), 'a.jpg');
  const noCategory = await api('/2/media/upload', t, { method: 'POST', form: oneShot });
  assert.equal(noCategory.status, 400);
  assert.match(((await noCategory.json()) as { errors: { message: string }[] }).errors[0]!.message, /media_category is required/);
  const init = (json: Record<string, unknown>) => api('/2/media/upload/initialize', t, { method: 'POST', json });
  const refusals: [Record<string, unknown>, RegExp][] = [
    [{ media_type: 'video/mp4', total_bytes: 1000 }, /media_category is required/],
    [{ media_type: 'video/mp4', total_bytes: 1000, media_category: 'tweet_image' }, /does not take video/],
    [{ media_type: 'image/jpeg', total_bytes: 1000, media_category: 'tweet_video' }, /does not take image/],
    [{ media_type: 'image/png', total_bytes: 1000, media_category: 'tweet_gif' }, /does not take image/],
    [{ media_type: 'image/jpeg', total_bytes: 5 * 1024 * 1024 + 1, media_category: 'tweet_image' }, /over the 5242880-byte limit/],
    [{ media_type: 'image/gif', total_bytes: 15 * 1024 * 1024 + 1, media_category: 'tweet_gif' }, /over the 15728640-byte limit/],
  ];
  for (const [body, message] of refusals) {
    const res = await init(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    const problem = (await res.json()) as { type: string; errors: { message: string }[] };
    assert.equal(problem.type, 'https://api.x.com/2/problems/invalid-request');
    assert.match(problem.errors[0]!.message, message);
  }
  assert.equal((await init({ media_type: 'image/gif', total_bytes: 15 * 1024 * 1024, media_category: 'tweet_gif' })).status, 200);
  assert.equal((await init({ media_type: 'image/gif', total_bytes: 1000, media_category: 'tweet_image' })).status, 200, 'a still GIF may go up as an image');
});

test('strict: fields X\'s schema does not know are refused; bad JSON and unknown paths answer in problem JSON', async () => {
  const t = (await token(root, 'schema')).access_token;
  const extra = await post(t, { text: 'hello', sandbox_anything: true });
  assert.equal(extra.status, 400);
  assert.match(((await extra.json()) as { errors: { message: string }[] }).errors[0]!.message, /\$\.sandbox_anything: is not defined in the schema/);
  const broken = await fetch(`${root}/2/tweets`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: '{"text":' });
  assert.equal(broken.status, 400);
  assert.match(broken.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(((await broken.json()) as { type: string }).type, 'https://api.x.com/2/problems/invalid-request');
  const nowhere = await fetch(`${root}/2/nowhere`, { headers: { authorization: `Bearer ${t}` } });
  assert.equal(nowhere.status, 404);
  assert.match(nowhere.headers.get('content-type') ?? '', /application\/problem\+json/);
});

test('strict: the app-wide limits hold across users (450 post lookups per 15 minutes; 24-hour headers on writes)', async () => {
  clock += 16 * 60_000; // fresh windows
  const a = (await token(root, 'reader-a')).access_token;
  const created = await post(a, { text: 'look me up' });
  assert.equal(created.headers.get('x-app-limit-24hour-limit'), '10000');
  assert.ok(Number(created.headers.get('x-app-limit-24hour-remaining')) < 10_000);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  const readers = await Promise.all(['reader-b', 'reader-c'].map(async (u) => (await token(root, u)).access_token));
  let last: Response | undefined;
  for (let i = 0; i < 450; i++) {
    last = await api(`/2/tweets/${id}`, [a, ...readers][i % 3]!);
    assert.equal(last.status, 200, `lookup ${i}`);
  }
  assert.equal(last!.headers.get('x-rate-limit-limit'), '450', 'the app window binds before any user window');
  const over = await api(`/2/tweets/${id}`, (await token(root, 'reader-d')).access_token);
  assert.equal(over.status, 429, 'a user who never called still meets the app limit');
  assert.equal(over.headers.get('x-rate-limit-remaining'), '0');
  clock += 16 * 60_000;
  assert.equal((await api(`/2/tweets/${id}`, a)).status, 200, 'the window lifts');
});

// The Threads emulator speaking Threads' protocol, mounted under an arbitrary prefix as Herald's
// sandbox mounts it.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { createThreadsEmulator, threadsErrorFor } from '../../src/sandbox/threads/emulator.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { ERROR_FAULT_KINDS } from '../../src/sandbox/kit/faults.ts';

const DAY_MS = 24 * 60 * 60_000;
const REDIRECT = 'https://app.example.com/cb';

describe('Threads emulator protocol', () => {
  // The emulator's clock: real time moved by `offset`, or held at `frozenAt` (plus `offset`) when set.
  const clock = { offset: 0, frozenAt: null as number | null };
  const emu = createThreadsEmulator({ now: () => (clock.frozenAt ?? Date.now()) + clock.offset, processingMs: 40 });
  let app: FastifyInstance;
  let root: string;

  before(async () => {
    app = Fastify({ logger: false, forceCloseConnections: true });
    await app.register(emu.plugin, { prefix: '/sandbox/threads' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    root = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/sandbox/threads`;
  });
  after(() => app.close());
  beforeEach(() => {
    emu.reset();
    clock.offset = 0;
    clock.frozenAt = null;
  });

  async function authorize(extra: Record<string, string> = {}): Promise<URL> {
    const url = new URL(`${root}/oauth/authorize`);
    const params = { client_id: SANDBOX_APP.clientId, redirect_uri: REDIRECT, scope: 'threads_basic,threads_content_publish,threads_manage_replies', response_type: 'code', state: 'xyz', ...extra };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 302);
    return new URL(res.headers.get('location')!);
  }

  async function shortToken(extra: Record<string, string> = {}): Promise<{ token: string; raw: string }> {
    const code = (await authorize(extra)).searchParams.get('code')!;
    const res = await fetch(`${root}/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT }),
    });
    const raw = await res.text();
    assert.equal(res.status, 200, raw);
    return { token: (JSON.parse(raw) as { access_token: string }).access_token, raw };
  }

  async function longToken(extra: Record<string, string> = {}): Promise<string> {
    const { token } = await shortToken(extra);
    const res = await fetch(`${root}/access_token?grant_type=th_exchange_token&client_secret=${SANDBOX_APP.clientSecret}&access_token=${encodeURIComponent(token)}`);
    const body = (await res.json()) as { access_token: string; token_type: string; expires_in: number };
    assert.equal(body.token_type, 'bearer');
    assert.equal(body.expires_in, 60 * 24 * 60 * 60);
    return body.access_token;
  }

  async function graph(method: string, path: string, token: string | null, params: Record<string, string> = {}) {
    const url = new URL(`${root}/v1.0/${path}`);
    let body: URLSearchParams | undefined;
    if (method === 'GET') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    else body = new URLSearchParams(params);
    const res = await fetch(url, { method, body, headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  test('consent redirects back with code, state and the #_ suffix; denial and bad scopes come back as errors', async () => {
    const ok = await authorize();
    assert.equal(ok.origin + ok.pathname, REDIRECT);
    assert.ok(ok.searchParams.get('code'));
    assert.equal(ok.searchParams.get('state'), 'xyz');
    assert.equal(ok.hash, '#_');
    const denied = await authorize({ sandbox_deny: '1' });
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    const badScope = await authorize({ scope: 'threads_content_publish' });
    assert.equal(badScope.searchParams.get('error'), 'invalid_scope');
  });

  test('the code exchange sends user_id as a bare number beyond 2^53; codes are single use', async () => {
    const code = (await authorize({ sandbox_user: 'dana' })).searchParams.get('code')!;
    const form = { client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT };
    const res = await fetch(`${root}/oauth/access_token`, { method: 'POST', body: new URLSearchParams(form) });
    const raw = await res.text();
    const userId = /"user_id":(\d+)/u.exec(raw)?.[1];
    assert.ok(userId && BigInt(userId) > 2n ** 53n, raw);
    assert.notEqual(String((JSON.parse(raw) as { user_id: number }).user_id), userId, 'JSON.parse would round it');
    const again = await fetch(`${root}/oauth/access_token`, { method: 'POST', body: new URLSearchParams(form) });
    const err = (await again.json()) as { error: { code: number; type: string } };
    assert.equal(again.status, 400);
    assert.equal(err.error.code, 100);
    assert.equal(err.error.type, 'OAuthException');
  });

  test('tokens work as access_token or Bearer; missing, bad and expired tokens get Graph errors', async () => {
    const token = await longToken({ sandbox_user: 'erin' });
    const me = await graph('GET', 'me', token, { fields: 'id,username,threads_profile_picture_url' });
    assert.equal(me.body.username, 'erin');
    assert.ok(me.body.threads_profile_picture_url.startsWith(`${root}/avatars/`), 'URLs handed out carry the mount prefix');
    const viaQuery = await fetch(`${root}/v1.0/me?access_token=${encodeURIComponent(token)}`);
    assert.equal(((await viaQuery.json()) as { id: string }).id, me.body.id);
    assert.equal((await graph('GET', 'me', null)).body.error.code, 104);
    const bad = await graph('GET', 'me', 'THQVJa.nope');
    assert.equal(bad.body.error.code, 190);
    emu.oauth.expireAccessTokens();
    const expired = await graph('GET', 'me', token);
    assert.deepEqual([expired.status, expired.body.error.code, expired.body.error.error_subcode], [400, 190, 463]);
    assert.equal(typeof expired.body.error.fbtrace_id, 'string');
  });

  test('refresh needs a long-lived token at least 24 hours old', async () => {
    const { token: short } = await shortToken();
    const refreshUrl = (t: string) => `${root}/refresh_access_token?grant_type=th_refresh_token&access_token=${encodeURIComponent(t)}`;
    assert.equal(((await (await fetch(refreshUrl(short))).json()) as { error: { code: number } }).error.code, 100);
    const long = await longToken();
    assert.equal((await fetch(refreshUrl(long))).status, 400);
    clock.offset = DAY_MS + 60_000;
    const res = await fetch(refreshUrl(long));
    const body = (await res.json()) as { access_token: string; expires_in: number };
    assert.equal(res.status, 200);
    assert.notEqual(body.access_token, long);
    const debug = await graph('GET', 'debug_token', body.access_token, { input_token: body.access_token });
    assert.equal(debug.body.data.is_valid, true);
    assert.deepEqual(debug.body.data.scopes, ['threads_basic', 'threads_content_publish', 'threads_manage_replies']);
    assert.ok(debug.body.data.expires_at * 1000 > Date.now() + clock.offset + 59 * DAY_MS);
  });

  test('container rules: length with emoji bytes, links, carousel size, reply control, topic tag', async () => {
    const token = await longToken();
    const create = (p: Record<string, string>) => graph('POST', 'me/threads', token, p);
    assert.equal((await create({ media_type: 'TEXT', text: '😀'.repeat(125) })).status, 200);
    const long = await create({ media_type: 'TEXT', text: `${'😀'.repeat(125)}a` });
    assert.deepEqual([long.status, long.body.error.code], [400, 100]);
    const links = await create({ media_type: 'TEXT', text: [1, 2, 3, 4, 5, 6].map((i) => `https://l${i}.example.com`).join(' ') });
    assert.equal(links.body.error.error_user_title, 'THREADS_API__LINK_LIMIT_EXCEEDED');
    assert.equal((await create({ media_type: 'TEXT' })).body.error.code, 100);
    assert.equal((await create({ media_type: 'IMAGE', image_url: 'ftp://x/y.jpg' })).body.error.code, 100);
    const child = async () => (await create({ media_type: 'IMAGE', image_url: 'https://cdn.example.com/a.jpg', is_carousel_item: 'true' })).body.id as string;
    const one = await child();
    assert.equal((await create({ media_type: 'CAROUSEL', children: one })).body.error.code, 100);
    const many = await Promise.all(Array.from({ length: 21 }, child));
    assert.equal((await create({ media_type: 'CAROUSEL', children: many.join(',') })).body.error.code, 100);
    assert.equal((await create({ media_type: 'CAROUSEL', children: many.slice(0, 20).join(',') })).status, 200);
    assert.equal((await create({ media_type: 'TEXT', text: 'x', reply_control: 'nobody' })).body.error.code, 100);
    assert.equal((await create({ media_type: 'TEXT', text: 'x', topic_tag: 'R&D' })).body.error.code, 100);
    assert.equal((await create({ media_type: 'TEXT', text: 'x', reply_to_id: '999' })).body.error.error_subcode, 33);
  });

  test('containers move IN_PROGRESS → FINISHED → PUBLISHED, expire after 24 h, and publish once', async () => {
    const token = await longToken();
    // Processing time passes only when the test moves the clock (40 ms of processing must not run out
    // between two requests on a loaded machine).
    clock.frozenAt = Date.now();
    const { id } = (await graph('POST', 'me/threads', token, { media_type: 'VIDEO', video_url: 'https://cdn.example.com/v.mp4', text: 'v' })).body;
    const status = async (cid: string) => (await graph('GET', cid, token, { fields: 'status,error_message' })).body;
    assert.equal((await status(id)).status, 'IN_PROGRESS');
    assert.equal((await graph('POST', 'me/threads_publish', token, { creation_id: id })).body.error.code, 100);
    clock.offset += 60;
    assert.equal((await status(id)).status, 'FINISHED');
    const published = await graph('POST', 'me/threads_publish', token, { creation_id: id });
    assert.equal(published.status, 200);
    assert.equal((await status(id)).status, 'PUBLISHED');
    assert.equal((await graph('POST', 'me/threads_publish', token, { creation_id: id })).status, 400);
    const post = (await graph('GET', published.body.id, token, { fields: 'id,permalink,media_type,timestamp' })).body;
    assert.match(post.permalink, /^https:\/\/www\.threads\.com\/@sandbox\/post\/[\w-]{11}$/u);
    assert.equal(post.media_type, 'VIDEO');
    assert.match(post.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/u);
    assert.equal(emu.ledger.list().length, 1);

    const failing = (await graph('POST', 'me/threads', token, { media_type: 'IMAGE', image_url: 'https://cdn.example.com/a.jpg?sandbox_error=UNKNOWN' })).body.id;
    const stale = (await graph('POST', 'me/threads', token, { media_type: 'TEXT', text: 'later' })).body.id;
    clock.offset += 60;
    assert.deepEqual(await status(failing), { status: 'ERROR', error_message: 'UNKNOWN' });
    clock.offset += DAY_MS;
    assert.equal((await status(stale)).status, 'EXPIRED');
  });

  test('auto_publish_text posts at once; lists page newest first and honour since', async () => {
    const token = await longToken();
    const ids: string[] = [];
    for (const text of ['a', 'b', 'c']) ids.push((await graph('POST', 'me/threads', token, { media_type: 'TEXT', text, auto_publish_text: 'true' })).body.id);
    const page1 = (await graph('GET', 'me/threads', token, { fields: 'id,text', limit: '2' })).body;
    assert.deepEqual(page1.data.map((p: { text: string }) => p.text), ['c', 'b']);
    assert.ok(page1.paging.next.startsWith(`${root}/v1.0/me/threads?`));
    assert.ok(!page1.paging.next.includes('access_token'));
    const page2 = (await graph('GET', 'me/threads', token, { fields: 'id,text', limit: '2', after: page1.paging.cursors.after })).body;
    assert.deepEqual(page2.data.map((p: { id: string }) => p.id), [ids[0]]);
    assert.equal(page2.paging.next, undefined);
    const future = String(Math.floor(Date.now() / 1000) + 3600);
    assert.deepEqual((await graph('GET', 'me/threads', token, { since: future })).body.data, []);
    const reply = (await graph('POST', 'me/threads', token, { media_type: 'TEXT', text: 're', reply_to_id: ids[0]!, auto_publish_text: 'true' })).body.id;
    const replies = (await graph('GET', 'me/replies', token, { fields: 'id,replied_to,root_post' })).body.data;
    assert.deepEqual(replies, [{ id: reply, replied_to: { id: ids[0] }, root_post: { id: ids[0] } }]);
    const limit = (await graph('GET', 'me/threads_publishing_limit', token, { fields: 'quota_usage,config,reply_quota_usage,reply_config' })).body.data[0];
    assert.deepEqual(limit, { quota_usage: 3, config: { quota_total: 250, quota_duration: 86400 }, reply_quota_usage: 1, reply_config: { quota_total: 1000, quota_duration: 86400 } });
  });

  test('publishing needs threads_content_publish; unknown paths answer in the Graph envelope', async () => {
    const token = await longToken({ scope: 'threads_basic' });
    const denied = await graph('POST', 'me/threads', token, { media_type: 'TEXT', text: 'x' });
    assert.deepEqual([denied.status, denied.body.error.code], [403, 10]);
    const other = await graph('GET', '12345/threads', token);
    assert.equal(other.body.error.error_subcode, 33);
    const unknown = await fetch(`${root}/v1.0/me/no/such/edge`);
    assert.equal(((await unknown.json()) as { error: { code: number } }).error.code, 100);
  });

  test('injected errors are rendered as Graph renders them', () => {
    const codes = Object.fromEntries(ERROR_FAULT_KINDS.map((k) => [k, threadsErrorFor(k, { kind: k, resetSeconds: 90 })]));
    const code = (k: string) => (codes[k]!.body as { error: { code: number } }).error.code;
    assert.deepEqual([codes.server_error!.status, code('server_error')], [500, 2]);
    assert.equal(code('rate_limited'), 4);
    const usage = JSON.parse(codes.rate_limited!.headers!['x-business-use-case-usage']!) as Record<string, [{ estimated_time_to_regain_access: number }]>;
    assert.equal(Object.values(usage)[0]![0].estimated_time_to_regain_access, 2);
    assert.equal(code('expired_token'), 190);
    assert.equal(code('validation'), 100);
    assert.equal(code('permission'), 10);
    assert.equal((threadsErrorFor('validation', { kind: 'validation', message: 'custom' }).body as { error: { message: string } }).error.message, 'custom');
  });

  // Strictness: what Threads refuses, the emulator refuses too (src/sandbox/README.md, "As strict as the platform").
  test('strict: media Threads could not fetch or read ends the container in ERROR', async () => {
    const token = await longToken();
    const own = new URL(root).origin;
    const cases: [Record<string, string>, string][] = [
      [{ media_type: 'IMAGE', image_url: 'http://10.0.0.5/a.jpg' }, 'UNKNOWN'],
      [{ media_type: 'VIDEO', video_url: 'http://localhost:1/v.mp4' }, 'FAILED_DOWNLOADING_VIDEO'],
      [{ media_type: 'VIDEO', video_url: 'https://cdn.example.com/still.jpg' }, 'FAILED_PROCESSING_VIDEO'],
      [{ media_type: 'IMAGE', image_url: 'https://cdn.example.com/clip.mp4' }, 'UNKNOWN'],
      [{ media_type: 'IMAGE', image_url: 'https://cdn.example.com/anim.gif' }, 'UNKNOWN'],
    ];
    const ids = await Promise.all(cases.map(async ([p]) => (await graph('POST', 'me/threads', token, p)).body.id as string));
    const fine = (await graph('POST', 'me/threads', token, { media_type: 'IMAGE', image_url: `${own}/sandbox/media/sample.png` })).body.id as string;
    await new Promise((r) => setTimeout(r, 60));
    for (const [i, [p, message]] of cases.entries()) {
      assert.deepEqual((await graph('GET', ids[i]!, token, { fields: 'status,error_message' })).body, { status: 'ERROR', error_message: message }, JSON.stringify(p));
    }
    assert.equal((await graph('GET', fine, token, { fields: 'status' })).body.status, 'FINISHED', 'the sandbox’s own host is in reach');
  });

  test('strict: the code exchange needs the redirect_uri; bodies Fastify cannot read answer in the Graph envelope', async () => {
    const code = (await authorize()).searchParams.get('code')!;
    const res = await fetch(`${root}/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code' }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: number } }).error.code, 100);
    const token = await longToken();
    const broken = await fetch(`${root}/v1.0/me/threads`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"media_type":' });
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as { error: { code: number; type: string } }).error.code, 100);
  });

  test('strict: DELETE removes the caller\'s own post with threads_delete only, 100 a day; {success, deleted_id}', async () => {
    const scope = 'threads_basic,threads_content_publish,threads_manage_replies,threads_delete';
    const token = await longToken({ scope, sandbox_user: 'deleter' });
    const post = (text: string) => graph('POST', 'me/threads', token, { media_type: 'TEXT', text, auto_publish_text: 'true' });
    const id = (await post('to delete')).body.id as string;
    const withoutScope = await longToken({ sandbox_user: 'deleter' });
    const denied = await graph('DELETE', id, withoutScope);
    assert.deepEqual([denied.status, denied.body.error.code], [403, 10]);
    const stranger = await longToken({ scope, sandbox_user: 'stranger' });
    assert.equal((await graph('DELETE', id, stranger)).body.error.error_subcode, 33, 'someone else\'s post is not there for them');
    assert.deepEqual((await graph('DELETE', id, token)).body, { success: true, deleted_id: id });
    assert.equal((await graph('GET', id, token, { fields: 'id' })).body.error.error_subcode, 33);
    assert.equal((await graph('DELETE', id, token)).body.error.error_subcode, 33, 'gone');
    assert.deepEqual(emu.ledger.list({ kind: 'delete' }).map((e) => e.id), [id]);
    assert.deepEqual((await graph('GET', 'me/threads', token, { fields: 'id' })).body.data, []);
    for (let i = 1; i < 100; i++) assert.equal((await graph('DELETE', (await post(`n${i}`)).body.id, token)).status, 200, `delete ${i + 1}`);
    const over = await graph('DELETE', (await post('one too many')).body.id, token);
    assert.deepEqual([over.status, over.body.error.code], [400, 4]);
    clock.offset += DAY_MS;
    assert.equal((await graph('DELETE', (await post('the next day')).body.id, token)).status, 200);
  });

  test('strict: a post\'s replies need threads_read_replies; newest first unless reverse=false; own replies marked', async () => {
    const scope = 'threads_basic,threads_content_publish,threads_manage_replies,threads_read_replies';
    const token = await longToken({ scope, sandbox_user: 'replier' });
    const text = (t: string, extra: Record<string, string> = {}) => graph('POST', 'me/threads', token, { media_type: 'TEXT', text: t, auto_publish_text: 'true', ...extra });
    const root = (await text('root')).body.id as string;
    const first = (await text('one', { reply_to_id: root })).body.id as string;
    const second = (await text('two', { reply_to_id: root })).body.id as string;
    await text('nested', { reply_to_id: first });
    const list = (t: string, params: Record<string, string> = {}) => graph('GET', `${root}/replies`, t, { fields: 'id,text,is_reply_owned_by_me', ...params });
    assert.deepEqual((await list(token)).body.data, [
      { id: second, text: 'two', is_reply_owned_by_me: true },
      { id: first, text: 'one', is_reply_owned_by_me: true },
    ], 'top-level replies only, newest first');
    assert.deepEqual((await list(token, { reverse: 'false' })).body.data.map((r: { id: string }) => r.id), [first, second]);
    assert.equal((await list(token, { reverse: 'maybe' })).body.error.code, 100);
    const noRead = await longToken({ scope: 'threads_basic,threads_content_publish', sandbox_user: 'replier' });
    assert.equal((await list(noRead)).body.error.code, 10);
    const stranger = await longToken({ scope, sandbox_user: 'not-the-author' });
    assert.equal((await list(stranger)).body.error.error_subcode, 33);
    assert.equal((await graph('GET', 'me/replies', token, { fields: 'id' })).body.data.length, 3, 'the user\'s own replies are still /me/replies');
  });

  test('strict: debug_token with a user token inspects that user\'s tokens only', async () => {
    const mine = await longToken({ sandbox_user: 'inspector' });
    const theirs = await longToken({ sandbox_user: 'someone_else' });
    assert.equal((await graph('GET', 'debug_token', mine, { input_token: mine })).body.data.is_valid, true);
    assert.equal((await graph('GET', 'debug_token', mine, { input_token: theirs })).body.error.code, 100);
  });
});

// The TikTok emulator spoken to directly over HTTP: the protocol details the adapter relies on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { mediaRoutes } from '../../src/sandbox/media.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { createTikTokEmulator, type TikTokEmulator } from '../../src/sandbox/tiktok/emulator.ts';
import { createTikTokAdapter } from '../../src/platforms/tiktok/adapter.ts';
import { adapterDeps, approveConsent } from '../helpers/platform.ts';
import { until } from '../helpers/wait.ts';
import { SMALL_CHUNKS, connectAccount, publishRequest } from './tiktok-helpers.ts';

const REDIRECT = 'https://app.example/cb/';
let server: EmulatorServer;
let emu: TikTokEmulator;
let root: string;

before(async () => {
  // The app has verified the test CDN's domain, as a real app must before TikTok pulls from it.
  emu = createTikTokEmulator({ processingMs: 20, chunkRules: SMALL_CHUNKS, verifiedUrlPrefixes: ['https://cdn.example/'] });
  server = await startEmulatorServer([emu]);
  root = server.rootOf('tiktok');
});
after(() => server.close());

async function consent(params: Record<string, string>): Promise<URL> {
  const url = new URL(`${root}/v2/auth/authorize/`);
  const all = { client_key: SANDBOX_APP.clientId, response_type: 'code', scope: 'user.info.basic,video.publish', redirect_uri: REDIRECT, state: 'st', ...params };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  assert.equal(res.status, 302);
  return new URL(res.headers.get('location')!);
}

async function form(path: string, body: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${root}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function tokenFor(user: string, extra: Record<string, string> = {}): Promise<string> {
  const code = (await consent({ sandbox_user: user, ...extra })).searchParams.get('code')!;
  const r = await form('/v2/oauth/token/', { client_key: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT });
  assert.equal(r.status, 200);
  return r.json.access_token as string;
}

async function api(path: string, token: string | null, body?: unknown, method = 'POST'): Promise<{ status: number; text: string; json: any }> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json; charset=UTF-8';
  const res = await fetch(`${root}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : null };
}

const postInfo = { title: 'hi', privacy_level: 'SELF_ONLY' };

/** Polls a publish's status until its processing has ended (whatever the outcome), and returns it. */
function settled(status: () => ReturnType<typeof api>): ReturnType<typeof api> {
  return until('the publish to leave processing', async () => {
    const s = await status();
    return !String(s.json?.data?.status).startsWith('PROCESSING_') && s;
  });
}

describe('Login Kit', () => {
  test('consent redirects with code, scopes and state; bad scopes come back as error=invalid_scope', async () => {
    const ok = await consent({ sandbox_user: 'x' });
    assert.equal(`${ok.origin}${ok.pathname}`, REDIRECT);
    assert.ok(ok.searchParams.get('code'));
    assert.equal(ok.searchParams.get('scopes'), 'user.info.basic,video.publish');
    assert.equal(ok.searchParams.get('state'), 'st');
    const bad = await consent({ scope: 'user.info.basic,video.delete' });
    assert.equal(bad.searchParams.get('error'), 'invalid_scope');
    assert.equal(bad.searchParams.get('code'), null);
  });

  test('OAuth errors use {error, error_description, log_id}; a wrong secret is invalid_client', async () => {
    const r = await form('/v2/oauth/token/', { client_key: SANDBOX_APP.clientId, client_secret: 'nope', code: 'x', grant_type: 'authorization_code', redirect_uri: REDIRECT });
    assert.equal(r.status, 401);
    assert.equal(r.json.error, 'invalid_client');
    assert.equal(typeof r.json.error_description, 'string');
    assert.match(String(r.json.log_id), /^\d{14}[0-9A-F]+$/);
  });

  test('PKCE is optional, but enforced (S256, base64url) when the consent carried a challenge', async () => {
    const verifier = 'v'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const exchange = async (code_verifier?: string) => {
      const code = (await consent({ code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
      const body: Record<string, string> = { client_key: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT };
      if (code_verifier) body.code_verifier = code_verifier;
      return form('/v2/oauth/token/', body);
    };
    assert.equal((await exchange()).json.error, 'invalid_request');
    assert.equal((await exchange('w'.repeat(50))).json.error, 'invalid_grant');
    const ok = await exchange(verifier);
    assert.equal(ok.status, 200);
    assert.equal(ok.json.token_type, 'Bearer');
    assert.equal(ok.json.expires_in, 7200);
    assert.equal(ok.json.refresh_expires_in, 180 * 86400);
  });

  test('user/info returns exactly the requested fields, and refuses fields beyond the granted scopes', async () => {
    const token = await tokenFor('fields');
    const r = await api('/v2/user/info/?fields=open_id,display_name', token, undefined, 'GET');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.json.data.user).sort(), ['display_name', 'open_id']);
    assert.equal(r.json.error.code, 'ok');
    const denied = await api('/v2/user/info/?fields=open_id,username', token, undefined, 'GET');
    assert.equal(denied.status, 401);
    assert.equal(denied.json.error.code, 'scope_permission_missed');
  });

  test('a request without a valid token gets the envelope with access_token_invalid', async () => {
    const r = await api('/v2/post/publish/creator_info/query/', 'tt.a.bogus');
    assert.equal(r.status, 401);
    assert.deepEqual(r.json.data, {});
    assert.equal(r.json.error.code, 'access_token_invalid');
    assert.ok(r.json.error.log_id);
  });
});

describe('Content Posting', () => {
  test('creator_info takes a JSON POST with no body', async () => {
    const token = await tokenFor('creator', { sandbox_private: '1' });
    const r = await fetch(`${root}/v2/post/publish/creator_info/query/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=UTF-8' } });
    const json = (await r.json()) as any;
    assert.equal(r.status, 200);
    assert.deepEqual(json.data.privacy_level_options, ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']);
    assert.equal(json.data.creator_username, 'creator');
  });

  test('video init checks TikTok\'s chunk arithmetic', async () => {
    const token = await tokenFor('arith');
    const init = (source_info: Record<string, unknown>) => api('/v2/post/publish/video/init/', token, { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', ...source_info } });
    const wrongCount = await init({ video_size: 900_000, chunk_size: 262_144, total_chunk_count: 4 });
    assert.equal(wrongCount.status, 400);
    assert.equal(wrongCount.json.error.code, 'invalid_params');
    assert.match(wrongCount.json.error.message, /floor\(video_size \/ chunk_size\) = 3/);
    const smallNotWhole = await init({ video_size: 1000, chunk_size: 500, total_chunk_count: 2 });
    assert.equal(smallNotWhole.status, 400);
    const ok = await init({ video_size: 900_000, chunk_size: 262_144, total_chunk_count: 3 });
    assert.equal(ok.status, 200);
    assert.match(ok.json.data.upload_url, new RegExp(`^${root}/upload/video/\\?upload_id=`));
  });

  test('the upload endpoint checks Content-Range, order and chunk sizes, answers 206 then 201', async () => {
    const token = await tokenFor('ranges');
    const size = 600_000;
    const chunk = 262_144;
    const init = await api('/v2/post/publish/video/init/', token, { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: chunk, total_chunk_count: 2 } });
    const url: string = init.json.data.upload_url;
    const bytes = Buffer.alloc(size);
    bytes.write('\0\0\0\x18ftypmp42', 'latin1');
    const put = (start: number, end: number, body = bytes.subarray(start, end + 1), type = 'video/mp4') =>
      fetch(url, { method: 'PUT', headers: { 'content-type': type, 'content-range': `bytes ${start}-${end}/${size}` }, body });
    assert.equal((await put(chunk, size - 1)).status, 400, 'out of order');
    assert.equal((await put(0, chunk - 1, bytes.subarray(0, 10))).status, 400, 'range and body differ');
    assert.equal((await put(0, chunk - 1, undefined, 'application/octet-stream')).status, 400, 'not a video type');
    assert.equal((await put(0, 99_999)).status, 400, 'not the planned chunk size');
    assert.equal((await put(0, chunk - 1)).status, 206);
    assert.equal((await put(chunk, size - 1)).status, 201);
    assert.equal((await put(chunk, size - 1)).status, 400, 'already complete');
  });

  test('status/fetch walks PROCESSING_UPLOAD → PUBLISH_COMPLETE and writes the post id as a raw int64', async () => {
    const token = await tokenFor('status');
    const init = await api('/v2/post/publish/video/init/', token, { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 } });
    const publishId = init.json.data.publish_id;
    const status = () => api('/v2/post/publish/status/fetch/', token, { publish_id: publishId });
    const before = await status();
    assert.equal(before.json.data.status, 'PROCESSING_UPLOAD');
    assert.equal(before.json.data.uploaded_bytes, 0);
    const body = Buffer.alloc(1000);
    body.write('\0\0\0\x18ftypmp42', 'latin1');
    await fetch(init.json.data.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-999/1000' }, body });
    assert.equal((await status()).json.data.uploaded_bytes, 1000);
    // The public post id shows once moderation is over too.
    const done = await until('the publish to complete with its public id', async () => {
      const s = await status();
      return (s.json.data.status !== 'PUBLISH_COMPLETE' || /"publicaly_available_post_id":\[\d/.test(s.text)) && !s.json.data.status.startsWith('PROCESSING_') && s;
    });
    assert.equal(done.json.data.status, 'PUBLISH_COMPLETE');
    const raw = /"publicaly_available_post_id":\[(\d+)\]/.exec(done.text)?.[1];
    assert.ok(raw && BigInt(raw) > 2n ** 53n);
    // A number literal beyond 2^53: JSON.parse cannot keep it exact, clients must read the text.
    assert.equal(typeof done.json.data.publicaly_available_post_id[0], 'number');
    assert.equal(Number.isSafeInteger(done.json.data.publicaly_available_post_id[0]), false);
    assert.equal(emu.ledger.get(raw)?.extra?.publishId, publishId);
  });

  test('a FILE_UPLOAD that is not a video container fails with file_format_check_failed', async () => {
    const token = await tokenFor('junk');
    const init = await api('/v2/post/publish/video/init/', token, { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 100, chunk_size: 100, total_chunk_count: 1 } });
    await fetch(init.json.data.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-99/100' }, body: Buffer.alloc(100) });
    const s = await settled(() => api('/v2/post/publish/status/fetch/', token, { publish_id: init.json.data.publish_id }));
    assert.equal(s.json.data.status, 'FAILED');
    assert.equal(s.json.data.fail_reason, 'file_format_check_failed');
  });

  test('another user\'s publish id is not visible', async () => {
    const a = await tokenFor('owner');
    const b = await tokenFor('snoop');
    const init = await api('/v2/post/publish/content/init/', a, { media_type: 'PHOTO', post_mode: 'DIRECT_POST', post_info: postInfo, source_info: { source: 'PULL_FROM_URL', photo_images: ['https://cdn.example/a.jpg'] } });
    const r = await api('/v2/post/publish/status/fetch/', b, { publish_id: init.json.data.publish_id });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, 'invalid_params');
  });

  test('photo init: MEDIA_UPLOAD goes to the inbox and never reaches the ledger', async () => {
    const token = await tokenFor('drafter', { scope: 'user.info.basic,video.upload' });
    const init = await api('/v2/post/publish/content/init/', token, { media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: {}, source_info: { source: 'PULL_FROM_URL', photo_images: ['https://cdn.example/a.jpg'] } });
    assert.equal(init.status, 200);
    const s = await settled(() => api('/v2/post/publish/status/fetch/', token, { publish_id: init.json.data.publish_id }));
    assert.equal(s.json.data.status, 'SEND_TO_USER_INBOX');
    assert.equal(emu.ledger.list().filter((e) => e.extra?.publishId === init.json.data.publish_id).length, 0);
  });

  test('injected errors render in the envelope, and in the OAuth shape on /oauth/ paths', () => {
    const api429 = emu.errorFor('rate_limited', { kind: 'rate_limited', path: '/video/init/' });
    assert.equal(api429.status, 429);
    assert.equal((api429.body as any).error.code, 'rate_limit_exceeded');
    const oauth = emu.errorFor('expired_token', { kind: 'expired_token', path: '/v2/oauth/token/' });
    assert.equal((oauth.body as any).error, 'invalid_grant');
  });
});

test('mounted under a deeper prefix, upload URLs keep the prefix and the adapter publishes', async () => {
  const inner = createTikTokEmulator({ processingMs: 10, chunkRules: SMALL_CHUNKS });
  const app = Fastify({ forceCloseConnections: true });
  await app.register(inner.plugin, { prefix: '/sandbox/tiktok' });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    const innerRoot = `${base}/sandbox/tiktok`;
    const deps = adapterDeps({ apiUrl: innerRoot, authUrl: `${innerRoot}/v2/auth/authorize/` });
    const adapter = createTikTokAdapter(deps, { chunkRules: SMALL_CHUNKS, preferredChunkBytes: SMALL_CHUNKS.minChunkBytes });
    const { creds } = await connectAccount({ adapter }, 'prefixed');
    const r = await adapter.publish(publishRequest(creds, [{ type: 'video', url: `${base}/media/sample.mp4?bytes=400000` }]));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(inner.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.status]), [['/upload/video/', 201]]);
    assert.equal(inner.ledger.list().length, 1);
    inner.reset();
    assert.equal(inner.ledger.list().length, 0);
    assert.equal(inner.calls.length, 0);
  } finally {
    await app.close();
  }
});

test('without verified prefixes only the sandbox host itself is verified: other URLs are refused with url_ownership_unverified', async () => {
  const strict = createTikTokEmulator({ processingMs: 10, chunkRules: SMALL_CHUNKS });
  const server = await startEmulatorServer([strict]);
  try {
    const base = server.rootOf(strict.name);
    const { code } = await approveConsent(`${base}/v2/auth/authorize/?client_key=${SANDBOX_APP.clientId}&response_type=code&scope=user.info.basic,video.upload&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s`);
    const tokenRes = await fetch(`${base}/v2/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_key: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT }),
    });
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const init = (urls: string[]) =>
      fetch(`${base}/v2/post/publish/content/init/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: {}, source_info: { source: 'PULL_FROM_URL', photo_images: urls } }),
      });
    const foreign = await init(['https://cdn.elsewhere.example/a.jpg']);
    assert.equal(foreign.status, 403);
    assert.equal(((await foreign.json()) as { error: { code: string } }).error.code, 'url_ownership_unverified');
    const own = await init([`${server.mediaUrl}/sample.jpg`]);
    assert.equal(own.status, 200);
  } finally {
    await server.close();
  }
});

// Strictness: what TikTok refuses, the emulator refuses too (src/sandbox/README.md, "As strict as the platform").
describe('strict', () => {
  let clock = Date.now();
  const strict = createTikTokEmulator({ now: () => clock, processingMs: 0, moderationMs: 0, chunkRules: SMALL_CHUNKS, verifiedUrlPrefixes: ['https://cdn.example/'] });
  let base: string;
  let own: EmulatorServer;
  before(async () => {
    own = await startEmulatorServer([strict]);
    base = own.rootOf('tiktok');
  });
  after(() => own.close());

  async function token(user: string): Promise<string> {
    const q = new URLSearchParams({ client_key: SANDBOX_APP.clientId, response_type: 'code', scope: 'user.info.basic,video.publish', redirect_uri: REDIRECT, state: 's', sandbox_user: user });
    const { code } = await approveConsent(`${base}/v2/auth/authorize/?${q}`);
    const res = await fetch(`${base}/v2/oauth/token/`, {
      method: 'POST',
      body: new URLSearchParams({ client_key: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, code, grant_type: 'authorization_code', redirect_uri: REDIRECT }),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }
  const call = async (t: string, path: string, body: unknown = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };
  const photo = (t: string, urls = ['https://cdn.example/a.jpg']) =>
    call(t, '/v2/post/publish/content/init/', { media_type: 'PHOTO', post_mode: 'DIRECT_POST', post_info: postInfo, source_info: { source: 'PULL_FROM_URL', photo_images: urls } });

  test('creator_info takes 20 calls a minute per token, status/fetch 30', async () => {
    const t = await token('chatty');
    for (let i = 0; i < 20; i++) assert.equal((await call(t, '/v2/post/publish/creator_info/query/')).status, 200);
    const over = await call(t, '/v2/post/publish/creator_info/query/');
    assert.deepEqual([over.status, over.json.error.code], [429, 'rate_limit_exceeded']);
    const { publish_id } = (await photo(t)).json.data;
    for (let i = 0; i < 30; i++) assert.equal((await call(t, '/v2/post/publish/status/fetch/', { publish_id })).status, 200);
    assert.equal((await call(t, '/v2/post/publish/status/fetch/', { publish_id })).status, 429);
    clock += 61_000;
    assert.equal((await call(t, '/v2/post/publish/status/fetch/', { publish_id })).status, 200, 'the minute passes');
  });

  test('a creator gets 15 Direct Posts a day, then spam_risk_too_many_posts', async () => {
    clock += 61_000;
    const t = await token('prolific');
    for (let i = 0; i < 15; i++) {
      if (i > 0 && i % 6 === 0) clock += 61_000; // 6 inits a minute
      assert.equal((await photo(t)).status, 200, `post ${i + 1}`);
    }
    clock += 61_000;
    const over = await photo(t);
    assert.deepEqual([over.status, over.json.error.code], [403, 'spam_risk_too_many_posts']);
    const video = await call(t, '/v2/post/publish/video/init/', { post_info: postInfo, source_info: { source: 'PULL_FROM_URL', video_url: 'https://cdn.example/v.mp4' } });
    assert.equal(video.json.error.code, 'spam_risk_too_many_posts', 'videos count against the same cap');
    clock += 24 * 60 * 60_000;
    assert.equal((await photo(await token('prolific'))).status, 200, 'a day later (with a fresh token: the old one lived 2 hours)');
  });

  test('videos over 4 GB, pulled videos that are images and photos in other formats than JPEG or WebP are refused', async () => {
    clock += 61_000;
    const t = await token('formats');
    const huge = await call(t, '/v2/post/publish/video/init/', {
      post_info: postInfo,
      source_info: { source: 'FILE_UPLOAD', video_size: 4 * 1024 ** 3 + 1, chunk_size: 60_000_000, total_chunk_count: Math.floor((4 * 1024 ** 3 + 1) / 60_000_000) },
    });
    assert.deepEqual([huge.status, huge.json.error.code], [400, 'invalid_params']);
    assert.match(huge.json.error.message, /4 GB/);
    const still = await call(t, '/v2/post/publish/video/init/', { post_info: postInfo, source_info: { source: 'PULL_FROM_URL', video_url: 'https://cdn.example/still.jpg' } });
    const gif = await photo(t, ['https://cdn.example/a.jpg', 'https://cdn.example/b.gif']);
    const webp = await photo(t, ['https://cdn.example/a.webp']);
    const status = async (publish_id: string) => (await call(t, '/v2/post/publish/status/fetch/', { publish_id })).json.data;
    assert.deepEqual([(await status(still.json.data.publish_id)).status, (await status(still.json.data.publish_id)).fail_reason], ['FAILED', 'file_format_check_failed']);
    assert.equal((await status(gif.json.data.publish_id)).fail_reason, 'file_format_check_failed');
    assert.equal((await status(webp.json.data.publish_id)).status, 'PUBLISH_COMPLETE');
  });

  test('redirect URIs are static (no query, no fragment); unknown paths answer in the envelope', async () => {
    for (const redirect of [`${REDIRECT}?next=1`, `${REDIRECT}#x`, `https://app.example/${'a'.repeat(520)}`]) {
      const q = new URLSearchParams({ client_key: SANDBOX_APP.clientId, response_type: 'code', scope: 'user.info.basic', redirect_uri: redirect, state: 's' });
      const res = await fetch(`${base}/v2/auth/authorize/?${q}`, { redirect: 'manual' });
      assert.equal(res.status, 400, redirect);
    }
    const none = await fetch(`${base}/v2/nothing/here/`);
    assert.equal(none.status, 404);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'invalid_params');
  });
});

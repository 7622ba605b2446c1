// The YouTube emulator refuses what Google refuses: consent and token rules, bearer tokens and scopes per
// method, and the resumable upload protocol. (Data API reads and writes: youtube-emulator-api.test.ts.)
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SCOPE } from '../../src/platforms/youtube/info.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { createYouTubeEmulator } from '../../src/sandbox/youtube/emulator.ts';
import { approveConsent } from '../helpers/platform.ts';
import { ALL, REDIRECT, authUrl, call, grant, mp4, openSession, put, reason, statusQuery } from './youtube-emulator-helpers.ts';

const emu = createYouTubeEmulator({ processingMs: 30 });
let server: EmulatorServer;
let root: string;
const GRANULE = 256 * 1024;

before(async () => {
  server = await startEmulatorServer([emu]);
  root = server.rootOf('youtube');
});
afterEach(() => {
  emu.faults.clear();
  Object.assign(emu.settings, { unverifiedProject: false, refreshTokenCap: 100, sessionTtlMs: 7 * 86_400_000 });
});
after(() => server.close());

const tokenForm = (extra: Record<string, string>) => ({ client_id: SANDBOX_APP.clientId, client_secret: SANDBOX_APP.clientSecret, ...extra });

describe('consent page', () => {
  test('a bad client, redirect URI, scope or PKCE method gets an error page, not a redirect', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{ client_id: 'someone-else' }, 401, 'invalid_client'],
      [{ redirect_uri: 'http://app.example.com/cb' }, 400, 'redirect_uri_mismatch'],
      [{ redirect_uri: 'not a url' }, 400, 'redirect_uri_mismatch'],
      [{ scope: `${SCOPE.upload} https://www.googleapis.com/auth/youtube.everything` }, 400, 'invalid_scope'],
      [{ scope: '' }, 400, 'invalid_request'],
      [{ response_type: 'token' }, 400, 'invalid_request'],
      [{ code_challenge: 'abc', code_challenge_method: 's256' }, 400, 'invalid_request'],
      [{ prompt: 'always' }, 400, 'invalid_request'],
    ];
    for (const [params, status, error] of cases) {
      const res = await call(root, 'GET', authUrl(root, params));
      assert.equal(res.status, status, JSON.stringify(params));
      assert.equal(res.headers.get('location'), null);
      assert.match(res.text, new RegExp(`Error ${status}: ${error}`));
    }
  });

  test('http redirect URIs are taken on loopback only', async () => {
    const res = await call(root, 'GET', authUrl(root, { redirect_uri: 'http://127.0.0.1:3000/cb' }));
    assert.equal(res.status, 302);
  });

  test('denial and unticked scopes come back in the redirect', async () => {
    const denied = await call(root, 'GET', `${authUrl(root)}&sandbox_deny=1`);
    const to = new URL(denied.headers.get('location')!);
    assert.equal(to.searchParams.get('error'), 'access_denied');
    assert.equal(to.searchParams.get('state'), 'st');
    const { location } = await approveConsent(authUrl(root), { sandbox_decline: 'youtube.force-ssl' });
    assert.equal(location.searchParams.get('scope'), `${SCOPE.upload} ${SCOPE.readonly}`);
    assert.equal(location.searchParams.get('prompt'), 'consent');
  });
});

describe('token endpoint', () => {
  test('client authentication: unknown client, missing or wrong secret', async () => {
    const { code } = await approveConsent(authUrl(root));
    const base = { code, redirect_uri: REDIRECT, grant_type: 'authorization_code' };
    let res = await call(root, 'POST', '/token', { form: { ...base, client_secret: 'x' } });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_request']);
    res = await call(root, 'POST', '/token', { form: { ...base, client_id: 'other', client_secret: 'x' } });
    assert.deepEqual([res.status, res.body.error, res.body.error_description], [401, 'invalid_client', 'The OAuth client was not found.']);
    res = await call(root, 'POST', '/token', { form: { ...base, client_id: SANDBOX_APP.clientId } });
    assert.deepEqual([res.status, res.body.error_description], [400, 'client_secret is missing.']);
    res = await call(root, 'POST', '/token', { form: tokenForm({ ...base, client_secret: 'wrong' }) });
    assert.deepEqual([res.status, res.body.error], [401, 'invalid_client']);
    // HTTP Basic works as well as the form.
    const basic = Buffer.from(`${SANDBOX_APP.clientId}:${SANDBOX_APP.clientSecret}`).toString('base64');
    res = await call(root, 'POST', '/token', { form: base, headers: { authorization: `Basic ${basic}` } });
    assert.equal(res.status, 200, res.text);
  });

  test('codes are single use and bound to the redirect URI; PKCE is checked', async () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'; // S256 of the RFC 7636 example verifier
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const first = await approveConsent(authUrl(root, { code_challenge: challenge, code_challenge_method: 'S256' }));
    let res = await call(root, 'POST', '/token', { form: tokenForm({ code: first.code, redirect_uri: REDIRECT, grant_type: 'authorization_code' }) });
    assert.deepEqual([res.status, res.body.error, res.body.error_description], [400, 'invalid_grant', 'Missing code verifier.']);
    res = await call(root, 'POST', '/token', { form: tokenForm({ code: first.code, redirect_uri: REDIRECT, grant_type: 'authorization_code', code_verifier: `${verifier}x` }) });
    assert.equal(res.body.error_description, 'Invalid code verifier.');
    res = await call(root, 'POST', '/token', { form: tokenForm({ code: first.code, redirect_uri: 'https://elsewhere.example/cb', grant_type: 'authorization_code', code_verifier: verifier }) });
    assert.equal(res.body.error, 'redirect_uri_mismatch');
    res = await call(root, 'POST', '/token', { form: tokenForm({ code: first.code, redirect_uri: REDIRECT, grant_type: 'authorization_code', code_verifier: verifier }) });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.access_token, /^ya29\./);
    assert.equal(res.body.expires_in, 3599);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.scope, ALL.join(' '));
    assert.ok(res.body.refresh_token);
    res = await call(root, 'POST', '/token', { form: tokenForm({ code: first.code, redirect_uri: REDIRECT, grant_type: 'authorization_code', code_verifier: verifier }) });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_grant']);
    // A verifier for a code issued without a challenge.
    const plain = await approveConsent(authUrl(root));
    res = await call(root, 'POST', '/token', { form: tokenForm({ code: plain.code, redirect_uri: REDIRECT, grant_type: 'authorization_code', code_verifier: verifier }) });
    assert.deepEqual([res.status, res.body.error, res.body.error_description], [400, 'invalid_request', 'code_verifier or verifier is not needed.']);
  });

  test('refresh tokens: offline access only, on a consent screen; never rotated', async () => {
    const online = await grant(root, 'rt-online', { access_type: undefined, prompt: undefined });
    assert.equal(online.refresh, undefined);
    const first = await grant(root, 'rt-user', { prompt: undefined });
    assert.ok(first.refresh, 'first offline consent gives a refresh token');
    const silent = await grant(root, 'rt-user', { prompt: undefined });
    assert.equal(silent.refresh, undefined, 'a later consent without prompt=consent gives none');
    const forced = await grant(root, 'rt-user');
    assert.ok(forced.refresh);
    const refreshed = await call(root, 'POST', '/token', { form: tokenForm({ grant_type: 'refresh_token', refresh_token: forced.refresh! }) });
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.refresh_token, undefined, 'no rotation: no new refresh token');
    assert.notEqual(refreshed.body.access_token, forced.access);
    const again = await call(root, 'POST', '/token', { form: tokenForm({ grant_type: 'refresh_token', refresh_token: forced.refresh! }) });
    assert.equal(again.status, 200, 'the same refresh token keeps working');
  });

  test('beyond the cap of live refresh tokens the oldest stops working', async () => {
    emu.settings.refreshTokenCap = 2;
    const a = await grant(root, 'capped');
    await grant(root, 'capped');
    await grant(root, 'capped');
    const res = await call(root, 'POST', '/token', { form: tokenForm({ grant_type: 'refresh_token', refresh_token: a.refresh! }) });
    assert.deepEqual([res.status, res.body.error, res.body.error_description], [400, 'invalid_grant', 'Token has been expired or revoked.']);
  });

  test('revoking either token ends the whole grant; tokeninfo tells the scopes', async () => {
    const g = await grant(root, 'revoker');
    const info = await call(root, 'GET', '/tokeninfo', { query: { access_token: g.access } });
    assert.equal(info.status, 200);
    assert.equal(info.body.scope, ALL.join(' '));
    assert.equal(info.body.access_type, 'offline');
    assert.equal(info.body.aud, SANDBOX_APP.clientId);
    assert.match(info.body.exp, /^\d+$/);
    const res = await call(root, 'POST', '/revoke', { form: { token: g.refresh! } });
    assert.deepEqual([res.status, res.body], [200, {}]);
    assert.equal((await call(root, 'GET', '/youtube/v3/channels', { token: g.access, query: { part: 'id', mine: 'true' } })).status, 401);
    const bad = await call(root, 'POST', '/revoke', { query: { token: g.access } });
    assert.deepEqual([bad.status, bad.body.error], [400, 'invalid_token']);
    const info2 = await call(root, 'GET', '/tokeninfo', { query: { access_token: g.access } });
    assert.deepEqual([info2.status, info2.body.error, info2.body.error_description], [400, 'invalid_token', 'Invalid Value']);
  });
});

describe('bearer tokens and scopes per method', () => {
  test('no token, a bad or expired token: 401 in Google\'s envelope', async () => {
    const none = await call(root, 'GET', '/youtube/v3/channels', { query: { part: 'id', mine: 'true' } });
    assert.deepEqual([none.status, reason(none), none.body.error.status], [401, 'required', 'UNAUTHENTICATED']);
    const g = await grant(root, 'expiring');
    emu.oauth.expireAccessTokens();
    const expired = await call(root, 'GET', '/youtube/v3/channels', { token: g.access, query: { part: 'id', mine: 'true' } });
    assert.deepEqual([expired.status, reason(expired), expired.body.error.status], [401, 'authError', 'UNAUTHENTICATED']);
    assert.match(expired.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  test('each method takes only its scopes', async () => {
    const upload = await grant(root, 'scoped', { scope: SCOPE.upload });
    const readonly = await grant(root, 'scoped', { scope: SCOPE.readonly });
    const insufficient = async (token: string, method: string, path: string, json?: unknown) => {
      const res = await call(root, method, path, { token, query: { part: 'snippet', mine: 'true', id: 'x', videoId: 'x', playlistId: 'x', uploadType: 'resumable' }, json });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(reason(res), 'insufficientPermissions');
      assert.equal(res.body.error.details[0].reason, 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
    };
    await insufficient(upload.access, 'GET', '/youtube/v3/channels');
    await insufficient(upload.access, 'GET', '/youtube/v3/videos');
    await insufficient(upload.access, 'GET', '/youtube/v3/playlistItems');
    await insufficient(upload.access, 'DELETE', '/youtube/v3/videos');
    await insufficient(readonly.access, 'POST', '/upload/youtube/v3/videos', {});
    await insufficient(readonly.access, 'PUT', '/youtube/v3/videos', {});
    await insufficient(readonly.access, 'POST', '/youtube/v3/commentThreads', {});
    await insufficient(upload.access, 'POST', '/youtube/v3/commentThreads', {});
  });

  test('an unknown path answers Google\'s 404', async () => {
    const res = await call(root, 'GET', '/youtube/v3/nothing');
    assert.deepEqual([res.status, reason(res)], [404, 'notFound']);
  });
});

describe('resumable upload', () => {
  let token: string;
  before(async () => {
    token = (await grant(root, 'uploader')).access;
  });

  test('opening a session: resumable only, the file size and a video type required, metadata checked', async () => {
    const open = (query: Record<string, string>, headers: Record<string, string>, json: unknown) =>
      call(root, 'POST', '/upload/youtube/v3/videos', { token, query: { uploadType: 'resumable', part: 'snippet,status', ...query }, headers, json });
    const ok = { 'x-upload-content-length': '1000', 'x-upload-content-type': 'video/mp4' };
    const meta = { snippet: { title: 'T' }, status: { privacyStatus: 'public' } };
    const cases: [Record<string, string>, Record<string, string>, unknown, number, string][] = [
      [{ uploadType: 'multipart' }, ok, meta, 400, 'invalidParameter'],
      [{ part: 'snippet,nonsense' }, ok, meta, 400, 'unknownPart'],
      [{ part: '' }, ok, meta, 400, 'required'],
      [{ color: 'blue' }, ok, meta, 400, 'unexpectedParameter'],
      [{}, { 'x-upload-content-type': 'video/mp4' }, meta, 400, 'required'],
      [{}, { ...ok, 'x-upload-content-type': 'image/jpeg' }, meta, 400, 'badContent'],
      [{}, ok, { snippet: { title: '' } }, 400, 'invalidTitle'],
      [{}, ok, { snippet: { title: 'x'.repeat(101) } }, 400, 'invalidTitle'],
      [{}, ok, { snippet: { title: 'a <b>' } }, 400, 'invalidTitle'],
      [{ part: 'status' }, ok, meta, 400, 'invalidTitle'],
      [{}, ok, { snippet: { title: 'T', description: 'é'.repeat(2501) } }, 400, 'invalidDescription'],
      [{}, ok, { snippet: { title: 'T', tags: ['x'.repeat(300), 'y'.repeat(201)] } }, 400, 'invalidTags'],
      [{}, ok, { snippet: { title: 'T', categoryId: '3' } }, 400, 'invalidCategoryId'],
      [{}, ok, { snippet: { title: 'T' }, status: { privacyStatus: 'secret' } }, 400, 'invalid'],
      [{}, ok, { snippet: { title: 'T', colour: 'red' } }, 400, 'invalid'],
      [{}, ok, { snippet: { title: 'T' }, status: { privacyStatus: 'public', publishAt: '2099-01-01T00:00:00Z' } }, 400, 'invalidPublishAt'],
    ];
    for (const [query, headers, json, status, why] of cases) {
      const res = await open(query, headers, json);
      assert.equal(res.status, status, `${JSON.stringify([query, headers, json])}: ${res.text}`);
      assert.equal(reason(res), why, res.text);
    }
    const unknownName = await open({}, ok, { snippet: { title: 'T', colour: 'red' } });
    assert.match(unknownName.body.error.message, /Unknown name "colour" at 'resource.snippet'/);
    assert.equal(unknownName.body.error.status, 'INVALID_ARGUMENT');
    // 5,000 bytes of description are fine; 100 characters of title too (code points, an emoji is one).
    const fine = await open({}, ok, { snippet: { title: '🎬'.repeat(100), description: 'é'.repeat(2500) } });
    assert.equal(fine.status, 200, fine.text);
    assert.match(fine.headers.get('location')!, /upload_id=/);
    const noMedia = await call(root, 'POST', '/youtube/v3/videos', { token, query: { part: 'snippet' }, json: meta });
    assert.deepEqual([noMedia.status, reason(noMedia)], [400, 'mediaBodyRequired']);
  });

  test('a Google account without a channel cannot upload', async () => {
    const g = await grant(root, 'no-channel', {}, { sandbox_no_channel: '1' });
    const res = await call(root, 'POST', '/upload/youtube/v3/videos', {
      token: g.access,
      query: { uploadType: 'resumable', part: 'snippet' },
      headers: { 'x-upload-content-length': '10', 'x-upload-content-type': 'video/mp4' },
      json: { snippet: { title: 'T' } },
    });
    assert.deepEqual([res.status, reason(res)], [401, 'youtubeSignupRequired']);
  });

  test('chunks: 308 with Range, only whole 256 KiB granules of a non-final chunk kept, the last byte makes one video', async () => {
    const size = GRANULE * 2 + 500;
    const bytes = mp4(size);
    const uri = await openSession(root, token, size);
    let res = await statusQuery(uri, token, size);
    assert.equal(res.status, 308);
    assert.equal(res.headers.get('range'), null, 'nothing stored: no Range');
    // 300 KiB sent, 256 KiB kept.
    res = await put(uri, token, bytes.subarray(0, 300 * 1024), 0, size);
    assert.equal(res.status, 308);
    assert.equal(res.headers.get('range'), `bytes=0-${GRANULE - 1}`);
    // The next chunk must continue where the server stands, not where the client stopped.
    res = await put(uri, token, bytes.subarray(300 * 1024, 400 * 1024), 300 * 1024, size);
    assert.equal(res.status, 400);
    res = await put(uri, token, bytes.subarray(GRANULE, size - 100), GRANULE, size + 1);
    assert.equal(res.status, 400, 'total differs from the declared size');
    const short = await call('', 'PUT', uri, { token, bytes: bytes.subarray(GRANULE, GRANULE + 10), headers: { 'content-range': `bytes ${GRANULE}-${GRANULE + 19}/${size}` } });
    assert.equal(short.status, 400, 'body shorter than its range');
    res = await put(uri, token, bytes.subarray(GRANULE), GRANULE, size);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.kind, 'youtube#video');
    assert.equal(res.body.status.uploadStatus, 'uploaded');
    assert.equal(res.body.snippet.title, 'A video');
    const id = res.body.id;
    // Asking (or sending) again answers with the same video; no second one is made.
    const again = await statusQuery(uri, token, size);
    assert.deepEqual([again.status, again.body.id], [200, id]);
    const resend = await put(uri, token, bytes.subarray(GRANULE), GRANULE, size);
    assert.deepEqual([resend.status, resend.body.id], [200, id]);
    const videos = emu.ledger.list({ kind: 'video' }).filter((e) => e.extra?.sessionId && uri.includes(String(e.extra.sessionId)));
    assert.equal(videos.length, 1);
    assert.equal(videos[0]!.extra!.bytes, size);
  });

  test('the session URI is the credential; a token sent with it must be valid; unknown or expired sessions are 404', async () => {
    const uri = await openSession(root, token, 10);
    assert.equal((await statusQuery(uri, undefined, 10)).status, 308);
    const bad = await statusQuery(uri, 'ya29.nonsense', 10);
    assert.deepEqual([bad.status, reason(bad)], [401, 'authError']);
    const unknown = await statusQuery(uri.replace(/upload_id=[^&]+/, 'upload_id=nope'), token, 10);
    assert.deepEqual([unknown.status, reason(unknown)], [404, 'notFound']);
    emu.settings.sessionTtlMs = 0;
    await new Promise((r) => setTimeout(r, 5));
    assert.equal((await statusQuery(uri, token, 10)).status, 404);
  });

  test('processing: uploaded, then processed; bytes that are not a video fail', async () => {
    const good = await openSession(root, token, 100);
    const id = (await put(good, token, mp4(100), 0, 100)).body.id;
    const bad = await openSession(root, token, 100);
    const badId = (await put(bad, token, new Uint8Array(100).fill(7), 0, 100)).body.id;
    await new Promise((r) => setTimeout(r, 60));
    const res = await call(root, 'GET', '/youtube/v3/videos', { token, query: { part: 'status,processingDetails', id: `${id},${badId}` } });
    const byId = Object.fromEntries(res.body.items.map((v: any) => [v.id, v]));
    assert.equal(byId[id].status.uploadStatus, 'processed');
    assert.equal(byId[id].processingDetails.processingStatus, 'succeeded');
    assert.equal(byId[badId].status.uploadStatus, 'failed');
    assert.equal(byId[badId].status.failureReason, 'invalidFile');
  });

  test('an unaudited API project gets every upload locked private', async () => {
    emu.settings.unverifiedProject = true;
    const uri = await openSession(root, token, 100);
    const res = await put(uri, token, mp4(100), 0, 100);
    assert.equal(res.body.status.privacyStatus, 'private');
    assert.equal(emu.ledger.get(res.body.id)!.extra!.requestedPrivacy, 'public');
  });

  test('faults answer in Google\'s formats: a 429 carries Retry-After and RetryInfo; the token endpoint its OAuth shape', async () => {
    emu.faults.add({ kind: 'rate_limited', path: '/youtube/v3/channels', resetSeconds: 42 });
    const limited = await call(root, 'GET', '/youtube/v3/channels', { token, query: { part: 'id', mine: 'true' } });
    assert.deepEqual([limited.status, reason(limited), limited.headers.get('retry-after')], [429, 'rateLimitExceeded', '42']);
    assert.equal(limited.body.error.details[0].retryDelay, '42s');
    emu.faults.add({ kind: 'server_error', path: '/token' });
    const oauth = await call(root, 'POST', '/token', { form: tokenForm({ grant_type: 'refresh_token', refresh_token: 'x' }) });
    assert.equal(oauth.status, 500);
    assert.equal(typeof oauth.body.error, 'string');
  });
});

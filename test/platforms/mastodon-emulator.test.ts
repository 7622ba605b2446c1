// The Mastodon emulator spoken to directly over HTTP: it refuses what a real instance refuses, in the
// instance's own words and statuses.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait.ts';
import { pkceChallenge } from '../../src/lib/crypto.ts';
import { createMastodonEmulator, type MastodonEmulator } from '../../src/sandbox/mastodon/emulator.ts';
import { SAMPLE_MEDIA } from '../../src/sandbox/media.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';

const REDIRECT = 'https://app.example/cb';
const SCOPES = 'read:accounts read:statuses write:statuses write:media';
const VERIFIER = 'v'.repeat(50);
let server: EmulatorServer;
let emu: MastodonEmulator;
let root: string;
let app: { client_id: string; client_secret: string };

before(async () => {
  emu = createMastodonEmulator({ processingMs: 40 });
  server = await startEmulatorServer([emu]);
  root = server.rootOf('mastodon');
});
after(() => server.close());
beforeEach(async () => {
  emu.reset();
  app = (await call('POST', '/api/v1/apps', null, { client_name: 'Test', redirect_uris: [REDIRECT], scopes: SCOPES })).json;
});

interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function call(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const h: Record<string, string> = { accept: 'application/json', ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  let payload: RequestInit['body'];
  if (body instanceof FormData || body instanceof URLSearchParams) payload = body;
  else if (body !== undefined) {
    h['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${root}${path}`, { method, headers: h, body: payload, redirect: 'manual' });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

function authorizeUrl(params: Record<string, string> = {}): URL {
  const url = new URL(`${root}/oauth/authorize`);
  const all = { response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, scope: SCOPES, state: 'st', ...params };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url;
}

async function consent(params: Record<string, string> = {}): Promise<URL> {
  const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
  assert.equal(res.status, 302, await res.text());
  return new URL(res.headers.get('location')!);
}

async function exchange(extra: Record<string, string>): Promise<Res> {
  return call('POST', '/oauth/token', null, new URLSearchParams({ grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT, ...extra }));
}

async function tokenFor(user = 'alice', scope = SCOPES): Promise<string> {
  const code = (await consent({ sandbox_user: user, scope, code_challenge: pkceChallenge(VERIFIER), code_challenge_method: 'S256' })).searchParams.get('code')!;
  const r = await exchange({ code, code_verifier: VERIFIER });
  assert.equal(r.status, 200, r.text);
  return r.json.access_token;
}

function file(name: 'sample.jpg' | 'sample.png' | 'sample.mp4', pad = 0): Blob {
  const bytes = SAMPLE_MEDIA[name]!.bytes;
  return new Blob([Buffer.concat([bytes, Buffer.alloc(pad)])]);
}

async function upload(token: string, name: 'sample.jpg' | 'sample.png' | 'sample.mp4' = 'sample.jpg', description?: string, pad = 0): Promise<Res> {
  const form = new FormData();
  form.set('file', file(name, pad), name);
  if (description !== undefined) form.set('description', description);
  return call('POST', '/api/v2/media', token, form);
}

async function readyVideo(token: string): Promise<string> {
  const r = await upload(token, 'sample.mp4');
  assert.equal(r.status, 202);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal((await call('GET', `/api/v1/media/${r.json.id}`, token)).status, 200);
  return r.json.id;
}

describe('apps and OAuth', () => {
  test('registration: every app gets a secret; a blank name, a relative redirect URI or an unknown scope is refused', async () => {
    assert.ok(app.client_id && app.client_secret);
    const full = (await call('POST', '/api/v1/apps', null, { client_name: 'X', redirect_uris: REDIRECT, scopes: 'read' })).json;
    assert.deepEqual([full.redirect_uris, full.scopes, full.client_secret_expires_at], [[REDIRECT], ['read'], 0]);
    assert.deepEqual(await call('POST', '/api/v1/apps', null, { redirect_uris: REDIRECT }).then((r) => [r.status, r.json]), [422, { error: "Validation failed: Name can't be blank" }]);
    assert.deepEqual(await call('POST', '/api/v1/apps', null, { client_name: 'X', redirect_uris: '/cb' }).then((r) => [r.status, r.json]), [422, { error: 'Validation failed: Redirect URI must be an absolute URI.' }]);
    assert.equal((await call('POST', '/api/v1/apps', null, { client_name: 'X', redirect_uris: REDIRECT, scopes: 'read write:everything' })).status, 422);
    const form = await call('POST', '/api/v1/apps', null, new URLSearchParams({ client_name: 'Form', 'redirect_uris[]': REDIRECT, scopes: 'read' }));
    assert.equal(form.status, 200, 'form bodies with key[] arrays work too');
  });

  test('consent: unknown client and unregistered redirect get error pages; a bad scope or PKCE method comes back with state', async () => {
    const unknown = await fetch(authorizeUrl({ client_id: 'nope' }), { redirect: 'manual' });
    assert.equal(unknown.status, 401);
    assert.match(unknown.headers.get('content-type')!, /text\/html/);
    assert.equal((await fetch(authorizeUrl({ redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' })).status, 400);
    // Stricter than needed: a redirect URI matches exactly (no query or port leniency).
    assert.equal((await fetch(authorizeUrl({ redirect_uri: `${REDIRECT}?x=1` }), { redirect: 'manual' })).status, 400);
    const scope = await consent({ scope: 'read write' });
    assert.deepEqual([scope.searchParams.get('error'), scope.searchParams.get('state')], ['invalid_scope', 'st']);
    const granular = await consent({ scope: 'read:statuses read:search' });
    assert.equal(granular.searchParams.get('error'), 'invalid_scope', 'scopes are compared literally with the app\'s');
    const plain = await consent({ code_challenge: 'abc', code_challenge_method: 'plain' });
    assert.deepEqual([plain.searchParams.get('error'), plain.searchParams.get('error_description')], ['invalid_request', 'The code_challenge_method must be S256.']);
    assert.equal((await consent({ response_type: 'token' })).searchParams.get('error'), 'unsupported_response_type');
    assert.equal((await consent({ sandbox_deny: '1' })).searchParams.get('error'), 'access_denied');
  });

  test('token: client auth by params or Basic; PKCE verified; codes single use; no expiry, no refresh token', async () => {
    const bad = await call('POST', '/oauth/token', null, new URLSearchParams({ grant_type: 'authorization_code', client_id: app.client_id, client_secret: 'wrong', code: 'x', redirect_uri: REDIRECT }));
    assert.deepEqual([bad.status, bad.json.error], [401, 'invalid_client']);
    const code = (await consent({ code_challenge: pkceChallenge(VERIFIER), code_challenge_method: 'S256' })).searchParams.get('code')!;
    const missing = await exchange({ code });
    assert.deepEqual([missing.status, missing.json], [400, { error: 'invalid_request', error_description: 'Missing required parameter: code_verifier.' }]);
    assert.equal((await exchange({ code, code_verifier: 'w'.repeat(50) })).json.error, 'invalid_grant');
    const basic = await call(
      'POST',
      '/oauth/token',
      null,
      new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: VERIFIER, redirect_uri: REDIRECT }),
      { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` },
    );
    assert.equal(basic.status, 200, basic.text);
    assert.deepEqual(Object.keys(basic.json).sort(), ['access_token', 'created_at', 'scope', 'token_type']);
    assert.equal(basic.json.scope, SCOPES);
    assert.equal((await exchange({ code, code_verifier: VERIFIER })).json.error, 'invalid_grant', 'a code works once');
    const plainCode = (await consent()).searchParams.get('code')!;
    assert.equal((await exchange({ code: plainCode, code_verifier: VERIFIER })).json.error, 'invalid_grant', 'a verifier for a grant without challenge fails');
    assert.equal((await exchange({ code: plainCode, redirect_uri: 'https://app.example/other' })).json.error, 'invalid_grant');
    const refresh = await call('POST', '/oauth/token', null, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: app.client_secret }));
    assert.deepEqual([refresh.status, refresh.json.error], [400, 'unsupported_grant_type']);
  });

  test('a new consent by the same user for the same app and scopes returns the same token', async () => {
    assert.equal(await tokenFor('bob'), await tokenFor('bob'));
    assert.notEqual(await tokenFor('bob'), await tokenFor('carol'));
  });

  test('revoke: another app\'s token is refused 403; unknown tokens are fine; a revoked token gets 401 "was revoked"', async () => {
    const token = await tokenFor();
    const other = (await call('POST', '/api/v1/apps', null, { client_name: 'Other', redirect_uris: REDIRECT, scopes: 'read' })).json;
    const foreign = await call('POST', '/oauth/revoke', null, new URLSearchParams({ client_id: other.client_id, client_secret: other.client_secret, token }));
    assert.deepEqual([foreign.status, foreign.json.error], [403, 'unauthorized_client']);
    assert.equal((await call('POST', '/oauth/revoke', null, new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token: 'nope' }))).status, 200);
    const ok = await call('POST', '/oauth/revoke', null, new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, token }));
    assert.deepEqual([ok.status, ok.json], [200, {}]);
    const after = await call('GET', '/api/v1/accounts/verify_credentials', token);
    assert.deepEqual([after.status, after.json], [401, { error: 'The access token was revoked' }]);
    assert.match(after.headers.get('www-authenticate')!, /error="invalid_token"/);
  });

  test('the 4.3 server metadata advertises S256 only', async () => {
    const meta = (await call('GET', '/.well-known/oauth-authorization-server', null)).json;
    assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
    assert.equal(meta.authorization_endpoint, `${root}/oauth/authorize`);
  });
});

describe('scopes and identity', () => {
  test('every call checks its scope: a read-only token cannot post or upload (403)', async () => {
    const token = await tokenFor('reader', 'read:accounts read:statuses');
    assert.deepEqual(await call('POST', '/api/v1/statuses', token, { status: 'hi' }).then((r) => [r.status, r.json]), [403, { error: 'This action is outside the authorized scopes' }]);
    assert.equal((await upload(token)).status, 403);
    assert.equal((await call('GET', '/api/v1/accounts/verify_credentials', token)).status, 200);
    const writer = await tokenFor('writer', 'write:statuses');
    assert.equal((await call('GET', '/api/v1/accounts/verify_credentials', writer)).status, 403);
    assert.equal((await upload(writer)).status, 403, 'write:statuses does not cover media');
  });

  test('no token or a bad one is 401 "The access token is invalid"; an app token is not a user', async () => {
    assert.deepEqual(await call('POST', '/api/v1/statuses', null, { status: 'x' }).then((r) => [r.status, r.json]), [401, { error: 'The access token is invalid' }]);
    assert.equal((await call('POST', '/api/v1/statuses', 'made-up', { status: 'x' })).status, 401);
    const appToken = (await call('POST', '/oauth/token', null, new URLSearchParams({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: app.client_secret, scope: 'read:accounts' }))).json.access_token;
    assert.deepEqual(await call('GET', '/api/v1/accounts/verify_credentials', appToken).then((r) => [r.status, r.json]), [422, { error: 'This method requires an authenticated user' }]);
  });

  test('verify_credentials and the instance description', async () => {
    const me = (await call('GET', '/api/v1/accounts/verify_credentials', await tokenFor('Dana'))).json;
    assert.deepEqual([me.username, me.acct, me.display_name], ['dana', 'dana', 'Dana']);
    assert.match(me.id, /^\d{18}$/);
    assert.ok(me.source && me.url === `https://${new URL(root).host}/@dana`);
    const inst = (await call('GET', '/api/v2/instance', null)).json;
    assert.equal(inst.domain, new URL(root).host);
    assert.deepEqual(inst.configuration.statuses, { max_characters: 500, max_media_attachments: 4, characters_reserved_per_url: 23 });
    emu.settings.maxCharacters = 1000;
    assert.equal((await call('GET', '/api/v2/instance', null)).json.configuration.statuses.max_characters, 1000);
  });

  test('unknown routes answer 404 {"error":"Not Found"}', async () => {
    assert.deepEqual(await call('GET', '/api/v1/nope', null).then((r) => [r.status, r.json]), [404, { error: 'Not Found' }]);
  });
});

describe('media', () => {
  test('images are processed inline (200 with url); video answers 202, 206 while processing, then 200', async () => {
    const token = await tokenFor();
    const img = await upload(token, 'sample.jpg', 'a white pixel');
    assert.equal(img.status, 200);
    assert.deepEqual([img.json.type, img.json.description, typeof img.json.url], ['image', 'a white pixel', 'string']);
    // Processing outlasts the test until the test ends it, so the 206 does not depend on the machine's speed.
    emu.settings.processingMs = 3_600_000;
    const vid = await upload(token, 'sample.mp4');
    assert.deepEqual([vid.status, vid.json.type, vid.json.url], [202, 'video', null]);
    assert.equal((await call('GET', `/api/v1/media/${vid.json.id}`, token)).status, 206);
    emu.state.media.get(vid.json.id)!.readyAt = emu.state.now();
    const done = await call('GET', `/api/v1/media/${vid.json.id}`, token);
    assert.equal(done.status, 200);
    assert.ok(done.json.url);
  });

  test('the type comes from the bytes; size and alt text are limited; another user\'s media is not found', async () => {
    const token = await tokenFor();
    const form = new FormData();
    form.set('file', new Blob([Buffer.from('%PDF-1.4 not a picture')]), 'picture.jpg');
    assert.deepEqual(await call('POST', '/api/v2/media', token, form).then((r) => [r.status, r.json]), [422, { error: 'Validation failed: File content type is invalid, File is invalid' }]);
    assert.equal((await call('POST', '/api/v2/media', token, new FormData())).status, 422);
    emu.settings.imageSizeLimit = 1024 * 1024;
    const big = await upload(token, 'sample.jpg', undefined, 1024 * 1024);
    assert.deepEqual([big.status, big.json.error], [422, 'Validation failed: File file size must be less than 1 MB']);
    emu.settings.imageSizeLimit = 16 * 1024 * 1024;
    assert.equal((await upload(token, 'sample.jpg', 'x'.repeat(1501))).status, 422);
    const mine = await upload(token);
    assert.equal((await call('GET', `/api/v1/media/${mine.json.id}`, await tokenFor('mallory'))).status, 404);
  });

  test('failed processing is a 422 on the status check', async () => {
    emu.settings.failProcessing = true;
    const token = await tokenFor();
    const vid = await upload(token, 'sample.mp4');
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(await call('GET', `/api/v1/media/${vid.json.id}`, token).then((r) => [r.status, r.json]), [422, { error: 'Error processing thumbnail for uploaded media' }]);
  });
});

describe('statuses', () => {
  test('a create answers 200 with the Status; the URL is https://domain/@user/id; the ledger records it', async () => {
    const token = await tokenFor('erin');
    const r = await call('POST', '/api/v1/statuses', token, { status: 'Hello <world> https://example.com', visibility: 'unlisted', language: 'de' });
    assert.equal(r.status, 200, r.text);
    const host = new URL(root).host;
    assert.equal(r.json.url, `https://${host}/@erin/${r.json.id}`);
    assert.equal(r.json.uri, `https://${host}/users/erin/statuses/${r.json.id}`);
    assert.match(r.json.content, /^<p>Hello &lt;world&gt; <a href="https:\/\/example\.com"/);
    assert.deepEqual([r.json.visibility, r.json.language, r.json.edited_at, r.json.application?.name], ['unlisted', 'de', null, 'Test']);
    const [entry] = emu.ledger.list();
    assert.deepEqual([entry!.kind, entry!.text, entry!.accountId], ['post', 'Hello <world> https://example.com', `${r.json.account.id}@${host}`]);
  });

  test('the rules and texts of PostStatusService', async () => {
    const token = await tokenFor();
    const err = async (body: unknown) => call('POST', '/api/v1/statuses', token, body).then((r) => [r.status, r.json.error]);
    assert.deepEqual(await err({ status: '   ' }), [422, "Validation failed: Text can't be blank"]);
    assert.deepEqual(await err({ status: 'a'.repeat(501) }), [422, 'Validation failed: Text character limit of 500 exceeded']);
    assert.equal((await call('POST', '/api/v1/statuses', token, { status: `${'a'.repeat(476)} https://example.com/${'b'.repeat(400)}` })).status, 200, 'a link counts 23');
    assert.deepEqual(await err({ status: 'x', visibility: 'everyone' }), [422, 'Validation failed: Visibility is not included in the list']);
    assert.deepEqual(await err({ status: 'x', in_reply_to_id: '1' }), [404, 'The post you are trying to reply to does not appear to exist.']);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await upload(token)).json.id);
    assert.deepEqual(await err({ status: 'x', media_ids: ids }), [422, 'Cannot attach more than 4 files']);
    assert.deepEqual(await err({ status: 'x', media_ids: ['1', '2'] }), [422, 'Media 1, 2 not found or already attached to another post']);
    const other = (await upload(await tokenFor('zed'))).json.id;
    assert.deepEqual(await err({ status: 'x', media_ids: [other] }), [422, `Media ${other} not found or already attached to another post`]);
    const video = await readyVideo(token);
    assert.deepEqual(await err({ status: 'x', media_ids: [video, ids[0]] }), [422, 'Cannot attach a video to a post that already contains images']);
    emu.settings.processingMs = 3_600_000; // still processing when the status is posted, however slow the machine
    const processing = (await upload(token, 'sample.mp4')).json.id;
    assert.deepEqual(await err({ status: 'x', media_ids: [processing] }), [422, 'Cannot attach files that have not finished processing. Try again in a moment!']);
    assert.equal(emu.ledger.list().length, 1, 'only the status with the long link was made');
  });

  test('media_ids must be an array: a scalar is dropped and the status goes out without media, as Rails does', async () => {
    const token = await tokenFor();
    const id = (await upload(token)).json.id;
    const r = await call('POST', '/api/v1/statuses', token, { status: 'scalar', media_ids: id });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.media_attachments, []);
    const form = await call('POST', '/api/v1/statuses', token, new URLSearchParams([['status', 'form'], ['media_ids[]', id]]));
    assert.equal(form.json.media_attachments[0].id, id, 'form posts with media_ids[] attach');
    assert.equal((await call('GET', `/api/v1/media/${id}`, token)).status, 404, 'attached media are no longer listed');
  });

  test('Idempotency-Key: a replay answers with the first status whatever it says; per account; gone after delete', async () => {
    const token = await tokenFor('ivy');
    const first = await call('POST', '/api/v1/statuses', token, { status: 'once' }, { 'idempotency-key': 'k1' });
    const replay = await call('POST', '/api/v1/statuses', token, { status: 'something else' }, { 'idempotency-key': 'k1' });
    assert.deepEqual([replay.status, replay.json.id, replay.json.content], [200, first.json.id, '<p>once</p>']);
    assert.equal(emu.ledger.list().length, 1);
    const other = await call('POST', '/api/v1/statuses', await tokenFor('jay'), { status: 'once' }, { 'idempotency-key': 'k1' });
    assert.notEqual(other.json.id, first.json.id, 'keys are per account');
    await call('DELETE', `/api/v1/statuses/${first.json.id}`, token);
    assert.deepEqual(await call('POST', '/api/v1/statuses', token, { status: 'once' }, { 'idempotency-key': 'k1' }).then((r) => [r.status, r.json]), [404, { error: 'Record not found' }]);
  });

  test('a concurrent duplicate finds the key locked: 503, and one status is made', async () => {
    // The second request is sent once the first holds the key's lock, and has a second to arrive.
    emu.settings.createDelayMs = 1000;
    const token = await tokenFor();
    const first = call('POST', '/api/v1/statuses', token, { status: 'race' }, { 'idempotency-key': 'race' });
    await until('the first create to hold the key', () => emu.state.locks.size > 0, { everyMs: 2 });
    const [a, b] = await Promise.all([first, call('POST', '/api/v1/statuses', token, { status: 'race' }, { 'idempotency-key': 'race' })]);
    assert.deepEqual([a.status, b.status, b.json.error], [200, 503, 'There was a temporary problem serving your request, please try again']);
    assert.equal(emu.ledger.list().length, 1);
  });

  test('scheduled_at at least 5 minutes ahead makes a ScheduledStatus, not a status', async () => {
    const token = await tokenFor();
    const at = new Date(Date.now() + 3600_000).toISOString();
    const r = await call('POST', '/api/v1/statuses', token, { status: 'later', scheduled_at: at });
    assert.equal(r.status, 200);
    assert.equal(r.json.params.text, 'later');
    assert.equal(r.json.scheduled_at, at);
    assert.equal(emu.ledger.list().length, 0);
    assert.equal((await call('POST', '/api/v1/statuses', token, { status: 'soon', scheduled_at: new Date(Date.now() + 60_000).toISOString() })).status, 422);
  });

  test('an edit takes every field as sent: media, content warning and sensitivity left out are cleared; history kept', async () => {
    const token = await tokenFor();
    const media = (await upload(token)).json.id;
    const s = (await call('POST', '/api/v1/statuses', token, { status: 'v1', media_ids: [media], spoiler_text: 'cw', sensitive: true })).json;
    const kept = await call('PUT', `/api/v1/statuses/${s.id}`, token, { status: 'v2', media_ids: [media], spoiler_text: 'cw', sensitive: true });
    assert.deepEqual([kept.status, kept.json.id, kept.json.media_attachments.length, kept.json.spoiler_text, kept.json.sensitive], [200, s.id, 1, 'cw', true]);
    assert.ok(kept.json.edited_at);
    const bare = (await call('PUT', `/api/v1/statuses/${s.id}`, token, { status: 'v3' })).json;
    assert.deepEqual([bare.media_attachments.length, bare.spoiler_text, bare.sensitive], [0, '', false]);
    assert.deepEqual((await call('GET', `/api/v1/statuses/${s.id}/history`, token)).json.map((e: { content: string }) => e.content), ['<p>v1</p>', '<p>v2</p>', '<p>v3</p>']);
    const same = await call('PUT', `/api/v1/statuses/${s.id}`, token, { status: 'v3' });
    assert.equal(same.json.edited_at, bare.edited_at, 'no change, no edit');
    assert.deepEqual(emu.ledger.list({ kind: 'edit' }).map((e) => e.text), ['v2', 'v3']);
    assert.equal((await call('PUT', `/api/v1/statuses/${s.id}`, await tokenFor('eve'), { status: 'hijack' })).status, 404);
    assert.deepEqual((await call('GET', `/api/v1/statuses/${s.id}/source`, token)).json, { id: s.id, text: 'v3', spoiler_text: '' });
  });

  test('delete answers the status with its source text, then 404; its media can be attached again', async () => {
    const token = await tokenFor();
    const media = (await upload(token)).json.id;
    const s = (await call('POST', '/api/v1/statuses', token, { status: 'bye', media_ids: [media] })).json;
    const del = await call('DELETE', `/api/v1/statuses/${s.id}`, token);
    assert.deepEqual([del.status, del.json.id, del.json.text], [200, s.id, 'bye']);
    assert.equal((await call('DELETE', `/api/v1/statuses/${s.id}`, token)).status, 404);
    assert.equal((await call('GET', `/api/v1/statuses/${s.id}`, token)).status, 404);
    assert.equal((await call('POST', '/api/v1/statuses', token, { status: 'again', media_ids: [media] })).status, 200);
    assert.deepEqual(emu.ledger.list({ kind: 'delete' }).map((e) => e.id), [s.id]);
  });

  test('private statuses are the author\'s; replies show in the context', async () => {
    const token = await tokenFor('pat');
    const s = (await call('POST', '/api/v1/statuses', token, { status: 'secret', visibility: 'private' })).json;
    assert.equal((await call('GET', `/api/v1/statuses/${s.id}`, null)).status, 404);
    assert.equal((await call('GET', `/api/v1/statuses/${s.id}`, await tokenFor('quinn'))).status, 404);
    const reply = (await call('POST', '/api/v1/statuses', token, { status: 'more', in_reply_to_id: s.id, visibility: 'private' })).json;
    assert.equal(reply.in_reply_to_account_id, s.account.id);
    const ctx = (await call('GET', `/api/v1/statuses/${s.id}/context`, token)).json;
    assert.deepEqual(ctx.descendants.map((d: { id: string }) => d.id), [reply.id]);
  });

  test('account statuses: newest first, limit clamped to 40, Link header paging, the author sees everything', async () => {
    const token = await tokenFor('lee');
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) ids.push((await call('POST', '/api/v1/statuses', token, { status: `n${i}`, visibility: i === 0 ? 'direct' : 'public' })).json.id);
    const accountId = (await call('GET', '/api/v1/accounts/verify_credentials', token)).json.id;
    const page = await call('GET', `/api/v1/accounts/${accountId}/statuses?limit=100`, token);
    assert.equal(page.json.length, 40);
    assert.equal(page.json[0].id, ids[44]);
    const host = new URL(root).host;
    assert.match(page.headers.get('link')!, new RegExp(`<https://${host.replace(/\./g, '\\.')}/api/v1/accounts/${accountId}/statuses\\?limit=40&max_id=${ids[5]}>; rel="next"`));
    const rest = await call('GET', `/api/v1/accounts/${accountId}/statuses?limit=40&max_id=${ids[5]}`, token);
    assert.deepEqual(rest.json.map((s: { id: string }) => s.id), ids.slice(0, 5).reverse());
    assert.doesNotMatch(rest.headers.get('link')!, /rel="next"/, 'no next link on a short page');
    const anonymous = await call('GET', `/api/v1/accounts/${accountId}/statuses?limit=40&max_id=${ids[5]}`, null);
    assert.equal(anonymous.json.length, 4, 'others do not see the direct status');
    const after = await call('GET', `/api/v1/accounts/${accountId}/statuses?limit=2&min_id=${ids[10]}`, token);
    assert.deepEqual(after.json.map((s: { id: string }) => s.id), [ids[12], ids[11]]);
  });
});

describe('rate limits', () => {
  test('API answers carry X-RateLimit-* with an ISO 8601 reset (microseconds); past the limit 429 without Retry-After', async () => {
    emu.settings.rateLimits.perToken = { limit: 3, periodS: 300 };
    const token = await tokenFor();
    const first = await call('GET', '/api/v1/accounts/verify_credentials', token);
    assert.equal(first.headers.get('x-ratelimit-limit'), '3');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '2');
    assert.match(first.headers.get('x-ratelimit-reset')!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    await call('GET', '/api/v1/accounts/verify_credentials', token);
    await call('GET', '/api/v1/accounts/verify_credentials', token);
    const over = await call('GET', '/api/v1/accounts/verify_credentials', token);
    assert.deepEqual([over.status, over.json, over.headers.get('x-ratelimit-remaining'), over.headers.get('retry-after')], [429, { error: 'Too many requests' }, '0', null]);
    const resetAt = Date.parse(over.headers.get('x-ratelimit-reset')!);
    assert.equal(resetAt % 300_000, 0, 'windows are aligned to the epoch');
  });

  test('media uploads: 30 per 30 minutes per user; the statuses family: its own cap and headers', async () => {
    emu.settings.rateLimits.media = { limit: 1, periodS: 1800 };
    emu.settings.rateLimits.statuses = { limit: 1, periodS: 10800 };
    const token = await tokenFor();
    assert.equal((await upload(token)).status, 200);
    const media = await upload(token);
    assert.equal(media.status, 429);
    const first = await call('POST', '/api/v1/statuses', token, { status: 'one' });
    assert.equal(first.headers.get('x-ratelimit-limit'), '1');
    const second = await call('POST', '/api/v1/statuses', token, { status: 'two' });
    assert.equal(second.status, 429);
    assert.equal(Date.parse(second.headers.get('x-ratelimit-reset')!) % (10800 * 1000), 0);
    assert.equal(emu.ledger.list().length, 1);
  });
});

describe('faults', () => {
  test('injected errors speak Mastodon', async () => {
    const token = await tokenFor();
    const inject = (body: unknown) => fetch(`${root}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await inject({ kind: 'rate_limited', path: '/api/v1/statuses', resetSeconds: 120 });
    const limited = await call('POST', '/api/v1/statuses', token, { status: 'x' });
    assert.deepEqual([limited.status, limited.json], [429, { error: 'Too many requests' }]);
    assert.ok(Math.abs(Date.parse(limited.headers.get('x-ratelimit-reset')!) - (Date.now() + 120_000)) < 5000);
    await inject({ kind: 'expired_token', path: '/api/v1/statuses' });
    assert.deepEqual(await call('POST', '/api/v1/statuses', token, { status: 'x' }).then((r) => [r.status, r.json]), [401, { error: 'The access token is invalid' }]);
    await inject({ kind: 'permission', path: '/api/v1/statuses' });
    assert.equal((await call('POST', '/api/v1/statuses', token, { status: 'x' })).status, 403);
    await inject({ kind: 'server_error', path: '/api/v1/statuses' });
    assert.equal((await call('POST', '/api/v1/statuses', token, { status: 'x' })).status, 500);
    assert.equal(emu.ledger.list().length, 0);
  });
});

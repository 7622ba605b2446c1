// How the TikTok client reads answers, with the transport replaced by canned HttpResults.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callApi, callOAuth } from '../../../src/platforms/tiktok/client.ts';
import type { AdapterDeps } from '../../../src/platforms/deps.ts';
import type { HttpRequest, HttpResult } from '../../../src/platforms/http.ts';

function depsAnswering(result: HttpResult, seen: HttpRequest[] = []): AdapterDeps {
  return {
    app: { clientId: 'ck', clientSecret: 'cs', apiUrl: 'https://open.tiktokapis.example/', authUrl: 'https://www.tiktok.example/v2/auth/authorize/', tokenUrl: 'https://open.tiktokapis.example/', apiVersion: '' },
    http: { request: async (req) => (seen.push(req), result) },
    serverHttp: { request: async () => ({ sent: false, error: "unused" }) },
    media: { fetch: async () => ({ ok: false, message: 'unused', transient: false }) },
    clock: { now: () => 1000, sleep: async () => {} },
    timing: { pollIntervalMs: 1, maxProcessingMs: 10 },
  };
}

const json = (status: number, body: unknown): HttpResult => ({ sent: true, status, headers: new Headers(), body, text: JSON.stringify(body) });

test('success: the envelope data, the raw text, a bearer header and the joined URL', async () => {
  const seen: HttpRequest[] = [];
  const r = await callApi(depsAnswering(json(200, { data: { publish_id: 'p1' }, error: { code: 'ok', message: '', log_id: 'L' } }), seen), {
    method: 'POST',
    path: '/v2/post/publish/status/fetch/',
    token: 'act.secret',
    json: { publish_id: 'p1' },
  });
  assert.ok(r.ok);
  assert.deepEqual(r.data, { publish_id: 'p1' });
  assert.match(r.text, /"publish_id":"p1"/);
  assert.equal(seen[0]!.url, 'https://open.tiktokapis.example/v2/post/publish/status/fetch/');
  assert.equal(seen[0]!.headers?.authorization, 'Bearer act.secret');
});

test('an error envelope fails even under HTTP 200', async () => {
  const r = await callApi(depsAnswering(json(200, { data: {}, error: { code: 'spam_risk_too_many_posts', message: 'too many', log_id: 'L' } })), { method: 'POST', path: '/x/', token: 't' });
  assert.equal(!r.ok && r.category, 'quota_exceeded');
});

test('an unreadable 2xx is unknown for a creating call, unavailable for a read', async () => {
  const html: HttpResult = { sent: true, status: 200, headers: new Headers(), body: '<html>', text: '<html>' };
  const create = await callApi(depsAnswering(html), { method: 'POST', path: '/x/', token: 't', creates: true });
  assert.equal(!create.ok && create.category, 'outcome_unknown');
  const read = await callApi(depsAnswering(html), { method: 'POST', path: '/x/', token: 't' });
  assert.equal(!read.ok && read.category, 'platform_unavailable');
});

test('no answer: unknown only when the call creates something', async () => {
  const timeout: HttpResult = { sent: 'unknown', error: 'timed out' };
  assert.equal((await callApi(depsAnswering(timeout), { method: 'POST', path: '/x/', token: 't', creates: true }) as { category: string }).category, 'outcome_unknown');
  assert.equal((await callApi(depsAnswering(timeout), { method: 'POST', path: '/x/', token: 't' }) as { category: string }).category, 'platform_unavailable');
});

test('OAuth: an error body fails whatever the status; a flat token body succeeds', async () => {
  const err = await callOAuth(depsAnswering(json(200, { error: 'invalid_grant', error_description: 'Refresh token is invalid.', log_id: 'L' })), '/v2/oauth/token/', {});
  assert.equal(!err.ok && err.category, 'auth_expired');
  const seen: HttpRequest[] = [];
  const ok = await callOAuth(depsAnswering(json(200, { access_token: 'act.x', expires_in: 7200 }), seen), '/v2/oauth/token/', { grant_type: 'refresh_token', code_verifier: undefined });
  assert.ok(ok.ok);
  assert.deepEqual(seen[0]!.body, { form: { grant_type: 'refresh_token', code_verifier: undefined } });
});

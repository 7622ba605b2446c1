import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseXError, rateLimitResetAt, xFailure } from '../../../src/platforms/twitter/errors.ts';
import type { HttpResult } from '../../../src/platforms/http.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const nowSecs = NOW / 1000;

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { sent: true, status, headers: new Headers(headers), body, text: JSON.stringify(body) };
}

test('401 problem means the token is expired or revoked', () => {
  const f = xFailure(answer(401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' }), NOW, 'X rejected the post');
  assert.equal(f.category, 'auth_expired');
  assert.equal(f.httpStatus, 401);
  assert.equal(f.message, 'X rejected the post: Unauthorized');
});

test('403 duplicate content is a content rejection carrying X\'s own words', () => {
  const body = { detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', title: 'Forbidden', status: 403 };
  const f = xFailure(answer(403, body), NOW, 'X rejected the post');
  assert.equal(f.category, 'content_rejected');
  assert.equal(f.message, 'X rejected the post: You are not allowed to create a Tweet with duplicate content.');
  assert.equal(f.platformCode, 'Forbidden');
});

test('403 client-forbidden and not-authorized problems mean a missing permission', () => {
  const forbidden = {
    client_id: '123',
    required_enrollment: 'Appropriate Level of API Access',
    title: 'Client Forbidden',
    detail: 'This request must be made using an approved developer account that is enrolled in the requested endpoint.',
    reason: 'client-not-enrolled',
    type: 'https://api.x.com/2/problems/client-forbidden',
  };
  const f = xFailure(answer(403, forbidden), NOW, 'X');
  assert.equal(f.category, 'permission_missing');
  assert.equal(f.platformCode, 'client-forbidden');
  const legacyHost = { title: 'Forbidden', detail: 'Not authorized.', type: 'https://api.twitter.com/2/problems/not-authorized-for-resource' };
  assert.equal(xFailure(answer(403, legacyHost), NOW, 'X').category, 'permission_missing');
  assert.equal(xFailure(answer(403, { title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Forbidden' }), NOW, 'X').category, 'permission_missing');
});

test('429 is rate_limited with retryAt from x-rate-limit-reset (epoch seconds)', () => {
  const body = { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 };
  const f = xFailure(
    answer(429, body, { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(nowSecs + 420) }),
    NOW,
    'X rejected the post',
  );
  assert.equal(f.category, 'rate_limited');
  assert.equal(f.retryAt, NOW + 420_000);
  assert.equal(f.message, 'X rejected the post: Too Many Requests');
});

test('a used-up 24-hour user limit outranks the 15-minute reset', () => {
  const headers = {
    'x-rate-limit-remaining': '57',
    'x-rate-limit-reset': String(nowSecs + 300),
    'x-user-limit-24hour-limit': '100',
    'x-user-limit-24hour-remaining': '0',
    'x-user-limit-24hour-reset': String(nowSecs + 50_000),
  };
  const f = xFailure(answer(429, { title: 'Too Many Requests', type: 'about:blank', status: 429 }, headers), NOW, 'X');
  assert.equal(f.retryAt, NOW + 50_000_000);
  assert.equal(rateLimitResetAt(new Headers({ 'x-rate-limit-reset': String(nowSecs + 60) })), NOW + 60_000);
});

test('429 without usable headers still gets a retry time; the legacy code 88 body is understood', () => {
  const f = xFailure(answer(429, { errors: [{ code: 88, message: 'Rate limit exceeded' }] }), NOW, 'X');
  assert.equal(f.category, 'rate_limited');
  assert.equal(f.platformCode, '88');
  assert.equal(f.message, 'X: Rate limit exceeded');
  assert.ok(f.retryAt! > NOW);
  const stale = xFailure(answer(429, {}, { 'x-rate-limit-reset': String(nowSecs - 10) }), NOW, 'X');
  assert.ok(stale.retryAt! > NOW, 'a reset in the past is not a retry time');
});

test('usage-capped is quota_exceeded, whatever the status', () => {
  const body = { title: 'UsageCapExceeded', detail: 'Usage cap exceeded: Monthly product cap', type: 'https://api.x.com/2/problems/usage-capped', period: 'Monthly', scope: 'Product' };
  const f = xFailure(answer(429, body), NOW, 'X rejected the post');
  assert.equal(f.category, 'quota_exceeded');
  assert.equal(f.platformCode, 'usage-capped');
  assert.equal(f.message, 'X rejected the post: Usage cap exceeded: Monthly product cap');
  assert.equal(f.retryAt, undefined, 'a monthly cap gives no reset time');
});

test('5xx answers are platform_unavailable', () => {
  const f = xFailure(answer(503, { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 }), NOW, 'X');
  assert.equal(f.category, 'platform_unavailable');
  assert.equal(xFailure(answer(500, 'oops'), NOW, 'X').category, 'platform_unavailable');
  assert.equal(xFailure(answer(503, { errors: [{ code: 130, message: 'Over capacity' }] }), NOW, 'X').category, 'platform_unavailable');
});

test('400 invalid-request is a content rejection, or a media rejection when it is about media', () => {
  const text = {
    errors: [{ parameters: { text: ['x'.repeat(300)] }, message: 'Tweet text is too long.' }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: 'https://api.x.com/2/problems/invalid-request',
  };
  const f = xFailure(answer(400, text), NOW, 'X rejected the post');
  assert.equal(f.category, 'content_rejected');
  assert.equal(f.message, 'X rejected the post: Tweet text is too long.', 'the specific message beats the generic detail');
  const media = { ...text, errors: [{ parameters: { 'media.media_ids': ['123'] }, message: 'Your media IDs are invalid.' }] };
  assert.equal(xFailure(answer(400, media), NOW, 'X').category, 'media_rejected');
});

test('legacy errors arrays map by code', () => {
  assert.equal(xFailure(answer(403, { errors: [{ code: 187, message: 'Status is a duplicate.' }] }), NOW, 'X').category, 'content_rejected');
  assert.equal(xFailure(answer(401, { errors: [{ code: 89, message: 'Invalid or expired token.' }] }), NOW, 'X').category, 'auth_expired');
  assert.equal(xFailure(answer(403, { errors: [{ code: 261, message: 'Application cannot perform write actions.' }] }), NOW, 'X').category, 'permission_missing');
  assert.equal(xFailure(answer(400, { errors: [{ code: 324, message: 'The validation of media ids failed.' }] }), NOW, 'X').category, 'media_rejected');
  assert.deepEqual(parseXError({ errors: [{ code: 88, message: 'Rate limit exceeded' }] }), { shape: 'legacy', code: 88, message: 'Rate limit exceeded' });
});

test('token endpoint errors: a bad code or refresh token needs a reconnect, bad app credentials a permission', () => {
  const badCode = { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.', errors: [{ code: 131 }] };
  const f = xFailure(answer(400, badCode), NOW, 'X refused the authorization code');
  assert.equal(f.category, 'auth_expired');
  assert.equal(f.platformCode, 'invalid_request');
  assert.equal(f.message, 'X refused the authorization code: Value passed for the authorization code was invalid. (invalid_request)');
  const badRefresh = { error: 'invalid_request', error_description: 'Value passed for the token was invalid.' };
  assert.equal(xFailure(answer(400, badRefresh), NOW, 'X').category, 'auth_expired');
  const noBasic = { error: 'unauthorized_client', error_description: 'Missing valid authorization header' };
  assert.equal(xFailure(answer(401, noBasic), NOW, 'X').category, 'permission_missing');
  assert.equal(xFailure(answer(503, { error: 'temporarily_unavailable' }), NOW, 'X').category, 'platform_unavailable');
});

test('not sent is retryable; unknown is outcome_unknown only for calls that create a post', () => {
  assert.equal(xFailure({ sent: false, error: 'could not reach the platform (ECONNREFUSED)' }, NOW, 'X').category, 'platform_unavailable');
  const hang = { sent: 'unknown', error: 'timed out waiting for the platform' } as const;
  assert.equal(xFailure(hang, NOW, 'X rejected the post', { creates: true }).category, 'outcome_unknown');
  assert.equal(xFailure(hang, NOW, 'X identity').category, 'platform_unavailable');
});

test('messages stay short and never echo anything token-like', () => {
  const token = 'dGhpcyBpcyBhIHZlcnkgbG9uZyBhY2Nlc3MgdG9rZW4gdGhhdCBzaG91bGQgbm90IGxlYWs';
  const f = xFailure(answer(400, { error: 'invalid_request', error_description: `Value ${token} was invalid. ${'blah '.repeat(100)}` }), NOW, 'X');
  assert.ok(!f.message.includes(token));
  assert.ok(f.message.length <= 310);
});

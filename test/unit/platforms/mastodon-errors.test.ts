// Mastodon's error answers → Herald's failure categories, retry times from its own rate-limit headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answeredFailure, parseError, resetAt, scrub, unansweredFailure } from '../../../src/platforms/mastodon/errors.ts';

const NOW = Date.parse('2026-11-24T21:00:00.000Z');
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ sent: true as const, status, headers: new Headers(headers), body, text: JSON.stringify(body) });
const ctx = { label: 'Mastodon rejected the post' };

test('the envelope is {error}; OAuth endpoints add error_description', () => {
  assert.deepEqual(parseError({ error: 'Record not found' }), { error: 'Record not found' });
  assert.deepEqual(parseError({ error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' }), {
    error: 'invalid_grant',
    description: 'The provided authorization grant is invalid',
  });
  assert.equal(parseError('<html>502 Bad Gateway</html>'), null);
  assert.equal(parseError({ status: 500 }), null);
});

const table: Array<[number, unknown, string, Record<string, unknown>?]> = [
  [401, { error: 'The access token is invalid' }, 'auth_expired'],
  [401, { error: 'The access token was revoked' }, 'auth_expired'],
  [403, { error: 'This action is outside the authorized scopes' }, 'permission_missing'],
  [403, { error: 'Your login is currently disabled' }, 'permission_missing'],
  [404, { error: 'Record not found' }, 'content_rejected'],
  [404, { error: 'The post you are trying to reply to does not appear to exist.' }, 'content_rejected'],
  [404, '<html>Not Found</html>', 'content_rejected'],
  [422, { error: "Validation failed: Text can't be blank" }, 'content_rejected'],
  [422, { error: 'Validation failed: Text character limit of 500 exceeded' }, 'content_rejected'],
  [422, { error: 'Media 1, 2 not found or already attached to another post' }, 'media_rejected'],
  [422, { error: 'Cannot attach a video to a post that already contains images' }, 'media_rejected'],
  [422, { error: 'Cannot attach files that have not finished processing. Try again in a moment!' }, 'platform_unavailable'],
  [422, { error: 'Validation failed: File content type is invalid, File is invalid' }, 'media_rejected', { media: true }],
  [429, { error: 'Too many requests' }, 'rate_limited'],
  [500, { status: 500, error: 'Internal Server Error' }, 'platform_unavailable'],
  [503, { error: 'There was a temporary problem serving your request, please try again' }, 'platform_unavailable'],
  [302, '', 'platform_unavailable'],
  [400, { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid, expired, revoked…' }, 'auth_expired'],
  [401, { error: 'invalid_client', error_description: 'Client authentication failed due to unknown client…' }, 'auth_expired'],
  [400, { error: 'invalid_scope', error_description: 'The requested scope is invalid, unknown, or malformed.' }, 'permission_missing'],
];

for (const [status, body, category, extra] of table) {
  test(`${status} ${JSON.stringify(body).slice(0, 60)} → ${category}`, () => {
    const f = answeredFailure(answer(status, body), NOW, { ...ctx, ...extra });
    assert.equal(f.category, category);
    assert.equal(f.httpStatus, status);
  });
}

test('a 404 is never an expired token, whatever the route', () => {
  for (const body of [{ error: 'Record not found' }, { error: 'Not Found' }, '']) {
    assert.notEqual(answeredFailure(answer(404, body), NOW, ctx).category, 'auth_expired');
  }
});

test('messages are built from the instance\'s text, with the label and status', () => {
  const f = answeredFailure(answer(422, { error: 'Validation failed: Text character limit of 500 exceeded' }), NOW, ctx);
  assert.equal(f.message, 'Mastodon rejected the post: Validation failed: Text character limit of 500 exceeded (HTTP 422)');
  assert.equal(answeredFailure(answer(502, '<html></html>'), NOW, ctx).message, 'Mastodon rejected the post: HTTP 502');
  assert.match(answeredFailure(answer(301, '', { location: 'https://new.example/api/v1/statuses' }), NOW, ctx).message, /to https:\/\/new\.example\/api\/v1\/statuses; is the instance URL right\?/);
});

test('a 429 waits until X-RateLimit-Reset, an ISO 8601 time with microseconds', () => {
  const f = answeredFailure(answer(429, { error: 'Too many requests' }, { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2026-11-24T21:05:00.000000Z' }), NOW, ctx);
  assert.equal(f.category, 'rate_limited');
  assert.equal(f.retryAt, Date.parse('2026-11-24T21:05:00.000Z'));
});

test('a 429 whose window ends over an hour away is the 3-hour statuses cap: quota_exceeded with that time', () => {
  const f = answeredFailure(answer(429, { error: 'Too many requests' }, { 'x-ratelimit-reset': '2026-11-24T23:59:59.999999Z' }), NOW, ctx);
  assert.equal(f.category, 'quota_exceeded');
  assert.equal(f.retryAt, Date.parse('2026-11-24T23:59:59.999Z'));
});

test('on a status create, a window ending past the API\'s 5-minute ones is the statuses cap', () => {
  const in20min = new Date(NOW + 20 * 60_000).toISOString().replace('Z', '000Z');
  const cap = answeredFailure(answer(429, { error: 'Too many requests' }, { 'x-ratelimit-reset': in20min }), NOW, { ...ctx, creates: true, statusCap: true });
  assert.equal(cap.category, 'quota_exceeded');
  const in4min = new Date(NOW + 4 * 60_000).toISOString();
  assert.equal(answeredFailure(answer(429, { error: 'Too many requests' }, { 'x-ratelimit-reset': in4min }), NOW, { ...ctx, statusCap: true }).category, 'rate_limited');
  // Media uploads: 30 minutes is their own window, a passing throttle.
  assert.equal(answeredFailure(answer(429, { error: 'Too many requests' }, { 'x-ratelimit-reset': in20min }), NOW, { ...ctx, media: true }).category, 'rate_limited');
});

test('without a reset header: Retry-After from a proxy, else five minutes', () => {
  assert.equal(resetAt(new Headers({ 'retry-after': '30' }), NOW), NOW + 30_000);
  assert.equal(resetAt(new Headers({ 'x-ratelimit-reset': 'soon' }), NOW), undefined);
  assert.equal(answeredFailure(answer(429, { error: 'Too many requests' }), NOW, ctx).retryAt, NOW + 5 * 60_000);
  // A reset in the past means now.
  assert.equal(resetAt(new Headers({ 'x-ratelimit-reset': '2020-01-01T00:00:00.000000Z' }), NOW), NOW);
});

test('no answer: a create is outcome_unknown, anything else platform_unavailable', () => {
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, { ...ctx, creates: true }).category, 'outcome_unknown');
  assert.equal(unansweredFailure({ sent: false, error: 'refused' }, { ...ctx, creates: true }).category, 'platform_unavailable');
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, ctx).category, 'platform_unavailable');
});

test('scrub drops anything shaped like a token', () => {
  const token = 'ZA-Yj3aBD8U8Cm7lKUp-lm9O9BmDgdhHzDeqsY8tlL0';
  assert.equal(scrub(`bad token ${token} here`), 'bad token [redacted] here');
  assert.equal(scrub('Media 117673979472773308 not found'), 'Media 117673979472773308 not found');
});

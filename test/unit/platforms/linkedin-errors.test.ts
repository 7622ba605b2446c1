// LinkedIn's error answers → failure categories (platforms.md 7.10), with retryAt from LinkedIn's signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answeredFailure, duplicateOf, linkedInFailure, nextUtcMidnight, parseLinkedInError } from '../../../src/platforms/linkedin/errors.ts';

const NOW = Date.UTC(2026, 10, 24, 22, 56, 0);
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ sent: true as const, status, body, text: JSON.stringify(body), headers: new Headers(headers) });
const fail = (status: number, body: unknown, headers?: Record<string, string>) => answeredFailure(answer(status, body, headers), NOW, 'LinkedIn rejected the post');

test('expired, invalid and revoked tokens are auth_expired', () => {
  for (const [code, sc] of [['EXPIRED_ACCESS_TOKEN', 65602], ['INVALID_ACCESS_TOKEN', 65600], ['REVOKED_ACCESS_TOKEN', 65601]] as const) {
    const f = fail(401, { status: 401, serviceErrorCode: sc, code, message: 'The token used in the request has expired' });
    assert.equal(f.category, 'auth_expired');
    assert.equal(f.platformCode, code);
    assert.equal(f.httpStatus, 401);
  }
});

test('a missing scope or Page role is permission_missing', () => {
  const scope = fail(403, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: partnerApiPostsExternal.CREATE.20260901' });
  assert.equal(scope.category, 'permission_missing');
  assert.match(scope.message, /Not enough permissions to access: partnerApiPostsExternal\.CREATE/);
  const author = fail(403, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Field Value validation failed in REQUEST_BODY: Data Processing Exception while processing fields [/author]' });
  assert.equal(author.category, 'permission_missing');
});

test('a 404 is never auth_expired', () => {
  const f = fail(404, { status: 404, code: 'RESOURCE_NOT_FOUND', message: 'No virtual resource found' });
  assert.equal(f.category, 'content_rejected');
});

test('content and media refusals', () => {
  const tooLong = fail(400, {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message: 'ShareCommentary text length (8694 characters) exceeded the maximum allowed (3000 characters)',
    errorDetails: { inputErrors: [{ description: 'ShareCommentary text length (8694 characters) exceeded the maximum allowed (3000 characters)', input: {}, code: 'FIELD_ARRAY_SIZE_TOO_HIGH' }] },
    status: 400,
  });
  assert.equal(tooLong.category, 'content_rejected');
  assert.equal(tooLong.platformCode, 'FIELD_ARRAY_SIZE_TOO_HIGH');
  const media = fail(422, { message: 'ERROR :: /content/media/id :: urn:li:image:C4 is not ready to be posted (status PROCESSING)\n', status: 422 });
  assert.equal(media.category, 'media_rejected');
  assert.match(media.message, /not ready to be posted/);
});

test('429 with Retry-After is rate_limited until then; without, quota_exceeded until midnight UTC', () => {
  const body = { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle limit for calls to this resource is reached.' };
  const short = fail(429, body, { 'retry-after': '120' });
  assert.equal(short.category, 'rate_limited');
  assert.equal(short.retryAt, NOW + 120_000);
  const daily = fail(429, body);
  assert.equal(daily.category, 'quota_exceeded');
  assert.equal(daily.retryAt, Date.UTC(2026, 10, 25));
  assert.match(daily.message, /resets at 00:00 UTC/);
  assert.equal(nextUtcMidnight(Date.UTC(2026, 11, 31, 23, 59)), Date.UTC(2027, 0, 1));
});

test('5xx is platform_unavailable; a retired version says which setting to change', () => {
  assert.equal(fail(500, { status: 500, message: 'Internal Server Error' }).category, 'platform_unavailable');
  assert.equal(fail(503, '<html>').category, 'platform_unavailable');
  const old = fail(426, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 20250401 is not active' });
  assert.equal(old.category, 'platform_unavailable');
  assert.match(old.message, /HERALD_LINKEDIN_API_VERSION/);
});

test('OAuth errors', () => {
  const code = fail(400, { error: 'invalid_request', error_description: 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code.' });
  assert.equal(code.category, 'auth_expired');
  assert.equal(code.platformCode, 'invalid_request');
  assert.equal(fail(401, { error: 'invalid_client', error_description: 'Client authentication failed' }).category, 'permission_missing');
});

test('not sent vs unknown', () => {
  assert.equal(linkedInFailure({ sent: false, error: 'ECONNREFUSED' }, NOW, 'x', { creates: true }).category, 'platform_unavailable');
  assert.equal(linkedInFailure({ sent: 'unknown', error: 'timed out' }, NOW, 'x', { creates: true }).category, 'outcome_unknown');
  assert.equal(linkedInFailure({ sent: 'unknown', error: 'timed out' }, NOW, 'x').category, 'platform_unavailable');
});

test('the duplicate refusal names the earlier post', () => {
  const body = {
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message: 'Content is a duplicate of urn:li:share:7140000000000000000',
    errorDetails: { inputErrors: [{ description: 'Duplicate post is detected', input: {}, code: 'DUPLICATE_POST' }] },
    status: 422,
  };
  assert.equal(duplicateOf(parseLinkedInError(body)), 'urn:li:share:7140000000000000000');
  assert.equal(duplicateOf(parseLinkedInError({ ...body, message: 'Duplicate post is detected' })), null);
  assert.equal(duplicateOf(parseLinkedInError({ status: 422, message: 'ERROR :: /author :: bad' })), undefined);
});

test('messages never carry a token', () => {
  const token = `AQ${'x'.repeat(60)}`;
  const f = fail(400, { status: 400, message: `bad token ${token}` });
  assert.ok(!f.message.includes(token));
});

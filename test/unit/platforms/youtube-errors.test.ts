// Google's error answers → Herald's failure categories, and the quota day (midnight Pacific).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answeredFailure,
  apiErrorCategory,
  apiFailure,
  durationMs,
  oauthFailure,
  parseApiError,
  parseOAuthError,
  retryAfterMs,
  scrub,
  unansweredFailure,
} from '../../../src/platforms/youtube/errors.ts';
import { nextQuotaReset, quotaDay, quotaDayStart } from '../../../src/platforms/youtube/quota.ts';

const NOW = Date.parse('2026-11-24T20:00:00Z');
const envelope = (status: number, reason: string, message = 'm', extra: Record<string, unknown> = {}) => ({
  error: { code: status, message, errors: [{ message, domain: 'youtube.video', reason }], ...extra },
});
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ sent: true as const, status, headers: new Headers(headers), body, text: JSON.stringify(body) });

test('the envelope: reasons, status, ErrorInfo, RetryInfo; the message as plain text', () => {
  const quota = parseApiError(envelope(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.'));
  assert.deepEqual(quota, { message: 'The request cannot be completed because you have exceeded your quota.', reasons: ['quotaExceeded'] });
  const scope = parseApiError({
    error: {
      code: 403,
      message: 'Request had insufficient authentication scopes.',
      errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
      status: 'PERMISSION_DENIED',
      details: [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' },
      ],
    },
  });
  assert.deepEqual(scope, { message: 'Request had insufficient authentication scopes.', reasons: ['insufficientPermissions'], status: 'PERMISSION_DENIED', infoReason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', retryDelayMs: 1500 });
  assert.equal(parseApiError({ error: 'invalid_grant', error_description: 'Bad Request' }), null, 'the OAuth shape is not the envelope');
  assert.equal(parseApiError('<html>502</html>'), null);
  assert.deepEqual(parseOAuthError({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }), { error: 'invalid_grant', description: 'Token has been expired or revoked.' });
});

const table: Array<[number, string, string]> = [
  [401, 'authError', 'auth_expired'],
  [401, 'youtubeSignupRequired', 'permission_missing'],
  [403, 'insufficientPermissions', 'permission_missing'],
  [403, 'forbidden', 'permission_missing'],
  [403, 'quotaExceeded', 'quota_exceeded'],
  [400, 'uploadLimitExceeded', 'quota_exceeded'],
  [403, 'rateLimitExceeded', 'rate_limited'],
  [429, 'rateLimitExceeded', 'rate_limited'],
  [429, 'uploadRateLimitExceeded', 'rate_limited'],
  [400, 'invalidTitle', 'content_rejected'],
  [400, 'invalidDescription', 'content_rejected'],
  [400, 'invalidCategoryId', 'content_rejected'],
  [403, 'commentsDisabled', 'content_rejected'],
  [400, 'badContent', 'media_rejected'],
  [400, 'invalidImage', 'media_rejected'],
  [404, 'videoNotFound', 'content_rejected'],
  [404, 'notFound', 'platform_unavailable'],
  [500, 'backendError', 'platform_unavailable'],
  [503, 'somethingNew', 'platform_unavailable'],
  [400, 'somethingNew', 'content_rejected'],
];

for (const [status, reason, category] of table) {
  test(`${status} ${reason} → ${category}`, () => {
    assert.equal(apiErrorCategory({ message: '', reasons: [reason] }, status).category, category);
  });
}

test('a 404 is never auth_expired, whatever its body', () => {
  for (const body of [envelope(404, 'notFound'), envelope(404, 'videoNotFound'), '<html>Not Found</html>', {}]) {
    assert.notEqual(answeredFailure(answer(404, body), NOW).category, 'auth_expired');
  }
});

test('front-end statuses without a YouTube reason', () => {
  assert.equal(apiErrorCategory({ message: '', reasons: ['invalid'], status: 'INVALID_ARGUMENT' }, 400).category, 'content_rejected');
  assert.equal(apiErrorCategory({ message: '', reasons: ['required'], status: 'UNAUTHENTICATED' }, 401).category, 'auth_expired');
  assert.equal(apiErrorCategory({ message: '', reasons: [], infoReason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' }, 403).category, 'permission_missing');
  assert.equal(apiErrorCategory({ message: '', reasons: [], status: 'RESOURCE_EXHAUSTED' }, 429).category, 'rate_limited');
});

test('rate limits: Retry-After (seconds or a date), else RetryInfo, else a minute', () => {
  const body = envelope(429, 'rateLimitExceeded');
  assert.equal(answeredFailure(answer(429, body, { 'retry-after': '30' }), NOW).retryAt, NOW + 30_000);
  assert.equal(answeredFailure(answer(429, body, { 'retry-after': new Date(NOW + 90_000).toUTCString() }), NOW).retryAt, NOW + 90_000);
  const withInfo = { error: { ...body.error, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' }] } };
  assert.equal(answeredFailure(answer(429, withInfo), NOW).retryAt, NOW + 12_000);
  assert.equal(answeredFailure(answer(429, body), NOW).retryAt, NOW + 60_000);
  assert.equal(answeredFailure(answer(429, 'Too Many Requests'), NOW).retryAt, NOW + 60_000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' }), NOW), undefined);
  assert.equal(durationMs('3s'), 3000);
  assert.equal(durationMs('3m'), undefined);
});

test('quotaExceeded retries at the next midnight Pacific; uploadLimitExceeded a day later', () => {
  const quota = apiFailure({ message: 'quota', reasons: ['quotaExceeded'] }, 403, NOW);
  assert.equal(quota.retryAt, Date.parse('2026-11-25T08:00:00Z'));
  assert.equal(quota.platformCode, 'quotaExceeded');
  const cap = apiFailure({ message: 'cap', reasons: ['uploadLimitExceeded'] }, 400, NOW);
  assert.equal(cap.retryAt, NOW + 86_400_000);
});

test('the quota day follows Pacific time through daylight saving changes', () => {
  // Summer (PDT, UTC-7) and winter (PST, UTC-8).
  assert.equal(nextQuotaReset(Date.parse('2026-07-01T12:00:00Z')), Date.parse('2026-07-02T07:00:00Z'));
  assert.equal(nextQuotaReset(Date.parse('2026-12-01T12:00:00Z')), Date.parse('2026-12-02T08:00:00Z'));
  // The night clocks fall back (1 Nov 2026): the day that began at 07:00Z ends at 08:00Z next day.
  assert.equal(quotaDayStart(Date.parse('2026-11-01T12:00:00Z')), Date.parse('2026-11-01T07:00:00Z'));
  assert.equal(nextQuotaReset(Date.parse('2026-11-01T12:00:00Z')), Date.parse('2026-11-02T08:00:00Z'));
  // Just before and at midnight.
  assert.equal(quotaDay(Date.parse('2026-11-25T07:59:59Z')), '2026-11-24');
  assert.equal(quotaDay(Date.parse('2026-11-25T08:00:00Z')), '2026-11-25');
  assert.equal(nextQuotaReset(Date.parse('2026-11-25T08:00:00Z')), Date.parse('2026-11-26T08:00:00Z'));
});

test('token endpoint errors', () => {
  const cases: Array<[string, number, string]> = [
    ['invalid_grant', 400, 'auth_expired'],
    ['redirect_uri_mismatch', 400, 'content_rejected'],
    ['invalid_request', 400, 'content_rejected'],
    ['invalid_client', 401, 'permission_missing'],
    ['unauthorized_client', 401, 'permission_missing'],
    ['internal_failure', 500, 'platform_unavailable'],
  ];
  for (const [error, status, category] of cases) assert.equal(oauthFailure({ error, description: 'Bad Request' }, status, NOW).category, category, error);
  const f = answeredFailure(answer(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }), NOW);
  assert.equal(f.message, 'Google refused the token request: Token has been expired or revoked. (invalid_grant)');
});

test('unanswered: an unknown outcome only for calls that may have changed something', () => {
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, true).category, 'outcome_unknown');
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, false).category, 'platform_unavailable');
  assert.equal(unansweredFailure({ sent: false, error: 'ECONNREFUSED' }, true).category, 'platform_unavailable');
});

test('messages never carry a token', () => {
  assert.equal(scrub('bad token ya29.a0AfH6SMBxxxxxxxxxxxxx and 1//0gAbcdefghijklmnop'), 'bad token [token] and [token]');
  const f = apiFailure({ message: 'Invalid token ya29.abcdefghijklmnop', reasons: ['authError'] }, 401, NOW);
  assert.ok(!f.message.includes('ya29.abc'));
});

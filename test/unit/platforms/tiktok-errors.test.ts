// TikTok's documented error answers → Herald's failure categories.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  answeredFailure,
  failReasonFailure,
  parseEnvelopeError,
  parseOAuthError,
  scrub,
  tiktokErrorCategory,
  tiktokFailure,
  unansweredFailure,
} from '../../../src/platforms/tiktok/errors.ts';

const NOW = 1_800_000_000_000;
const envelope = (code: string, message = '') => ({ data: {}, error: { code, message, log_id: '202411221030000102030405060708' } });
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({ sent: true as const, status, headers: new Headers(headers), body, text: JSON.stringify(body) });

test('an "ok" envelope is not an error; other codes are read with message and log id', () => {
  assert.equal(parseEnvelopeError({ data: { user: {} }, error: { code: 'ok', message: '', log_id: 'x' } }), null);
  assert.deepEqual(parseEnvelopeError(envelope('access_token_invalid', 'The access token is invalid or not found in the request.')), {
    code: 'access_token_invalid',
    message: 'The access token is invalid or not found in the request.',
    logId: '202411221030000102030405060708',
  });
  assert.equal(parseEnvelopeError('<html>bad gateway</html>'), null);
});

test('OAuth errors are {error, error_description, log_id}', () => {
  assert.deepEqual(parseOAuthError({ error: 'invalid_grant', error_description: 'Authorization code is expired.', log_id: 'L1' }), {
    code: 'invalid_grant',
    message: 'Authorization code is expired.',
    logId: 'L1',
  });
  assert.equal(parseOAuthError({ access_token: 'act.x' }), null);
});

const table: Array<[string, number, string]> = [
  ['access_token_invalid', 401, 'auth_expired'],
  ['scope_not_authorized', 401, 'permission_missing'],
  ['scope_permission_missed', 401, 'permission_missing'],
  ['rate_limit_exceeded', 429, 'rate_limited'],
  ['spam_risk_too_many_posts', 403, 'quota_exceeded'],
  ['reached_active_user_cap', 403, 'quota_exceeded'],
  ['spam_risk_user_banned_from_posting', 403, 'content_rejected'],
  ['spam_risk_text', 403, 'content_rejected'],
  ['privacy_level_option_mismatch', 400, 'content_rejected'],
  ['unaudited_client_can_only_post_to_private_accounts', 403, 'content_rejected'],
  ['invalid_params', 400, 'content_rejected'],
  ['invalid_param', 400, 'content_rejected'],
  ['invalid_file_upload', 400, 'media_rejected'],
  ['url_ownership_unverified', 403, 'media_rejected'],
  ['internal_error', 500, 'platform_unavailable'],
  ['invalid_grant', 400, 'auth_expired'],
  ['invalid_client', 401, 'permission_missing'],
  // Codes not in the table fall back on the HTTP status.
  ['brand_new_code', 503, 'platform_unavailable'],
  ['brand_new_code', 401, 'auth_expired'],
  ['brand_new_code', 403, 'content_rejected'],
];

for (const [code, status, category] of table) {
  test(`${code} (HTTP ${status}) → ${category}`, () => {
    assert.equal(tiktokErrorCategory(code, status), category);
    assert.equal(answeredFailure(answer(status, envelope(code, 'text')), NOW).category, category);
  });
}

test('rate_limit_exceeded: retryAt a minute out, or Retry-After when TikTok sends one', () => {
  const f = answeredFailure(answer(429, envelope('rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.')), NOW);
  assert.equal(f.retryAt, NOW + 60_000);
  assert.equal(f.httpStatus, 429);
  const g = answeredFailure(answer(429, envelope('rate_limit_exceeded'), { 'retry-after': '7' }), NOW);
  assert.equal(g.retryAt, NOW + 7000);
});

test('daily caps come back after 24 hours', () => {
  assert.equal(tiktokFailure({ code: 'spam_risk_too_many_posts', message: 'too many posts' }, 403, NOW).retryAt, NOW + 86_400_000);
  assert.equal(tiktokFailure({ code: 'reached_active_user_cap', message: '' }, 403, NOW).retryAt, NOW + 86_400_000);
});

test('messages are short, built from TikTok\'s text, and carry the code', () => {
  const f = tiktokFailure({ code: 'privacy_level_option_mismatch', message: 'privacy_level is not allowed for this creator' }, 400, NOW);
  assert.equal(f.message, 'TikTok rejected the post: privacy_level is not allowed for this creator (privacy_level_option_mismatch)');
  assert.equal(f.platformCode, 'privacy_level_option_mismatch');
  const bare = tiktokFailure({ code: 'internal_error', message: '' }, 500, NOW);
  assert.equal(bare.message, 'TikTok is unavailable: internal_error');
});

test('a token in TikTok\'s text never reaches the message', () => {
  const f = tiktokFailure({ code: 'invalid_grant', message: 'refresh token rft.Abc123Def456Ghi789 is expired' }, 400, NOW);
  assert.ok(!f.message.includes('Abc123Def456Ghi789'));
  assert.equal(scrub('token act.1234567890abcdef.xyz here'), 'token [token] here');
});

test('fail_reason of a FAILED post maps by the same vocabulary', () => {
  assert.equal(failReasonFailure('file_format_check_failed', NOW).category, 'media_rejected');
  assert.equal(failReasonFailure('duration_check_failed', NOW).category, 'media_rejected');
  assert.equal(failReasonFailure('picture_size_check_failed', NOW).category, 'media_rejected');
  assert.equal(failReasonFailure('video_pull_failed', NOW).category, 'media_rejected');
  assert.equal(failReasonFailure('internal', NOW).category, 'platform_unavailable');
  assert.equal(failReasonFailure('auth_removed', NOW).category, 'auth_expired');
  assert.equal(failReasonFailure('spam_risk_too_many_posts', NOW).category, 'quota_exceeded');
  assert.equal(failReasonFailure('publish_cancelled', NOW).platformCode, 'publish_cancelled');
});

test('an answer that is not TikTok\'s JSON falls back on the status', () => {
  const f = answeredFailure({ sent: true, status: 502, headers: new Headers(), body: '<html>Bad Gateway</html>', text: '<html>Bad Gateway</html>' }, NOW);
  assert.equal(f.category, 'platform_unavailable');
  assert.equal(f.message, 'TikTok is unavailable: HTTP 502');
});

test('no answer: creating calls are unknown, everything else unavailable', () => {
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, true).category, 'outcome_unknown');
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, false).category, 'platform_unavailable');
  assert.equal(unansweredFailure({ sent: false, error: 'ECONNREFUSED' }, true).category, 'platform_unavailable');
});

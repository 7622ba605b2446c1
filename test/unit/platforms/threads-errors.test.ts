import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResult } from '../../../src/platforms/http.ts';
import {
  codeExchangeFailure,
  containerErrorFailure,
  containerExpiredFailure,
  refreshFailure,
  threadsFailure,
} from '../../../src/platforms/threads/errors.ts';

const NOW = 1_795_000_000_000;

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { sent: true, status, headers: new Headers(headers), body, text: JSON.stringify(body) };
}

// Shapes as Graph sends them (Graph API "Handling Errors"; the THApiException body as reported against graph.threads.net).
const expired = {
  error: {
    message: 'Error validating access token: Session has expired on Friday, 20-Nov-26 10:00:00 PST.',
    type: 'OAuthException',
    code: 190,
    error_subcode: 463,
    fbtrace_id: 'AbCdEf',
  },
};
const missingObject = {
  error: {
    message: "Unsupported get request. Object with ID '1234567' does not exist, cannot be loaded due to missing permissions, or does not support this operation",
    type: 'THApiException',
    code: 100,
    error_subcode: 33,
    fbtrace_id: 'abcdefg',
  },
};

test('an expired token is auth_expired, with the Graph code kept for logs', () => {
  const f = threadsFailure(answer(400, expired), NOW, 'Threads publish');
  assert.equal(f.category, 'auth_expired');
  assert.equal(f.platformCode, '190/463');
  assert.equal(f.httpStatus, 400);
  assert.match(f.message, /^Threads publish: Error validating access token/);
});

test('invalid parameters, permissions, throttles and outages map to their categories', () => {
  assert.equal(threadsFailure(answer(400, missingObject), NOW, 'x').category, 'content_rejected');
  const permission = { error: { message: '(#10) Application does not have permission for this action', type: 'THApiException', code: 10 } };
  assert.equal(threadsFailure(answer(403, permission), NOW, 'x').category, 'permission_missing');
  const outage = { error: { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true } };
  assert.equal(threadsFailure(answer(500, outage), NOW, 'x').category, 'platform_unavailable');
});

test('a throttle carries retryAt, from X-Business-Use-Case-Usage when present', () => {
  const throttle = { error: { message: 'Application request limit reached', type: 'OAuthException', code: 4 } };
  const usage = JSON.stringify({ '1234': [{ type: 'threads', call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: 3 }] });
  const withHeader = threadsFailure(answer(400, throttle, { 'x-business-use-case-usage': usage }), NOW, 'x');
  assert.equal(withHeader.category, 'rate_limited');
  assert.equal(withHeader.retryAt, NOW + 3 * 60_000);
  const without = threadsFailure(answer(400, throttle), NOW, 'x');
  assert.equal(without.category, 'rate_limited');
  assert.ok(without.retryAt! > NOW);
});

test('the documented link-limit error reads as a content refusal with a plain message', () => {
  const body = { error: { message: 'THREADS_API__LINK_LIMIT_EXCEEDED', type: 'THApiException', code: 100, fbtrace_id: 'x' } };
  const f = threadsFailure(answer(400, body), NOW, 'Threads container');
  assert.equal(f.category, 'content_rejected');
  assert.match(f.message, /at most 5 links/);
});

test('a lost answer is an outage for safe calls and unknown only for threads_publish', () => {
  const lost: HttpResult = { sent: 'unknown', error: 'timed out waiting for the platform' };
  assert.equal(threadsFailure(lost, NOW, 'Threads container').category, 'platform_unavailable');
  assert.equal(threadsFailure(lost, NOW, 'Threads publish', 'publish').category, 'outcome_unknown');
  const refused: HttpResult = { sent: false, error: 'could not reach the platform (ECONNREFUSED)' };
  assert.equal(threadsFailure(refused, NOW, 'Threads publish', 'publish').category, 'platform_unavailable');
});

test('a refused authorization code is an unusable grant, not a content problem', () => {
  const used = { error: { message: 'This authorization code has been used.', type: 'OAuthException', code: 100, fbtrace_id: 'x' } };
  assert.equal(codeExchangeFailure(answer(400, used), NOW).category, 'auth_expired');
  const outage = { error: { message: 'Service temporarily unavailable', type: 'OAuthException', code: 2 } };
  assert.equal(codeExchangeFailure(answer(503, outage), NOW).category, 'platform_unavailable');
});

test('refresh: a dead token means reconnect; other refusals mean try later', () => {
  assert.equal(refreshFailure(answer(400, expired), NOW).category, 'auth_expired');
  const tooNew = { error: { message: 'The token is too new to be refreshed', type: 'THApiException', code: 100 } };
  assert.equal(refreshFailure(answer(400, tooNew), NOW).category, 'platform_unavailable');
});

test('container errors are media refusals naming the documented reason', () => {
  const f = containerErrorFailure('INVALID_DURATION');
  assert.equal(f.category, 'media_rejected');
  assert.equal(f.platformCode, 'INVALID_DURATION');
  assert.match(f.message, /duration/);
  assert.equal(containerErrorFailure(undefined).platformCode, 'UNKNOWN');
  assert.equal(containerErrorFailure('SOMETHING_NEW').category, 'media_rejected');
  assert.equal(containerExpiredFailure().category, 'platform_unavailable');
});

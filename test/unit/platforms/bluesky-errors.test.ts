// Bluesky's XRPC errors → failure categories: every body recorded from the real PDS
// (docs/internal/bluesky-pds.md), rate limits with the PDS's own reset, and a 404 that is never a token problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rateLimitReset, transportFailure, xrpcFailure } from '../../../src/platforms/bluesky/errors.ts';

const NOW = 1_800_000_000_000;
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  sent: true as const,
  status,
  headers: new Headers(headers),
  body,
  text: JSON.stringify(body),
});
const category = (status: number, error: string, message: string) => xrpcFailure(answer(status, { error, message }), NOW, 'Bluesky refused').category;

test('the PDS answers, category by category', () => {
  const table: [number, string, string, string][] = [
    [401, 'AuthenticationRequired', 'Invalid identifier or password', 'auth_expired'],
    [401, 'AuthMissing', 'Authentication Required', 'auth_expired'],
    [400, 'ExpiredToken', 'Token has expired', 'auth_expired'],
    [400, 'ExpiredToken', 'Token has been revoked', 'auth_expired'],
    [400, 'InvalidToken', 'Token could not be verified', 'auth_expired'],
    [400, 'InvalidToken', 'Bad token scope', 'permission_missing'],
    [401, 'AccountTakedown', 'Account has been taken down', 'permission_missing'],
    [403, 'AccountNotFound', 'Account not found', 'auth_expired'],
    [400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text', 'content_rejected'],
    [400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: blob too big (maximum 2000000, got 2000001) at $.record.embed.images[0].image', 'media_rejected'],
    [400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: Expected "video/mp4" (got "text/plain") at $.record.embed.video.mimeType', 'media_rejected'],
    [400, 'BlobNotFound', 'Could not find blob: bafkrei…', 'media_rejected'],
    [400, 'InvalidMimeType', 'Referenced Mimetype does not match stored blob. Expected: text/plain, Got: image/png', 'media_rejected'],
    [413, 'PayloadTooLarge', 'request entity too large', 'media_rejected'],
    [400, 'InvalidRequest', 'Invalid record key (got "not a tid!") at $.rkey', 'content_rejected'],
    [500, 'InternalServerError', 'Internal Server Error', 'platform_unavailable'],
    [502, 'UpstreamFailure', 'Upstream Failure', 'platform_unavailable'],
    [503, 'NotEnoughResources', 'Not Enough Resources', 'platform_unavailable'],
  ];
  for (const [status, error, message, expected] of table) assert.equal(category(status, error, message), expected, `${status} ${error}: ${message}`);
});

test('a 404 from a route (a URL that is not a PDS) is never auth_expired', () => {
  assert.equal(xrpcFailure(answer(404, 'Cannot POST /xrpc/com.atproto.repo.createRecord'), NOW, 'x').category, 'platform_unavailable');
  assert.equal(xrpcFailure(answer(404, { error: 'NotFound', message: 'Not Found' }), NOW, 'x').category, 'platform_unavailable');
});

test('messages keep the platform text and say what was refused; the platform code and status come along', () => {
  const f = xrpcFailure(answer(400, { error: 'InvalidRequest', message: 'Invalid language (got "xx yy") at $.record.langs[0]' }), NOW, 'Bluesky refused the post');
  assert.equal(f.message, 'Bluesky refused the post (HTTP 400 InvalidRequest: Invalid language (got "xx yy") at $.record.langs[0])');
  assert.equal(f.platformCode, 'InvalidRequest');
  assert.equal(f.httpStatus, 400);
  assert.equal(xrpcFailure(answer(500, undefined), NOW, 'x').platformCode, 'InternalServerError');
});

test('429: retryAt from ratelimit-reset (epoch seconds); a day-long window is a quota until its reset', () => {
  const reset = String(NOW / 1000 + 120);
  const short = xrpcFailure(answer(429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }, { 'ratelimit-reset': reset, 'ratelimit-policy': '3000;w=300', 'retry-after': '120' }), NOW, 'x');
  assert.equal(short.category, 'rate_limited');
  assert.equal(short.retryAt, NOW + 120_000);
  const daily = xrpcFailure(answer(429, { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' }, { 'ratelimit-reset': String(NOW / 1000 + 50_000), 'ratelimit-policy': '35000;w=86400' }), NOW, 'x');
  assert.equal(daily.category, 'quota_exceeded');
  assert.equal(daily.retryAt, NOW + 50_000_000);
});

test('429 resets: retry-after when there is no ratelimit-reset (PDS 0.4 sent neither: five minutes)', () => {
  assert.deepEqual(rateLimitReset(new Headers({ 'retry-after': '7' }), NOW), { retryAt: NOW + 7000, daily: false });
  assert.deepEqual(rateLimitReset(new Headers(), NOW), { retryAt: NOW + 300_000, daily: false });
  // A reset already past falls back to retry-after.
  assert.deepEqual(rateLimitReset(new Headers({ 'ratelimit-reset': String(NOW / 1000 - 5), 'retry-after': '3' }), NOW), { retryAt: NOW + 3000, daily: false });
});

test('no answer: a create that may have happened is outcome_unknown; anything else is platform_unavailable', () => {
  assert.equal(transportFailure({ sent: 'unknown', error: 'timed out' }, 'x', true).category, 'outcome_unknown');
  assert.equal(transportFailure({ sent: 'unknown', error: 'timed out' }, 'x', false).category, 'platform_unavailable');
  assert.equal(transportFailure({ sent: false, error: 'refused' }, 'x', true).category, 'platform_unavailable');
});

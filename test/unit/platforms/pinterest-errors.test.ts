// Pinterest's {code, message} error answers → Herald's failure categories (§9.11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answeredFailure, parseError, pinterestCategory, retryAfterAt, scrub, unansweredFailure } from '../../../src/platforms/pinterest/errors.ts';

const NOW = 1_800_000_000_000;
const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({ sent: true as const, status, headers: new Headers(headers), body, text: JSON.stringify(body) });

test('the envelope is {code, message}, sometimes with status: failure', () => {
  assert.deepEqual(parseError({ code: 2, message: 'Authentication failed.', status: 'failure' }), { code: 2, message: 'Authentication failed.' });
  assert.equal(parseError('<html>502</html>'), null);
  assert.equal(parseError({ items: [] }), null);
});

const table: Array<[number, number | null, string, string]> = [
  [401, 2, 'Authentication failed.', 'auth_expired'],
  [401, 283, 'The authorization grant is invalid', 'auth_expired'],
  [401, 3, 'Your token does not have sufficient permissions to perform this operation.', 'permission_missing'],
  [403, 29, 'You are not permitted to access that resource.', 'permission_missing'],
  [403, 233, 'Image too small', 'media_rejected'],
  [403, 235, 'Image broken', 'media_rejected'],
  [400, 1, 'Invalid request: title is longer than 100 characters', 'content_rejected'],
  [400, 1, 'Invalid request: Sorry, we could not fetch the image from that URL', 'media_rejected'],
  [404, 40, 'Board not found.', 'content_rejected'],
  [404, 2031, "Sorry! We couldn't find this board section.", 'content_rejected'],
  [404, 50, 'Pin not found.', 'platform_unavailable'],
  [404, null, '', 'platform_unavailable'],
  [429, 8, 'This request exceeded a rate limit.', 'rate_limited'],
  [429, 8, 'Your account has been blocked for spam.', 'quota_exceeded'],
  [500, 12, 'Something went wrong on our end. Sorry about that.', 'platform_unavailable'],
  [503, null, '', 'platform_unavailable'],
];

for (const [status, code, message, category] of table) {
  test(`HTTP ${status} code ${code} → ${category}`, () => {
    assert.equal(pinterestCategory(status, code === null && !message ? null : { code, message }), category);
  });
}

test('a 404 is never auth_expired, whatever it says', () => {
  for (const code of [2, 3, 40, 50, 404, null]) {
    assert.notEqual(pinterestCategory(404, { code, message: 'Not found.' }), 'auth_expired');
  }
});

test('429 code 8: retryAt from Retry-After (seconds or date), else a minute', () => {
  const limited = answeredFailure(answer(429, { code: 8, message: 'This request exceeded a rate limit.' }, { 'retry-after': '17' }), NOW);
  assert.equal(limited.category, 'rate_limited');
  assert.equal(limited.retryAt, NOW + 17_000);
  assert.equal(limited.platformCode, '8');
  assert.equal(limited.httpStatus, 429);
  const noHeader = answeredFailure(answer(429, { code: 8, message: 'This request exceeded a rate limit.' }), NOW);
  assert.equal(noHeader.retryAt, NOW + 60_000);
  assert.equal(retryAfterAt(new Headers({ 'retry-after': new Date(NOW + 90_000).toUTCString() }), NOW), NOW + 90_000);
  assert.equal(retryAfterAt(new Headers({ 'retry-after': 'soon' }), NOW), undefined);
});

test('a spam or daily block is quota_exceeded, retried a day later unless Pinterest says when', () => {
  const spam = answeredFailure(answer(429, { code: 8, message: 'Your request was blocked for spam.' }), NOW);
  assert.equal(spam.category, 'quota_exceeded');
  assert.equal(spam.retryAt, NOW + 24 * 3600_000);
  const daily = answeredFailure(answer(429, { code: 8, message: 'Trial access: daily request limit reached.' }, { 'retry-after': '3600' }), NOW);
  assert.equal(daily.category, 'quota_exceeded');
  assert.equal(daily.retryAt, NOW + 3600_000);
});

test('messages carry Pinterest\'s text and code, never a token', () => {
  const f = answeredFailure(answer(400, { code: 1, message: 'Invalid request: bad token pina_AbCdEfGhIjKlMnOp' }), NOW, { doing: 'creating the Pin' });
  assert.equal(f.message, 'Pinterest rejected the Pin while creating the Pin: Invalid request: bad token [token] (code 1)');
  assert.equal(scrub('refresh pinr.eyJhbGciOiJIUzI1NiJ9.x here'), 'refresh [token] here');
});

test('no answer: a Pin create is outcome_unknown, anything else platform_unavailable', () => {
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, true).category, 'outcome_unknown');
  assert.equal(unansweredFailure({ sent: 'unknown', error: 'timed out' }, false).category, 'platform_unavailable');
  assert.equal(unansweredFailure({ sent: false, error: 'ECONNREFUSED' }, true).category, 'platform_unavailable');
});

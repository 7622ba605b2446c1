import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResult } from '../../../src/platforms/http.ts';
import {
  DEFAULT_QUOTA_WAIT_MS,
  DEFAULT_THROTTLE_WAIT_MS,
  graphFailure,
  graphOk,
  parseGraphError,
  regainAccessAt,
} from '../../../src/platforms/meta/graph-errors.ts';

const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return { sent: true, status, headers: new Headers(headers), body, text: JSON.stringify(body) };
}

// Envelopes in the shape Meta documents: {"error":{"message","type","code","error_subcode","fbtrace_id"}}
function envelope(code: number, subcode?: number, message = 'message from Meta', extra: Record<string, unknown> = {}) {
  return {
    error: { message, type: 'OAuthException', code, ...(subcode !== undefined ? { error_subcode: subcode } : {}), fbtrace_id: 'AbC123', ...extra },
  };
}

const cases: Array<{ name: string; status: number; code: number; subcode?: number; category: string }> = [
  { name: 'expired session 190/463', status: 400, code: 190, subcode: 463, category: 'auth_expired' },
  { name: 'password changed 190/460', status: 400, code: 190, subcode: 460, category: 'auth_expired' },
  { name: 'session invalid 102', status: 400, code: 102, category: 'auth_expired' },
  { name: 'no token 104', status: 400, code: 104, category: 'auth_expired' },
  { name: 'permission denied 10', status: 403, code: 10, category: 'permission_missing' },
  { name: 'missing permission 200', status: 403, code: 200, category: 'permission_missing' },
  { name: 'invalid parameter 100', status: 400, code: 100, category: 'content_rejected' },
  { name: 'policy block 368', status: 400, code: 368, category: 'content_rejected' },
  { name: 'duplicate post 506', status: 400, code: 506, category: 'content_rejected' },
  { name: 'IG daily publishing limit 9/2207042', status: 400, code: 9, subcode: 2207042, category: 'quota_exceeded' },
  { name: 'IG container not ready 9007/2207027', status: 400, code: 9007, subcode: 2207027, category: 'platform_unavailable' },
  { name: 'IG unsupported video 2207026', status: 400, code: 352, subcode: 2207026, category: 'media_rejected' },
  { name: 'unknown error 1', status: 500, code: 1, category: 'platform_unavailable' },
  { name: 'service error 2', status: 503, code: 2, category: 'platform_unavailable' },
];

for (const c of cases) {
  test(`Graph ${c.name} → ${c.category}`, () => {
    const f = graphFailure(answer(c.status, envelope(c.code, c.subcode)), NOW, 'Facebook feed');
    assert.equal(f.category, c.category);
    assert.equal(f.httpStatus, c.status);
    assert.equal(f.platformCode, c.subcode !== undefined ? `${c.code}/${c.subcode}` : String(c.code));
    assert.match(f.message, /^Facebook feed: message from Meta/);
  });
}

for (const code of [4, 17, 32, 613, 80001, 80002]) {
  test(`throttle code ${code} → rate_limited with retryAt from X-Business-Use-Case-Usage`, () => {
    const usage = JSON.stringify({
      '1234567890': [{ type: 'pages', call_count: 100, total_cputime: 20, total_time: 30, estimated_time_to_regain_access: 7 }],
      '17841400000000000': [{ type: 'instagram', call_count: 95, total_cputime: 5, total_time: 5, estimated_time_to_regain_access: 3 }],
    });
    const f = graphFailure(answer(400, envelope(code), { 'X-Business-Use-Case-Usage': usage }), NOW, 'Graph');
    assert.equal(f.category, 'rate_limited');
    assert.equal(f.retryAt, NOW + 7 * 60_000, 'the longest wait among the business use cases wins');
  });
}

test('a throttle without the header waits the default time', () => {
  const f = graphFailure(answer(400, envelope(32)), NOW, 'Graph');
  assert.equal(f.category, 'rate_limited');
  assert.equal(f.retryAt, NOW + DEFAULT_THROTTLE_WAIT_MS);
});

test('a used-up publishing quota retries after the default quota wait', () => {
  const f = graphFailure(answer(400, envelope(9, 2207042)), NOW, 'Instagram media_publish');
  assert.equal(f.retryAt, NOW + DEFAULT_QUOTA_WAIT_MS);
});

test('is_transient marks an otherwise unknown code as retryable', () => {
  const f = graphFailure(answer(400, envelope(12345, undefined, 'hiccup', { is_transient: true })), NOW, 'Graph');
  assert.equal(f.category, 'platform_unavailable');
});

test('5xx without an envelope is platform_unavailable; 429 without one is rate_limited', () => {
  const f = graphFailure(answer(502, '<html>Bad Gateway</html>'), NOW, 'Graph');
  assert.equal(f.category, 'platform_unavailable');
  assert.equal(f.httpStatus, 502);
  const t = graphFailure(answer(429, ''), NOW, 'Graph');
  assert.equal(t.category, 'rate_limited');
  assert.ok(t.retryAt && t.retryAt > NOW);
});

test('not sent is platform_unavailable; sent but unanswered is outcome_unknown', () => {
  assert.equal(graphFailure({ sent: false, error: 'could not reach the platform (ECONNREFUSED)' }, NOW, 'Graph').category, 'platform_unavailable');
  assert.equal(graphFailure({ sent: 'unknown', error: 'timed out waiting for the platform' }, NOW, 'Graph').category, 'outcome_unknown');
});

test('error_user_msg is added to the message when it says more', () => {
  const f = graphFailure(answer(400, envelope(368, 1390008, 'Temporarily blocked', { error_user_msg: 'You are posting too fast' })), NOW, 'Facebook feed');
  assert.equal(f.category, 'rate_limited');
  assert.match(f.message, /Temporarily blocked \(You are posting too fast\)/);
});

test('parseGraphError reads string codes and ignores bodies without an envelope', () => {
  assert.deepEqual(parseGraphError({ error: { message: 'x', code: '190', error_subcode: '463' } })?.error_subcode, 463);
  assert.equal(parseGraphError({ data: [] }), null);
  assert.equal(parseGraphError('text'), null);
});

test('graphOk needs a 2xx and no envelope', () => {
  assert.equal(graphOk(answer(200, { id: '1' })), true);
  assert.equal(graphOk(answer(200, envelope(100))), false);
  assert.equal(graphOk(answer(400, { id: '1' })), false);
});

test('regainAccessAt ignores malformed headers', () => {
  assert.equal(regainAccessAt(new Headers({ 'x-business-use-case-usage': 'not json' }), NOW), undefined);
  assert.equal(regainAccessAt(undefined, NOW), undefined);
});

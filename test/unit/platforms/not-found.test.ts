// A 404 is never an expired token, on any platform: it names a route the host does not have (a wrong API
// URL; a worker calling its own port for a sandbox it does not serve) or a resource that is gone. Read as
// auth_expired, it would mark a healthy account `needs_reconnect` (the operator trial of issue 20).
import { readdirSync, existsSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HttpResult } from '../../../src/platforms/http.ts';
import type { PlatformFailure } from '../../../src/platforms/types.ts';
import { xFailure } from '../../../src/platforms/twitter/errors.ts';
import { linkedInFailure } from '../../../src/platforms/linkedin/errors.ts';
import { graphFailure } from '../../../src/platforms/meta/graph-errors.ts';
import { codeExchangeFailure, refreshFailure, threadsFailure } from '../../../src/platforms/threads/errors.ts';
import { answeredFailure as tiktokFailure } from '../../../src/platforms/tiktok/errors.ts';
import { answeredFailure as youtubeFailure } from '../../../src/platforms/youtube/errors.ts';
import { answeredFailure as pinterestFailure } from '../../../src/platforms/pinterest/errors.ts';
import { xrpcFailure } from '../../../src/platforms/bluesky/errors.ts';
import { answeredFailure as mastodonFailure } from '../../../src/platforms/mastodon/errors.ts';

const NOW = Date.parse('2026-11-22T10:00:00Z');

/** Every error mapping, by the folder its errors.ts lives in (meta serves facebook and instagram). */
const MAPPINGS: Record<string, ((res: Extract<HttpResult, { sent: true }>) => PlatformFailure)[]> = {
  twitter: [(r) => xFailure(r, NOW, 'X post', { creates: true })],
  linkedin: [(r) => linkedInFailure(r, NOW, 'LinkedIn post', { creates: true })],
  meta: [(r) => graphFailure(r, NOW, 'Facebook post')],
  threads: [(r) => threadsFailure(r, NOW, 'Threads publish', 'publish'), (r) => codeExchangeFailure(r, NOW), (r) => refreshFailure(r, NOW)],
  tiktok: [(r) => tiktokFailure(r, NOW)],
  youtube: [(r) => youtubeFailure(r, NOW)],
  pinterest: [(r) => pinterestFailure(r, NOW)],
  bluesky: [(r) => xrpcFailure(r, NOW, 'Bluesky refused the post')],
  mastodon: [(r) => mastodonFailure(r, NOW, { label: 'Mastodon refused the status' }), (r) => mastodonFailure(r, NOW, { label: 'Mastodon token', media: false })],
};

const BODIES: Record<string, unknown> = {
  // What Herald itself answers for a route it does not have (a worker calling its own port).
  'Herald route not found': { error: 'Route POST:/sandbox/twitter/2/tweets not found', code: 'NOT_FOUND' },
  'a bare OAuth error': { error: 'invalid_grant', error_description: 'Token was invalid' },
  'an OAuth invalid_request': { error: 'invalid_request' },
  'a Graph envelope with code 190': { error: { message: 'Invalid OAuth access token', type: 'OAuthException', code: 190 } },
  'Google UNAUTHENTICATED': { error: { code: 404, message: 'nope', status: 'UNAUTHENTICATED', errors: [{ reason: 'authError' }] } },
  'an XRPC ExpiredToken': { error: 'ExpiredToken', message: 'Token has expired' },
  'an HTML page': 'Cannot POST /2/tweets',
  'no body': undefined,
};

test('every platform folder with an error mapping is covered here', () => {
  const root = new URL('../../../src/platforms/', import.meta.url);
  const withErrors = readdirSync(root).filter((d) => existsSync(new URL(`${d}/errors.ts`, root)) || existsSync(new URL(`${d}/graph-errors.ts`, root)));
  assert.deepEqual(withErrors.sort(), Object.keys(MAPPINGS).sort());
});

for (const [platform, mappings] of Object.entries(MAPPINGS)) {
  test(`${platform}: a 404 is never auth_expired, whatever its body`, () => {
    for (const [what, body] of Object.entries(BODIES)) {
      const res = { sent: true as const, status: 404, headers: new Headers(), body, text: typeof body === 'string' ? body : JSON.stringify(body ?? '') };
      for (const map of mappings) {
        const f = map(res);
        assert.notEqual(f.category, 'auth_expired', `${platform}, ${what}: ${f.message}`);
      }
    }
  });
}

test('the same bodies with 401 still mean an expired token where the platform says so', () => {
  const res = { sent: true as const, status: 401, headers: new Headers(), body: { error: 'invalid_grant' }, text: '' };
  assert.equal(xFailure(res, NOW, 'X token').category, 'auth_expired');
  assert.equal(linkedInFailure(res, NOW, 'LinkedIn token').category, 'auth_expired');
  const graph = { ...res, body: { error: { message: 'Invalid OAuth access token', type: 'OAuthException', code: 190 } } };
  assert.equal(graphFailure(graph, NOW, 'Facebook post').category, 'auth_expired');
});

// Connecting the same account twice at once (a double click, two tabs) ends with one account row,
// never a 500 from the second insert.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { approveConsent } from '../helpers/platform.ts';

let w: World;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('eight simultaneous connections of one account: all succeed, one account', async () => {
  // Consent first, so the eight code exchanges reach Herald together.
  const grants = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const start = await w.h.request('GET', `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}`);
      return approveConsent(start.body.authUrl, { sandbox_user: 'twice' });
    }),
  );
  const results = await Promise.all(grants.map(({ code, state }) => w.h.request('POST', '/v1/connect/twitter', { body: { code, state, redirect_url: CALLBACK } })));
  assert.deepEqual(results.map((r) => r.status), Array(8).fill(200), results.map((r) => r.text).join('\n'));
  assert.equal(new Set(results.map((r) => r.body.accountId)).size, 1);
  const list = await w.h.request('GET', '/v1/accounts?platform=twitter');
  assert.equal(list.body.accounts.filter((a: { accountId: string }) => a.accountId === results[0]!.body.accountId).length, 1);
});

// What operators see: logs that carry request and post ids and never a secret, and tokens refreshed
// ahead of expiry by the worker even for accounts that are not publishing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openCredentials } from '../../src/accounts/credentials.ts';
import { connectAccount } from '../helpers/connect.ts';
import { calls, publishNow, startWorld, type World } from '../helpers/e2e.ts';

const lines: string[] = [];
let w: World;

before(async () => {
  w = await startWorld({ logTo: { level: 'debug', write: (line) => void lines.push(line) } });
});
after(() => w.close());

test('logs carry request and post ids, and no key, token or secret', async () => {
  const x = await connectAccount(w.h, 'twitter', { sandbox_user: 'logged' });
  const post = await publishNow(w.h, { content: `logged ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: x.accountId }] });
  assert.equal(post.status, 'published');
  await w.h.request('GET', '/v1/posts', { key: 'hk_wrong_key_000000000000000000000000000000000' });

  const row = await w.h.runtime.db.writable.selectFrom('accounts').selectAll().where('account_id', '=', x.accountId).executeTakeFirstOrThrow();
  const creds = openCredentials(w.h.runtime.box, row);
  const secrets = [w.h.key, creds.accessToken, creds.refreshToken!, 'herald-sandbox-secret'];
  const all = lines.join('');
  for (const secret of secrets) assert.equal(all.includes(secret), false, `a secret reached the logs: ${secret.slice(0, 6)}…`);

  const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(parsed.some((l) => typeof l.reqId === 'string' && (l.req as { url?: string } | undefined)?.url === '/v1/posts'), 'request logs name their request');
  assert.ok(parsed.some((l) => l.postId === post.id && l.msg === 'publish attempt finished'), 'publishing logs name the post');
  const auth = parsed.find((l) => (l.req as { headers?: { authorization?: string } } | undefined)?.headers?.authorization);
  assert.ok(!auth || (auth.req as { headers: { authorization: string } }).headers.authorization === '[redacted]');
});

test('tokens nearing expiry are refreshed by the worker without any publishing', async () => {
  const x = await connectAccount(w.h, 'twitter', { sandbox_user: 'idle' });
  const db = w.h.runtime.db.writable;
  const before = await db.selectFrom('accounts').selectAll().where('account_id', '=', x.accountId).executeTakeFirstOrThrow();
  // As if its two-hour token had two minutes left (X tokens are refreshed within five minutes of expiry).
  await db.updateTable('accounts').set({ token_expires_at: Date.now() + 120_000 }).where('id', '=', before.id).execute();
  const refreshes = calls(w.emu('twitter'), 'POST', '/2/oauth2/token');
  assert.ok((await w.h.runtime.credentials.refreshDue()) >= 1);
  const after = await db.selectFrom('accounts').selectAll().where('id', '=', before.id).executeTakeFirstOrThrow();
  assert.equal(calls(w.emu('twitter'), 'POST', '/2/oauth2/token'), refreshes + 1);
  assert.notEqual(after.access_token, before.access_token);
  assert.ok(after.token_expires_at! > Date.now() + 60 * 60_000, 'a fresh two-hour token');
  assert.equal(after.status, 'active');
});

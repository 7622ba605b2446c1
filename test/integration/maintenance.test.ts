// The hourly clean-up: what can no longer be used is dropped, what still can is kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { testClock } from '../helpers/clock.ts';
import { CALLBACK } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { usingPostgres } from '../helpers/herald.ts';

const clock = testClock();
let w: World;
before(async () => {
  w = await startWorld({ clock });
});
after(() => w.close());

const count = async (table: 'oauth_states' | 'idempotency_keys') =>
  Number((await w.h.runtime.db.writable.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

test('expired OAuth states and idempotency keys are purged; live ones stay', async () => {
  const start = () => w.h.request('GET', `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}`);
  const draft = () => w.h.request('POST', '/v1/posts', { body: { content: 'draft', isDraft: true }, headers: { 'idempotency-key': randomUUID() } });
  assert.equal((await start()).status, 200);
  assert.equal((await draft()).status, 201);
  clock.advance(25 * 60 * 60_000);
  assert.equal((await start()).status, 200);
  assert.equal((await draft()).status, 201);
  assert.equal(await count('oauth_states'), 2);
  assert.equal(await count('idempotency_keys'), 2);

  await w.h.runtime.maintenance();
  assert.equal(await count('oauth_states'), 1, 'the state started 25 h ago is gone, the fresh one stays');
  assert.equal(await count('idempotency_keys'), 1, 'the key used 25 h ago is gone, the fresh one stays');
});

test('rate-limit windows that ended over an hour ago are purged from PostgreSQL', { skip: !usingPostgres && 'the embedded database keeps limits in memory' }, async () => {
  const db = w.h.runtime.db.writable;
  await sql`INSERT INTO herald_rate_limits (key, points, expire) VALUES ('stale', 1, ${Date.now() - 2 * 60 * 60_000}), ('live', 1, ${Date.now() + 60_000})`.execute(db);
  await w.h.runtime.maintenance();
  const keys = (await sql<{ key: string }>`SELECT key FROM herald_rate_limits WHERE key IN ('stale', 'live')`.execute(db)).rows.map((r) => r.key);
  assert.deepEqual(keys, ['live']);
});

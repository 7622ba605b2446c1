// The built-in sandbox with split roles: a worker process has no emulators of its own and publishes
// through the API process's, at HERALD_PUBLIC_URL (docs/operations.md, "The sandbox").
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { laggingClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { posted, waitFinal } from '../helpers/e2e.ts';
import { createTestDatabase, startHerald, type TestHerald } from '../helpers/herald.ts';

const heralds: TestHerald[] = [];
const database = await createTestDatabase();
after(async () => {
  for (const h of heralds.reverse()) await h.close();
  await database.drop();
});

test('a scheduled post is published by a worker through the API process’s sandbox', async () => {
  // The API's clock lags, so the post due in 1.5 s is still in the future when its create arrives
  // however late (test/helpers/clock.ts); the worker runs on real time.
  const api = await startHerald({ role: 'api', database, clock: laggingClock() });
  heralds.push(api);
  const worker = await startHerald({ role: 'worker', database, env: { HERALD_PUBLIC_URL: api.url } });
  heralds.push(worker);
  assert.equal(worker.runtime.emulators.length, 0, 'the worker holds no emulators');

  const { accountId } = await connectAccount(api, 'twitter', { sandbox_user: 'split' });
  const content = `split roles ${Date.now()}`;
  const created = await api.request('POST', '/v1/posts', {
    body: { content, scheduledFor: new Date(Date.now() + 1_500).toISOString(), platforms: [{ platform: 'twitter', accountId }] },
  });
  assert.equal(created.status, 201, created.text);
  const done = await waitFinal(api, created.body.id);
  assert.equal(done.status, 'published', JSON.stringify(done));
  const x = api.runtime.emulators.find((e) => e.name === 'twitter')!;
  assert.equal(posted(x, { text: content }).length, 1);
});

// Idempotency-Key claims hold a short lease (the publish lease) renewed while their request runs: a
// request that takes many leases to answer keeps its key (replays get 409, nobody takes it over), and its
// answer is then replayed; a request whose process stopped renewing (it died) lets its key go within a
// lease (see faults/idempotency.test.ts and crash/scale-out.test.ts).
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { gate, until } from '../helpers/wait.ts';

let w: World;
// Leases of 600 ms: the request below outlives many of them.
before(async () => {
  w = await startWorld({ leaseMs: 600 });
});
after(() => w.close());

test('a publishNow running for many leases keeps its key: replays meanwhile get 409, then its answer', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'long_request' });
  const adapter = w.h.runtime.adapters.twitter;
  const realPublish = adapter.publish;
  const release = gate();
  adapter.publish = async (request) => {
    await release.opened;
    return realPublish.call(adapter, request);
  };
  try {
    const key = randomUUID();
    const body = { content: `long request ${Date.now()}`, publishNow: true, platforms: [{ platform: 'twitter', accountId }] };
    const send = () => w.h.request('POST', '/v1/posts', { body, headers: { 'idempotency-key': key } });
    const first = send();
    const claim = () => w.h.runtime.db.writable.selectFrom('idempotency_keys').select(['locked_until', 'state']).where('key', '=', key).executeTakeFirst();
    const initial = await until('the key to be claimed', claim);
    // Renewed over and over: without renewal the claim would have lapsed several times by now.
    await until('the claim to be renewed well past its first lease', async () => ((await claim())?.locked_until ?? 0) > initial.locked_until + 1_800);
    const meanwhile = await send();
    assert.equal(meanwhile.status, 409, meanwhile.text);
    assert.equal(meanwhile.body.code, 'idempotency_key_in_use');
    release.open();
    const answer = await first;
    assert.equal(answer.status, 201, answer.text);
    const replay = await send();
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, answer.body.id);
  } finally {
    adapter.publish = realPublish;
    release.open();
  }
});

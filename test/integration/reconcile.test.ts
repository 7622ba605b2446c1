// Unknown outcomes stay unknown until the platform answers: whatever happens meanwhile (failed askings,
// a disconnected account, the caller's retry), nothing is sent again without asking first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { gate, until } from '../helpers/wait.ts';

let w: World;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('a retry of an outcome_unknown target asks first and finds the post instead of posting again', async () => {
  const x = w.emu('twitter');
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'unsure' });
  x.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets', count: 1 });
  // The timeline is down while Herald asks: it cannot tell, and gives up honestly.
  const down = x.faults.add({ kind: 'server_error', method: 'GET', path: '/tweets', forever: true });
  const content = `unsure ${Date.now()}`;
  const first = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  const failed = await waitFinal(w.h, first.id);
  assert.equal(failed.platforms[0].errorCode, 'outcome_unknown');
  assert.equal(posted(x, { text: content }).length, 1, 'X did get it');
  void down;
  x.faults.clear();

  const retried = await w.h.request('POST', `/v1/posts/${first.id}/retry`);
  assert.equal(retried.status, 200, retried.text);
  assert.equal(retried.body.status, 'published');
  assert.equal(posted(x, { text: content }).length, 1, 'the retry found the post rather than sending it again');
  assert.equal(retried.body.platforms[0].platformPostId, posted(x, { text: content })[0]!.id);
});

test('an account disconnected while the outcome is unknown: after reconnecting, the retry still asks first', async () => {
  // publishNow answers at once here, so the account can be removed while the call hangs.
  const w2 = await startWorld({ env: { HERALD_PUBLISH_WAIT_MS: '0' } });
  try {
    const x = w2.emu('twitter');
    const { accountId } = await connectAccount(w2.h, 'twitter', { sandbox_user: 'leaver' });
    x.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets', count: 1 });
    // The account goes away while X holds the call: once X has made the post, before Herald has its
    // outcome. The attempt is held until the account is gone, so that Herald cannot give up on the call
    // and ask X (with the account still there) first, however slowly the deletion goes through.
    const adapter = w2.h.runtime.adapters.twitter;
    const realPublish = adapter.publish;
    const gone = gate();
    adapter.publish = async (request) => {
      const outcome = await realPublish.call(adapter, request);
      await gone.opened;
      return outcome;
    };
    const content = `leaving ${Date.now()}`;
    let first;
    try {
      first = await publishNow(w2.h, { content, platforms: [{ platform: 'twitter', accountId }] });
      await until('X to have made the post it holds the answer of', () => posted(x, { text: content }).length > 0);
      assert.equal((await w2.h.request('DELETE', `/v1/accounts/twitter/${accountId}`)).status, 200);
    } finally {
      gone.open();
      adapter.publish = realPublish;
    }
    const failed = await waitFinal(w2.h, first.id);
    assert.equal(failed.platforms[0].errorCode, 'account_disconnected');
    assert.equal(posted(x, { text: content }).length, 1, 'X got it before the account went away');
    await connectAccount(w2.h, 'twitter', { sandbox_user: 'leaver' });
    const retried = await w2.h.request('POST', `/v1/posts/${first.id}/retry`);
    const done = retried.body.status === 'published' ? retried.body : await waitFinal(w2.h, first.id);
    assert.equal(done.status, 'published', JSON.stringify(done));
    assert.equal(posted(x, { text: content }).length, 1, 'the retry found it: still one post on X');
  } finally {
    await w2.close();
  }
});

test('every asking searches from the attempt whose outcome is unknown', async () => {
  const x = w.emu('twitter');
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'window' });
  x.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets', count: 1 });
  x.faults.add({ kind: 'server_error', method: 'GET', path: '/tweets', count: 2 });
  const content = `window ${Date.now()}`;
  const started = Date.now();
  const first = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  const done = await waitFinal(w.h, first.id);
  assert.equal(done.status, 'published');
  assert.equal(posted(x, { text: content }).length, 1);
  const row = await w.h.runtime.db.writable.selectFrom('post_targets').select(['attempt_started_at', 'attempts']).where('post_id', '=', first.id).executeTakeFirstOrThrow();
  assert.ok(row.attempts >= 3, `asked several times (${row.attempts} attempts)`);
  const madeAt = posted(x, { text: content })[0]!.createdAt;
  assert.ok(row.attempt_started_at! >= started && row.attempt_started_at! <= madeAt, 'the search window still starts at the first publish attempt');
});

// Fault matrix: publishing. Each row is a fault and the outcome Herald must show (one test each):
//   1. crash before the platform call (left `publishing`, lease over, nothing at X) → recovery publishes it once
//   2. crash after the platform call (left `publishing`, X has the post) → recovery finds it; not posted again
//   3. accept-then-reset (X creates the post, then resets the connection) → reconciled: one post, its id recorded
//   4. 500 twice, then success → retried after each back-off; published on attempt 3, one post
//   5. 429 with a reset time → the next attempt waits until the reset; one post
//   6. 4xx rejection → failed at once: content_rejected with X's reason, one call, no retry
//   7. expired token, refresh refused → account needs_reconnect, target failed auth_expired, nothing posted
//   8. POST /retry ×8 at once on a failed target → one retry runs (the others 409); published once
//   9. two worker runtimes on one database → both take scheduled posts; every post published once
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { abandonAttempt } from '../helpers/dead-process.ts';
import { calls, posted, publishNow, startWorld, waitAllFinal, waitFinal, type World } from '../helpers/e2e.ts';
import { laggingClock } from '../helpers/clock.ts';
import { createTestDatabase, startHerald, type TestHerald } from '../helpers/herald.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';

let w: World;
let x: Emulator;
before(async () => {
  w = await startWorld();
  x = w.emu('twitter');
});
after(() => w.close());

const tweetsSent = () => calls(x, 'POST', '/2/tweets');
const timelineReads = () => calls(x, 'GET', '/tweets');
const unique = (what: string) => `${what} ${Date.now()} ${Math.random().toString(36).slice(2, 8)}`;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** A post of one X target due in an hour, so that nothing runs it during the test but what the test starts. */
async function scheduledTweet(accountId: string, content: string) {
  const res = await w.h.request('POST', '/v1/posts', { body: { content, scheduledFor: inAnHour(), platforms: [{ platform: 'twitter', accountId }] } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

test('crash before the platform call: a target left publishing with its lease over and nothing at X is published once by recovery', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'crash_before' });
  const content = unique('crash before');
  const post = await scheduledTweet(accountId, content);
  const since = Date.now();
  // The attempt claimed the target 6 s ago and its process died before calling X (harness lease: 5 s).
  await abandonAttempt(w.h.runtime.db.writable, post.id, since - 6_000);

  const done = await waitFinal(w.h, post.id);
  assert.equal(done.status, 'published', JSON.stringify(done));
  const entries = posted(x, { text: content });
  assert.equal(entries.length, 1, 'one post on X');
  assert.equal(done.platforms[0].platformPostId, entries[0]!.id);
  const sends = x.calls.filter((c) => c.at >= since && c.method === 'POST' && c.path === '/2/tweets');
  const lookups = x.calls.filter((c) => c.at >= since && c.method === 'GET' && c.path.endsWith('/tweets'));
  assert.equal(sends.length, 1, 'sent once, by recovery');
  assert.ok(lookups.length >= 1 && lookups[0]!.at <= sends[0]!.at, 'X was asked first whether the dead attempt had posted');
});

test('crash after the platform call: a target left publishing whose post X already has is reconciled to that post, not posted again', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'crash_after' });
  const content = unique('crash after');
  const post = await scheduledTweet(accountId, content);
  const startedAt = Date.now() - 6_000;
  await abandonAttempt(w.h.runtime.db.writable, post.id, startedAt);
  // What the dead attempt did before dying: X's own publish call, with the account's token.
  const row = await w.h.runtime.db.writable.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
  const cred = await w.h.runtime.credentials.forAccount(row);
  assert.ok(cred.ok);
  const made = await w.h.runtime.adapters.twitter.publish({
    account: cred.creds,
    content,
    media: [],
    settings: {},
    checkpoint: null,
    saveCheckpoint: async () => {},
    attemptStartedAt: startedAt,
  });
  assert.ok(made.ok, JSON.stringify(made));
  const sent = tweetsSent();

  const done = await waitFinal(w.h, post.id);
  assert.equal(done.status, 'published', JSON.stringify(done));
  assert.equal(done.platforms[0].platformPostId, made.platformPostId, 'the post the dead attempt made is the one recorded');
  assert.equal(posted(x, { text: content }).length, 1, 'still one post on X');
  assert.equal(tweetsSent(), sent, 'nothing sent after the crash');
});

test('accept-then-reset: X creates the post and resets the connection; reconciled to that post, never posted twice', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'reset' });
  x.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/2/tweets', count: 1 });
  const content = unique('reset');
  const [sent, read] = [tweetsSent(), timelineReads()];
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  const done = post.status === 'publishing' ? await waitFinal(w.h, post.id) : post;
  assert.equal(done.status, 'published', JSON.stringify(done));
  const entries = posted(x, { text: content });
  assert.equal(entries.length, 1, 'one post on X');
  assert.equal(done.platforms[0].platformPostId, entries[0]!.id, 'the post X made is the one recorded');
  assert.equal(tweetsSent() - sent, 1, 'the post was sent once');
  assert.ok(timelineReads() - read >= 1, 'the outcome was looked up on X');
  assert.equal(done.platforms[0].attempts, 2, 'the publish, then the lookup');
});

test('500 twice, then success: retried after each back-off, published on the third attempt, one post', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'flaky' });
  x.faults.add({ kind: 'server_error', method: 'POST', path: '/2/tweets', count: 2 });
  const content = unique('after two 500s');
  const started = Date.now();
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(post.platforms[0].attempts, 3);
  const tries = x.calls.filter((c) => c.method === 'POST' && c.path === '/2/tweets' && c.at >= started);
  assert.deepEqual(
    tries.map((c) => c.status),
    [503, 503, 201],
  );
  // FAST_RETRY waits 100 ms, then 200 ms.
  assert.ok(tries[1]!.at - tries[0]!.at >= 90, `first back-off ${tries[1]!.at - tries[0]!.at} ms`);
  assert.ok(tries[2]!.at - tries[1]!.at >= 190, `second back-off ${tries[2]!.at - tries[1]!.at} ms`);
  assert.equal(posted(x, { text: content }).length, 1);
});

test('429 with a reset time: the next attempt waits until the reset, then publishes once', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'limited' });
  x.faults.add({ kind: 'rate_limited', method: 'POST', path: '/2/tweets', count: 1, resetSeconds: 2 });
  const content = unique('after a 429');
  const started = Date.now();
  const first = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  const done = first.status === 'published' ? first : await waitFinal(w.h, first.id);
  assert.equal(done.status, 'published');
  const tries = x.calls.filter((c) => c.method === 'POST' && c.path === '/2/tweets' && c.at >= started);
  assert.deepEqual(
    tries.map((c) => c.status),
    [429, 201],
  );
  // X says the limit lifts at the start of the second 2 s from now (x-rate-limit-reset, whole seconds),
  // while the back-off alone would have waited 100 ms. (How promptly it went after the reset depends on
  // the machine, so it is not asserted: only that it did not go before.)
  const waited = tries[1]!.at - tries[0]!.at;
  assert.ok(waited >= 1_900, `waited ${waited} ms for a 2 s reset`);
  assert.equal(posted(x, { text: content }).length, 1);
});

test('4xx rejection: the target fails at once with content_rejected and X\'s reason, and is not retried', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'refused' });
  x.faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets', count: 1, message: 'The text contains a blocked word.' });
  const content = unique('refused');
  const sent = tweetsSent();
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(post.status, 'failed');
  const [t] = post.platforms;
  assert.equal(t.status, 'failed');
  assert.equal(t.errorCode, 'content_rejected');
  assert.match(t.error, /blocked word/);
  assert.equal(t.attempts, 1);
  // No retry can come: a failed target is final to every job's claim (only POST /retry opens it again),
  // so this is settled now, not after some quiet time that a loaded machine might not honour.
  const stored = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0];
  assert.equal(stored.status, 'failed');
  assert.equal(stored.attempts, 1, 'no retry');
  assert.equal(stored.nextAttemptAt, undefined, 'no retry is planned');
  assert.equal(tweetsSent() - sent, 1, 'X was called once');
  assert.equal(posted(x, { text: content }).length, 0);
});

test('expired token whose refresh is refused: the account needs reconnecting and the target fails with auth_expired', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'expired' });
  x.oauth.expireAccessTokens(accountId);
  x.faults.add({ kind: 'expired_token', method: 'POST', path: '/2/oauth2/token', count: 1 });
  const [sent, refreshes] = [tweetsSent(), calls(x, 'POST', '/2/oauth2/token')];
  const content = unique('dead token');
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(post.status, 'failed');
  const [t] = post.platforms;
  assert.equal(t.status, 'failed');
  assert.equal(t.errorCode, 'auth_expired');
  assert.equal(t.attempts, 1);
  assert.equal(tweetsSent() - sent, 1, 'one call, refused for the expired token');
  assert.equal(calls(x, 'POST', '/2/oauth2/token') - refreshes, 1, 'one refresh tried');
  const accounts = await w.h.request('GET', '/v1/accounts?platform=twitter');
  assert.equal(accounts.body.accounts.find((a: { accountId: string }) => a.accountId === accountId).status, 'needs_reconnect');
  assert.equal(posted(x, { text: content }).length, 0);
});

test('concurrent retries: POST /retry ×8 at once on a failed target runs one retry (the others 409); published once', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'retried' });
  x.faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets', count: 1 });
  const content = unique('retried');
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(post.status, 'failed');
  const sent = tweetsSent();

  const answers = await Promise.all(Array.from({ length: 8 }, () => w.h.request('POST', `/v1/posts/${post.id}/retry`)));
  const ok = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 409);
  assert.equal(ok.length, 1, answers.map((a) => `${a.status} ${a.body.code ?? ''}`).join(', '));
  assert.equal(refused.length, 7);
  for (const r of refused) assert.ok(['CONFLICT', 'NO_FAILED_TARGETS'].includes(r.body.code), r.text);
  const done = ok[0]!.body.status === 'published' ? ok[0]!.body : await waitFinal(w.h, post.id);
  assert.equal(done.status, 'published');
  assert.equal(tweetsSent() - sent, 1, 'one retry reached X');
  const entries = posted(x, { text: content });
  assert.equal(entries.length, 1);
  assert.equal(done.platforms[0].platformPostId, entries[0]!.id);
});

test('two workers on one database: both take scheduled posts, and every post is published once', async () => {
  const database = await createTestDatabase();
  const attempts: [string[], string[]] = [[], []];
  const heralds: TestHerald[] = [];
  const threads = w.emu('threads');
  try {
    // The API's clock lags, so that posts due a moment from now are still in the future when their
    // creates arrive, however slowly (test/helpers/clock.ts); the workers run on real time.
    const api = await startHerald({ role: 'api', database, emulators: w.server, clock: laggingClock() });
    heralds.push(api);
    for (const log of attempts) {
      heralds.push(
        await startHerald({
          role: 'worker',
          database,
          emulators: w.server,
          // 16 publish-post jobs at once each, fewer than the posts due together. A long lease: this test is
          // about sharing the work, and a machine stalled past the default 10 s lease would rightly hand an
          // attempt to the other worker (a takeover, tested in test/crash) and count a second attempt.
          env: { HERALD_WORKER_CONCURRENCY: '16', HERALD_PUBLISH_LEASE_MS: '120000' },
          logTo: { level: 'info', write: (line) => void (line.includes('"publish attempt finished"') && log.push(line)) },
        }),
      );
    }
    const targets = [
      { platform: 'twitter', accountId: (await connectAccount(api, 'twitter', { sandbox_user: 'pair_a' })).accountId },
      { platform: 'twitter', accountId: (await connectAccount(api, 'twitter', { sandbox_user: 'pair_b' })).accountId },
      { platform: 'threads', accountId: (await connectAccount(api, 'threads', { sandbox_user: 'pair_t' })).accountId },
    ];
    // Slow platforms keep each worker's slots busy, so the other has to take its share.
    x.latencyMs = 200;
    threads.latencyMs = 200;
    const sent = tweetsSent();
    const due = new Date(Date.now() + 800).toISOString();
    const N = 40; // more posts than one worker's 16 publish-post slots (HERALD_WORKER_CONCURRENCY above)
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const res = await api.request('POST', '/v1/posts', { body: { content: unique(`pair ${i}`), scheduledFor: due, platforms: [targets[i % 2]!, targets[2]!] } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.id);
    }
    const posts = await waitAllFinal(api, ids);
    for (const p of posts) {
      assert.equal(p.status, 'published', JSON.stringify(p));
      assert.equal(posted(x, { text: p.content }).length, 1, `${p.content} once on X`);
      assert.equal(posted(threads, { text: p.content }).length, 1, `${p.content} once on Threads`);
      for (const t of p.platforms) assert.equal(t.attempts, 1);
    }
    assert.equal(tweetsSent() - sent, N, 'X got each post once');
    assert.equal(attempts[0].length + attempts[1].length, 2 * N, 'one attempt per target in all');
    assert.ok(attempts[0].length > 0 && attempts[1].length > 0, `both workers worked: ${attempts[0].length} and ${attempts[1].length} attempts`);
  } finally {
    x.latencyMs = 0;
    threads.latencyMs = 0;
    for (const h of heralds.reverse()) await h.close();
    await database.drop();
  }
});

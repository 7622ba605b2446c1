// The publishing engine with real emulators: parallel publishNow, scheduled firing, partial failure and
// retry, background completion, per-account limits, disconnected accounts. Platform faults and crashes
// (5xx, 429, resets, dead processes, concurrent retries, several workers): test/faults/publishing.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { behind, testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { gate, until } from '../helpers/wait.ts';

let w: World;
const clock = testClock();
const acc: Record<string, string> = {};
const later = (ms: number) => new Date(Date.now() + ms).toISOString();

before(async () => {
  w = await startWorld({ clock });
  acc.twitter = (await connectAccount(w.h, 'twitter')).accountId;
  acc.facebook = (await connectAccount(w.h, 'facebook', { sandbox_pages: '1' })).accountId;
  acc.instagram = (await connectAccount(w.h, 'instagram', { sandbox_user: 'ig', sandbox_pages: '1' })).accountId;
  acc.threads = (await connectAccount(w.h, 'threads')).accountId;
  acc.tiktok = (await connectAccount(w.h, 'tiktok')).accountId;
});
after(() => w.close());

const all = () => [
  { platform: 'twitter', accountId: acc.twitter },
  { platform: 'facebook', accountId: acc.facebook },
  { platform: 'instagram', accountId: acc.instagram },
  { platform: 'threads', accountId: acc.threads },
  { platform: 'tiktok', accountId: acc.tiktok },
];

describe('publishNow', () => {
  test('publishes to all five platforms at once and answers with final statuses', async () => {
    const content = `everywhere ${Date.now()}`;
    const post = await publishNow(w.h, {
      content,
      mediaItems: [{ type: 'video', url: w.media('sample.mp4') }],
      tiktokSettings: { privacyLevel: 'PUBLIC_TO_EVERYONE' },
      platforms: all(),
    });
    assert.equal(post.status, 'published', JSON.stringify(post.platforms));
    for (const t of post.platforms) {
      assert.equal(t.status, 'published');
      assert.ok(t.platformPostId && t.platformPostUrl, t.platform);
      assert.equal(t.attempts, 1);
    }
    assert.ok(post.publishedAt);
    assert.equal(posted(w.emu('twitter'), { text: content }).length, 1);
    assert.equal(posted(w.emu('threads'), { text: content }).length, 1);
    assert.equal(posted(w.emu('tiktok')).filter((e) => e.text === content).length, 1);
  });

  test('targets run in parallel: each target\'s publish begins while the other\'s is still running', async () => {
    // Each publish waits, once begun, until the other one has begun too. Run one after the other they
    // would wait for each other for ever (a hang, which the wait's cap turns into a failure); run in
    // parallel they both go through, whatever the machine's speed.
    const adapters = w.h.runtime.adapters;
    const pair = ['twitter', 'threads'] as const;
    const begun = { twitter: gate(), threads: gate() };
    const real = { twitter: adapters.twitter.publish, threads: adapters.threads.publish };
    for (const name of pair) {
      const other = name === 'twitter' ? 'threads' : 'twitter';
      adapters[name].publish = async (request) => {
        begun[name].open();
        await until(`${other}'s publish to begin while ${name}'s runs`, () => begun[other].isOpen());
        return real[name].call(adapters[name], request);
      };
    }
    try {
      const post = await publishNow(w.h, { content: `parallel ${Date.now()}`, platforms: [all()[0]!, all()[3]!] });
      assert.equal(post.status, 'published', JSON.stringify(post.platforms));
    } finally {
      for (const name of pair) adapters[name].publish = real[name];
    }
  });

  test('work beyond HERALD_PUBLISH_WAIT_MS finishes in the background', async () => {
    const h2 = await (await import('../helpers/herald.ts')).startHerald({ emulators: w.server, env: { HERALD_PUBLISH_WAIT_MS: '100' } });
    try {
      const x = await connectAccount(h2, 'twitter', { sandbox_user: 'slowpoke' });
      // The publish is held until the answer has come: longer than the wait, whatever the machine's speed.
      const adapter = h2.runtime.adapters.twitter;
      const realPublish = adapter.publish;
      const answered = gate();
      adapter.publish = async (request) => {
        await answered.opened;
        return realPublish.call(adapter, request);
      };
      let res;
      try {
        res = await publishNow(h2, { content: `slow ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: x.accountId }] });
      } finally {
        answered.open();
      }
      assert.equal(res.status, 'publishing');
      assert.equal(res.platforms[0].status, 'publishing');
      const done = await waitFinal(h2, res.id);
      assert.equal(done.status, 'published');
    } finally {
      await h2.close();
    }
  });
});

describe('failures and retry', () => {
  test('a rejected target makes the post partial; retry publishes only it', async () => {
    const threads = w.emu('threads');
    threads.faults.add({ kind: 'validation', method: 'POST', path: '/threads', count: 1, message: 'The text contains a blocked word.' });
    const content = `partial ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [all()[0]!, all()[3]!] });
    assert.equal(post.status, 'partial');
    const [x, th] = post.platforms;
    assert.equal(x.status, 'published');
    assert.equal(th.status, 'failed');
    assert.equal(th.errorCode, 'content_rejected');
    assert.match(th.error, /blocked word/);
    assert.equal(th.attempts, 1, 'a rejection is not retried');

    const retried = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.status, 'published');
    assert.equal(retried.body.platforms[0].platformPostId, x.platformPostId, 'the published target is untouched');
    assert.equal(posted(w.emu('twitter'), { text: content }).length, 1, 'X got the post once');
    assert.equal(posted(threads, { text: content }).length, 1);

    const again = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'NO_FAILED_TARGETS');
  });

  test('accept-then-hang is reconciled, never posted twice', async () => {
    const x = w.emu('twitter');
    x.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets', count: 1 });
    const content = `hung ${Date.now()}`;
    const first = await publishNow(w.h, { content, platforms: [all()[0]!] });
    const done = first.status === 'published' ? first : await waitFinal(w.h, first.id);
    assert.equal(done.status, 'published', JSON.stringify(done));
    const entries = posted(x, { text: content });
    assert.equal(entries.length, 1, 'one post on X');
    assert.equal(done.platforms[0].platformPostId, entries[0]!.id, 'the post X made is the one recorded');
  });

  test('an unknown outcome that cannot be confirmed fails with outcome_unknown', async () => {
    const tiktok = w.emu('tiktok');
    // Photo init accepted, then never answered; the status call fails every time after.
    tiktok.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/content/init/', count: 1 });
    tiktok.faults.add({ kind: 'server_error', method: 'POST', path: '/status/fetch/', forever: true });
    try {
      const first = await publishNow(w.h, {
        content: `unknowable ${Date.now()}`,
        mediaItems: [{ type: 'image', url: w.media('sample.jpg') }],
        tiktokSettings: { privacyLevel: 'SELF_ONLY' },
        platforms: [all()[4]!],
      });
      const done = first.status === 'failed' ? first : await waitFinal(w.h, first.id);
      assert.equal(done.platforms[0].status, 'failed');
      assert.equal(done.platforms[0].errorCode, 'outcome_unknown');
      assert.match(done.platforms[0].error, /check the account before retrying/i);
    } finally {
      tiktok.faults.clear();
    }
  });

  test('a target of a disconnected account fails with account_disconnected', async () => {
    const extra = await connectAccount(w.h, 'twitter', { sandbox_user: 'leaving' });
    // With Herald's clock behind, the post cannot come due before the account is gone, however slowly
    // the two requests go through.
    const post = await behind(clock, async () => {
      const res = await w.h.request('POST', '/v1/posts', { body: { content: 'too late', scheduledFor: later(800), platforms: [{ platform: 'twitter', accountId: extra.accountId }] } });
      assert.equal(res.status, 201, res.text);
      assert.equal((await w.h.request('DELETE', `/v1/accounts/twitter/${extra.accountId}`)).status, 200);
      return res;
    });
    const done = await waitFinal(w.h, post.body.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.platforms[0].errorCode, 'account_disconnected');
  });
});

describe('scheduling', () => {
  test('a scheduled post fires at its time, not before, and its lateness is measured', async () => {
    const content = `on time ${Date.now()}`;
    const at = later(1200);
    const post = await behind(clock, () => w.h.request('POST', '/v1/posts', { body: { content, scheduledFor: at, platforms: [all()[0]!, all()[3]!] } }));
    assert.equal(post.body.status, 'scheduled', post.text);
    const done = await waitFinal(w.h, post.body.id);
    assert.equal(done.status, 'published');
    // How late it went is the machine's business (the metric below reports it); never early.
    for (const t of done.platforms) {
      const lateness = Date.parse(t.publishedAt) - Date.parse(at);
      assert.ok(lateness >= 0, `${t.platform} published ${-lateness} ms before its time`);
    }
    const metrics = await (await fetch(`${w.h.url}/metrics`)).text();
    assert.match(metrics, /herald_scheduling_lateness_seconds_count [1-9]/);
  });
});

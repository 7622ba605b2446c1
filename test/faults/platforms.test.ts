// Fault matrix: platforms of part two, through Herald's HTTP API (publishNow and retry), with the emulators'
// ledgers as the proof. Each row is a fault and the outcome Herald must show: the target published once
// (the upload resumed, or the lost answer reconciled), or failed with an honest category and nothing posted;
// never a post made twice.
//   a platform's upload URL dying halfway:
//     YouTube resumable: the connection dropped before the second chunk   → resumed from the offset YouTube reports: one video
//     YouTube resumable: the last chunk taken, its answer cut             → the session says it completed: one video
//     YouTube resumable: every chunk after the first dropped              → failed platform_unavailable, no video; retry resumes the same session: one video
//     LinkedIn multi-part: the connection dropped on the second part     → retried: one post with the whole video
//     LinkedIn multi-part: every second part dropped                     → failed platform_unavailable, no post; retry: one post
//     TikTok chunks: the connection dropped on the second chunk          → an upload cut short never completes; retried from the start: one post
//     TikTok chunks: the last chunk taken, its answer cut                → reconciled by the publish id: one post
//   a Bluesky PDS or Mastodon instance unreachable (a proxy in front of the emulator):
//     connecting while the server refuses connections                    → 502 PLATFORM_ERROR naming the server; nothing connected
//     publishing while it refuses connections (the host is down)         → failed platform_unavailable, nothing posted; retry once it is back: one post
//     publishing while it takes the request and never answers            → an unknown outcome, reconciled (never re-sent blindly): failed outcome_unknown
//                                                                          while it stays silent; retry once it is back asks first, then posts once
// Proved elsewhere, adapter by adapter with small chunks (test/platforms/youtube-faults.test.ts,
// linkedin-faults.test.ts, tiktok-faults.test.ts, mastodon-faults.test.ts, bluesky.test.ts): tokens expiring
// mid-upload, 429s and quotas, answers lost after the platform acted, threads cut in the middle.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK, connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { startStallProxy, type StallProxy } from '../helpers/stall-proxy.ts';

let w: World;
before(async () => {
  w = await startWorld();
});
afterEach(() => {
  for (const name of ['youtube', 'linkedin', 'tiktok', 'bluesky', 'mastodon']) w.emu(name).faults.clear();
});
after(() => w.close());

const unique = (what: string) => `${what} ${Date.now()} ${Math.random().toString(36).slice(2, 8)}`;
/** The sandbox's sample video padded to `bytes` (the emulators judge a video by its signature, not its length). */
const videoOf = (bytes: number) => [{ type: 'video', url: `${w.media('sample.mp4')}?bytes=${bytes}` }];
const MB = 1024 * 1024;

async function finalOf(post: { id: string; status: string }) {
  return post.status === 'publishing' ? waitFinal(w.h, post.id) : post;
}

async function retried(postId: string) {
  const res = await w.h.request('POST', `/v1/posts/${postId}/retry`);
  assert.equal(res.status, 200, res.text);
  return finalOf(res.body);
}

describe('a platform upload URL dying halfway', () => {
  let youtube: string;
  let linkedin: string;
  let tiktok: string;
  before(async () => {
    youtube = (await connectAccount(w.h, 'youtube', { sandbox_user: 'fault-uploads' })).accountId;
    linkedin = (await connectAccount(w.h, 'linkedin', { sandbox_user: 'fault-uploads' })).accountId;
    tiktok = (await connectAccount(w.h, 'tiktok', { sandbox_user: 'fault-uploads' })).accountId;
  });

  const videos = (platform: string, accountId: string) => w.emu(platform).ledger.list({ accountId }).filter((e) => e.kind === 'video' || e.kind === 'post');
  const youTubeTarget = (title: string) => [{ platform: 'youtube', accountId: youtube, platformSpecificData: { title, madeForKids: false } }];
  const SESSION = '/upload/youtube/v3/videos';

  test('YouTube resumable: the connection dropped before the second chunk arrives → resumed from the offset YouTube reports: one video', async () => {
    w.emu('youtube').faults.add({ kind: 'drop', method: 'PUT', path: SESSION, skip: 1 });
    const title = unique('yt drop');
    const before = videos('youtube', youtube).length;
    const post = await finalOf(await publishNow(w.h, { content: title, mediaItems: videoOf(18 * MB), platforms: youTubeTarget(title) }));
    assert.equal(post.status, 'published', JSON.stringify(post));
    assert.equal(videos('youtube', youtube).length, before + 1);
    assert.equal(calls(w.emu('youtube'), 'POST', SESSION) >= 1, true);
  });

  test('YouTube resumable: the last chunk taken and its answer cut → the session says the upload completed: one video', async () => {
    w.emu('youtube').faults.add({ kind: 'accept_then_reset', method: 'PUT', path: SESSION, skip: 2 });
    const title = unique('yt reset');
    const before = videos('youtube', youtube).length;
    const post = await finalOf(await publishNow(w.h, { content: title, mediaItems: videoOf(18 * MB), platforms: youTubeTarget(title) }));
    assert.equal(post.status, 'published', JSON.stringify(post));
    assert.equal(videos('youtube', youtube).length, before + 1, 'one video');
  });

  test('YouTube resumable: every chunk after the first dropped → failed platform_unavailable, no video; retry resumes the same session: one video', async () => {
    w.emu('youtube').faults.add({ kind: 'drop', method: 'PUT', path: SESSION, skip: 1, forever: true });
    const title = unique('yt dead');
    const before = videos('youtube', youtube).length;
    const sessions = calls(w.emu('youtube'), 'POST', SESSION);
    const post = await finalOf(await publishNow(w.h, { content: title, mediaItems: videoOf(18 * MB), platforms: youTubeTarget(title) }));
    assert.equal(post.status, 'failed', JSON.stringify(post));
    assert.equal(post.platforms[0].errorCode, 'platform_unavailable');
    assert.equal(videos('youtube', youtube).length, before, 'no video');
    w.emu('youtube').faults.clear();
    const again = await retried(post.id);
    assert.equal(again.status, 'published', JSON.stringify(again));
    assert.equal(videos('youtube', youtube).length, before + 1, 'one video');
    assert.equal(calls(w.emu('youtube'), 'POST', SESSION), sessions + 1, 'the retry resumed the session the first attempt opened');
  });

  test('LinkedIn multi-part: the connection dropped on the second part → retried: one post with the whole video', async () => {
    w.emu('linkedin').faults.add({ kind: 'drop', method: 'PUT', path: '/part/1' });
    const content = unique('li drop');
    const post = await finalOf(await publishNow(w.h, { content, mediaItems: videoOf(10 * MB), platforms: [{ platform: 'linkedin', accountId: linkedin }] }));
    assert.equal(post.status, 'published', JSON.stringify(post));
    assert.equal(posted(w.emu('linkedin'), { text: content }).length, 1);
  });

  test('LinkedIn multi-part: every second part dropped → failed platform_unavailable, no post; retry: one post', async () => {
    w.emu('linkedin').faults.add({ kind: 'drop', method: 'PUT', path: '/part/1', forever: true });
    const content = unique('li dead');
    const post = await finalOf(await publishNow(w.h, { content, mediaItems: videoOf(10 * MB), platforms: [{ platform: 'linkedin', accountId: linkedin }] }));
    assert.equal(post.status, 'failed', JSON.stringify(post));
    assert.equal(post.platforms[0].errorCode, 'platform_unavailable');
    assert.equal(posted(w.emu('linkedin'), { text: content }).length, 0);
    w.emu('linkedin').faults.clear();
    const again = await retried(post.id);
    assert.equal(again.status, 'published', JSON.stringify(again));
    assert.equal(posted(w.emu('linkedin'), { text: content }).length, 1);
  });

  // A chunk upload cut in two ways; either way TikTok ends with exactly one post.
  for (const [kind, tag, name] of [
    ['drop', 'tt drop', 'TikTok chunks: the connection dropped on the second chunk → the upload can never complete; retried from the start: one post'],
    ['accept_then_reset', 'tt reset', 'TikTok chunks: the last chunk taken and its answer cut → reconciled by the publish id: one post'],
  ] as const) {
    test(name, async () => {
      w.emu('tiktok').faults.add({ kind, method: 'PUT', path: '/upload/video/', skip: 1 });
      const content = unique(tag);
      const before = videos('tiktok', tiktok).length;
      const post = await finalOf(
        await publishNow(w.h, { content, mediaItems: videoOf(25 * MB), tiktokSettings: { privacyLevel: 'SELF_ONLY' }, platforms: [{ platform: 'tiktok', accountId: tiktok }] }),
      );
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(videos('tiktok', tiktok).length, before + 1, 'one post');
    });
  }
});

describe('a Bluesky PDS or a Mastodon instance unreachable', () => {
  let proxy: StallProxy;
  let bluesky: string;
  let mastodon: string;
  before(async () => {
    // Both servers are reached through one proxy that can refuse connections or go silent.
    proxy = await startStallProxy(w.server.url);
    const connected = await w.h.request('POST', '/v1/connect/bluesky', { body: { identifier: 'fault.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop', service: `${proxy.url}/bluesky` } });
    assert.equal(connected.status, 200, connected.text);
    bluesky = connected.body.accountId;
    mastodon = (await connectAccount(w.h, 'mastodon', { sandbox_user: 'fault' }, undefined, `${proxy.url}/mastodon`)).accountId;
  });
  after(() => proxy.close());

  const targets = () => [
    { platform: 'bluesky', accountId: bluesky },
    { platform: 'mastodon', accountId: mastodon },
  ];
  const postedBoth = (text: string) => posted(w.emu('bluesky'), { text }).length + posted(w.emu('mastodon'), { text }).length;

  test('connecting while the server refuses connections → 502 PLATFORM_ERROR naming the server; nothing connected', async () => {
    // A server Herald has not talked to yet (a Mastodon app registered for the first proxy would be reused).
    const { key } = await w.h.newKey('unreachable');
    const down = await startStallProxy(w.server.url);
    await down.refuse();
    try {
      const pds = await w.h.request('POST', '/v1/connect/bluesky', { key, body: { identifier: 'nobody.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop', service: `${down.url}/bluesky` } });
      assert.equal(pds.status, 502, pds.text);
      assert.equal(pds.body.code, 'PLATFORM_ERROR');
      assert.match(pds.body.error, new RegExp(down.url.replace('http://', '')));
      const instance = await w.h.request('GET', `/v1/connect/mastodon?instance=${encodeURIComponent(`${down.url}/mastodon`)}&redirect_url=${encodeURIComponent(CALLBACK)}`, { key });
      assert.equal(instance.status, 502, instance.text);
      assert.equal(instance.body.code, 'PLATFORM_ERROR');
    } finally {
      await down.close();
    }
    assert.deepEqual((await w.h.request('GET', '/v1/accounts', { key })).body.accounts, []);
  });

  test('publishing while the server refuses connections → failed platform_unavailable, nothing posted; retry once it is back: one post each', async () => {
    const content = unique('unreachable');
    await proxy.refuse();
    let post;
    try {
      post = await finalOf(await publishNow(w.h, { content, platforms: targets() }));
    } finally {
      await proxy.resume();
    }
    assert.equal(post.status, 'failed', JSON.stringify(post));
    for (const t of post.platforms) assert.equal(t.errorCode, 'platform_unavailable', JSON.stringify(t));
    assert.equal(postedBoth(content), 0);
    const again = await retried(post.id);
    assert.equal(again.status, 'published', JSON.stringify(again));
    assert.equal(posted(w.emu('bluesky'), { text: content }).length, 1);
    assert.equal(posted(w.emu('mastodon'), { text: content }).length, 1);
  });

  test('publishing while the server takes the request and never answers → outcome_unknown after reconciling (never re-sent blindly); retry once it is back: one post each', async () => {
    const content = unique('silent');
    proxy.stall();
    let post;
    try {
      post = await finalOf(await publishNow(w.h, { content, platforms: targets() }));
    } finally {
      await proxy.resume();
    }
    assert.equal(post.status, 'failed', JSON.stringify(post));
    for (const t of post.platforms) assert.equal(t.errorCode, 'outcome_unknown', JSON.stringify(t));
    assert.equal(postedBoth(content), 0, 'the silent server never got the request');
    const again = await retried(post.id);
    assert.equal(again.status, 'published', JSON.stringify(again));
    assert.equal(posted(w.emu('bluesky'), { text: content }).length, 1);
    assert.equal(posted(w.emu('mastodon'), { text: content }).length, 1);
  });
});

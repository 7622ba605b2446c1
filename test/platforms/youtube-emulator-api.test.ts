// The YouTube emulator's Data API refuses what YouTube refuses: channels, videos (list, update, delete),
// the uploads playlist, search, comments, thumbnails, and the project's daily quota.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SAMPLE_MEDIA } from '../../src/sandbox/media.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { createYouTubeEmulator } from '../../src/sandbox/youtube/emulator.ts';
import { nextQuotaReset } from '../../src/platforms/youtube/quota.ts';
import { call, grant, openSession, reason, uploadVideo } from './youtube-emulator-helpers.ts';

let clock = Date.now();
const emu = createYouTubeEmulator({ processingMs: 0, now: () => clock });
let server: EmulatorServer;
let root: string;
let alice: string;
let bob: string;
let aliceChannel: string;

before(async () => {
  server = await startEmulatorServer([emu]);
  root = server.rootOf('youtube');
  alice = (await grant(root, 'alice')).access;
  bob = (await grant(root, 'bob')).access;
  aliceChannel = (await call(root, 'GET', '/youtube/v3/channels', { token: alice, query: { part: 'id', mine: 'true' } })).body.items[0].id;
});
afterEach(() => {
  emu.faults.clear();
  emu.quota.reset();
  Object.assign(emu.settings, { quotaModel: 'buckets', channelDailyUploads: 50, thumbnailsPerMinute: 10 });
});
after(() => server.close());

describe('channels.list', () => {
  test('mine: id, title, handle, avatar, uploads playlist, verification', async () => {
    const res = await call(root, 'GET', '/youtube/v3/channels', { token: alice, query: { part: 'snippet,contentDetails,status', mine: 'true' } });
    assert.equal(res.status, 200);
    const ch = res.body.items[0];
    assert.match(ch.id, /^UC[\w-]{22}$/);
    assert.equal(ch.snippet.title, 'alice');
    assert.equal(ch.snippet.customUrl, '@alice');
    assert.match(ch.snippet.thumbnails.high.url, /sandbox-avatar/);
    assert.equal(ch.contentDetails.relatedPlaylists.uploads, `UU${ch.id.slice(2)}`);
    assert.equal(ch.status.longUploadsStatus, 'allowed');
  });

  test('part and exactly one filter are required; a Google account without a channel gets no items key', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ mine: 'true' }, 'required'],
      [{ part: 'snippet' }, 'missingRequiredParameter'],
      [{ part: 'snippet', mine: 'true', id: aliceChannel }, 'incompatibleParameters'],
      [{ part: 'wishes', mine: 'true' }, 'unknownPart'],
    ];
    for (const [query, why] of cases) {
      const res = await call(root, 'GET', '/youtube/v3/channels', { token: alice, query });
      assert.deepEqual([res.status, reason(res)], [400, why], JSON.stringify(query));
    }
    const none = await grant(root, 'nochannel', {}, { sandbox_no_channel: '1' });
    const res = await call(root, 'GET', '/youtube/v3/channels', { token: none.access, query: { part: 'id', mine: 'true' } });
    assert.equal(res.status, 200);
    assert.equal('items' in res.body, false);
    assert.equal(res.body.pageInfo.totalResults, 0);
  });
});

describe('videos', () => {
  test('list: owner-only parts and private videos for the owner alone', async () => {
    const v = await uploadVideo(root, alice, 1000, { snippet: { title: 'Private one' }, status: { privacyStatus: 'private', selfDeclaredMadeForKids: false } });
    const own = await call(root, 'GET', '/youtube/v3/videos', { token: alice, query: { part: 'status,processingDetails', id: v.id } });
    assert.equal(own.body.items[0].processingDetails.processingStatus, 'succeeded');
    assert.equal(own.body.items[0].status.selfDeclaredMadeForKids, false);
    const other = await call(root, 'GET', '/youtube/v3/videos', { token: bob, query: { part: 'status', id: v.id } });
    assert.deepEqual(other.body.items, []);
  });

  test('update: needs title and categoryId, replaces the snippet, only by the owner', async () => {
    const v = await uploadVideo(root, alice, 1000, { snippet: { title: 'Before', description: 'old', tags: ['a', 'b'], categoryId: '27' } });
    const update = (token: string, json: unknown) => call(root, 'PUT', '/youtube/v3/videos', { token, query: { part: 'snippet' }, json });
    let res = await update(alice, { id: v.id, snippet: { title: 'After', description: 'new' } });
    assert.deepEqual([res.status, reason(res)], [400, 'invalidVideoMetadata']);
    res = await update(alice, { id: 'nope', snippet: { title: 'After', categoryId: '27' } });
    assert.deepEqual([res.status, reason(res)], [404, 'videoNotFound']);
    res = await update(bob, { id: v.id, snippet: { title: 'Mine now', categoryId: '27' } });
    assert.deepEqual([res.status, reason(res)], [403, 'forbidden']);
    res = await update(alice, { id: v.id, snippet: { title: 'After', categoryId: '27', description: 'new <b>' } });
    assert.deepEqual([res.status, reason(res)], [400, 'invalidDescription']);
    res = await update(alice, { id: v.id, snippet: { title: 'After', categoryId: '27', description: 'new' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.snippet.description, 'new');
    assert.equal(res.body.snippet.tags, undefined, 'tags not sent back are cleared');
    const edit = emu.ledger.list({ kind: 'edit' }).find((e) => e.extra?.videoId === v.id)!;
    assert.deepEqual([edit.text, edit.extra!.previousDescription], ['new', 'old']);
  });

  test('delete: 204 once, then videoNotFound; only the owner; gone from the uploads', async () => {
    const v = await uploadVideo(root, alice);
    let res = await call(root, 'DELETE', '/youtube/v3/videos', { token: bob, query: { id: v.id } });
    assert.deepEqual([res.status, reason(res)], [403, 'forbidden']);
    res = await call(root, 'DELETE', '/youtube/v3/videos', { token: alice, query: { id: v.id } });
    assert.equal(res.status, 204);
    res = await call(root, 'DELETE', '/youtube/v3/videos', { token: alice, query: { id: v.id } });
    assert.deepEqual([res.status, reason(res)], [404, 'videoNotFound']);
    assert.equal(emu.ledger.list({ kind: 'delete' }).filter((e) => e.extra?.videoId === v.id).length, 1);
    const items = await call(root, 'GET', '/youtube/v3/playlistItems', { token: alice, query: { part: 'contentDetails', playlistId: `UU${aliceChannel.slice(2)}`, maxResults: '50' } });
    assert.ok(!items.body.items.some((i: any) => i.contentDetails.videoId === v.id));
  });
});

describe('uploads playlist and search', () => {
  test('newest first, maxResults 0–50, opaque page tokens; others see public videos only', async () => {
    const carol = (await grant(root, 'carol')).access;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock += 1000;
      ids.push((await uploadVideo(root, carol, 100, { snippet: { title: `v${i}` }, status: { privacyStatus: i === 1 ? 'private' : 'public' } })).id);
    }
    const channel = (await call(root, 'GET', '/youtube/v3/channels', { token: carol, query: { part: 'id', mine: 'true' } })).body.items[0].id;
    const playlistId = `UU${channel.slice(2)}`;
    const page = (token: string, extra: Record<string, string> = {}) => call(root, 'GET', '/youtube/v3/playlistItems', { token, query: { part: 'snippet,contentDetails', playlistId, ...extra } });
    const first = await page(carol, { maxResults: '2' });
    assert.deepEqual(first.body.items.map((i: any) => i.contentDetails.videoId), [ids[2], ids[1]]);
    assert.equal(first.body.items[0].snippet.position, 0);
    const second = await page(carol, { maxResults: '2', pageToken: first.body.nextPageToken });
    assert.deepEqual(second.body.items.map((i: any) => i.contentDetails.videoId), [ids[0]]);
    assert.equal(second.body.nextPageToken, undefined);
    const bobsView = await page(bob, { maxResults: '50' });
    assert.deepEqual(bobsView.body.items.map((i: any) => i.contentDetails.videoId), [ids[2], ids[0]]);
    assert.deepEqual([(await page(carol, { maxResults: '51' })).status, reason(await page(carol, { maxResults: '51' }))], [400, 'invalidParameter']);
    assert.equal(reason(await page(carol, { pageToken: 'garbage' })), 'invalidPageToken');
    const missing = await call(root, 'GET', '/youtube/v3/playlistItems', { token: carol, query: { part: 'id', playlistId: 'UUnothing' } });
    assert.deepEqual([missing.status, reason(missing)], [404, 'playlistNotFound']);
  });

  test('search forMine needs type=video', async () => {
    const bad = await call(root, 'GET', '/youtube/v3/search', { token: alice, query: { part: 'snippet', forMine: 'true' } });
    assert.deepEqual([bad.status, reason(bad)], [400, 'invalidSearchFilter']);
    const ok = await call(root, 'GET', '/youtube/v3/search', { token: alice, query: { part: 'snippet', forMine: 'true', type: 'video', order: 'date' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.items[0].id.kind, 'youtube#video');
  });
});

describe('comments', () => {
  const insert = (token: string, snippet: unknown) => call(root, 'POST', '/youtube/v3/commentThreads', { token, query: { part: 'snippet' }, json: { snippet } });
  const top = (text: unknown) => ({ snippet: { textOriginal: text } });

  test('insert needs channelId, videoId and text; refuses long text, made-for-kids and private videos', async () => {
    const v = await uploadVideo(root, alice);
    const kids = await uploadVideo(root, alice, 100, { snippet: { title: 'kids' }, status: { privacyStatus: 'public', selfDeclaredMadeForKids: true } });
    const priv = await uploadVideo(root, alice, 100, { snippet: { title: 'private' }, status: { privacyStatus: 'private' } });
    const cases: [unknown, number, string][] = [
      [{ videoId: v.id, topLevelComment: top('hi') }, 400, 'channelOrVideoIdMissing'],
      [{ channelId: aliceChannel, videoId: v.id, topLevelComment: top('  ') }, 400, 'commentTextRequired'],
      [{ channelId: aliceChannel, videoId: v.id, topLevelComment: top('x'.repeat(10_001)) }, 400, 'commentTextTooLong'],
      [{ channelId: aliceChannel, videoId: 'nope', topLevelComment: top('hi') }, 404, 'videoNotFound'],
      [{ channelId: aliceChannel, videoId: kids.id, topLevelComment: top('hi') }, 403, 'commentsDisabled'],
      [{ channelId: aliceChannel, videoId: priv.id, topLevelComment: top('hi') }, 403, 'forbidden'],
    ];
    for (const [snippet, status, why] of cases) {
      const res = await insert(alice, snippet);
      assert.deepEqual([res.status, reason(res)], [status, why], JSON.stringify(snippet).slice(0, 120));
    }
    const res = await insert(alice, { channelId: aliceChannel, videoId: v.id, topLevelComment: top('First!') });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.kind, 'youtube#commentThread');
    assert.match(res.body.id, /^Ugz/);
    assert.equal(res.body.snippet.topLevelComment.snippet.textOriginal, 'First!');
    assert.equal(emu.ledger.get(res.body.id)!.kind, 'comment');
    // The original text goes to its author only.
    const mine = await call(root, 'GET', '/youtube/v3/commentThreads', { token: alice, query: { part: 'snippet', videoId: v.id } });
    assert.equal(mine.body.items[0].snippet.topLevelComment.snippet.textOriginal, 'First!');
    const theirs = await call(root, 'GET', '/youtube/v3/commentThreads', { token: (await grant(root, 'bob')).access, query: { part: 'snippet', videoId: v.id } });
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.items[0].snippet.topLevelComment.snippet.textOriginal, undefined);
  });
});

describe('thumbnails.set', () => {
  const jpeg = SAMPLE_MEDIA['sample.jpg']!.bytes;
  const set = (token: string, videoId: string, bytes: Uint8Array, contentType = 'image/jpeg') =>
    call(root, 'POST', '/upload/youtube/v3/thumbnails/set', { token, query: { videoId, uploadType: 'media' }, bytes, contentType });

  test('JPEG or PNG up to 2 MB, on the owner\'s video, from a verified channel; rate limited', async () => {
    const v = await uploadVideo(root, alice);
    let res = await set(alice, v.id, jpeg);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.kind, 'youtube#thumbnailSetResponse');
    assert.equal(emu.ledger.list({ kind: 'thumbnail' }).filter((e) => e.extra?.videoId === v.id).length, 1);
    res = await set(alice, v.id, new Uint8Array(100), 'image/png');
    assert.deepEqual([res.status, reason(res)], [400, 'invalidImage']);
    res = await set(alice, v.id, new Uint8Array(2_097_153).fill(0xff), 'image/jpeg');
    assert.equal(res.status, 413);
    res = await set(bob, v.id, jpeg);
    assert.deepEqual([res.status, reason(res)], [403, 'forbidden']);
    const unverified = await grant(root, 'newbie', {}, { sandbox_unverified: '1' });
    const theirs = await uploadVideo(root, unverified.access);
    res = await set(unverified.access, theirs.id, jpeg);
    assert.deepEqual([res.status, reason(res)], [403, 'forbidden']);
    emu.settings.thumbnailsPerMinute = 1;
    res = await set(alice, v.id, jpeg);
    assert.deepEqual([res.status, reason(res)], [429, 'uploadRateLimitExceeded']);
  });
});

describe('quota', () => {
  test('current model: 100 videos.insert a day in their own bucket; refused with quotaExceeded until midnight Pacific', async () => {
    emu.quota.set({ uploads: 100 });
    const res = await call(root, 'POST', '/upload/youtube/v3/videos', {
      token: alice,
      query: { uploadType: 'resumable', part: 'snippet' },
      headers: { 'x-upload-content-length': '10', 'x-upload-content-type': 'video/mp4' },
      json: { snippet: { title: 'T' } },
    });
    assert.deepEqual([res.status, reason(res), res.body.error.errors[0].domain], [403, 'quotaExceeded', 'youtube.quota']);
    // Reads use the units bucket, still full.
    assert.equal((await call(root, 'GET', '/youtube/v3/channels', { token: alice, query: { part: 'id', mine: 'true' } })).status, 200);
    const saved = clock;
    clock = nextQuotaReset(clock);
    try {
      await openSession(root, (await grant(root, 'alice')).access, 10);
      assert.equal(emu.quota.current().uploads, 1);
    } finally {
      clock = saved;
    }
  });

  test('older model: videos.insert costs 1,600 of the 10,000 units; an invalid request costs one', async () => {
    emu.settings.quotaModel = 'units';
    emu.quota.set({ units: 8400 });
    await openSession(root, alice, 10);
    assert.equal(emu.quota.current().units, 10_000);
    const bad = await call(root, 'GET', '/youtube/v3/channels', { token: alice, query: { part: 'id', mine: 'true' } });
    assert.deepEqual([bad.status, reason(bad)], [403, 'quotaExceeded']);
    emu.quota.set({ units: 0 });
    await call(root, 'GET', '/youtube/v3/channels', { token: alice, query: { part: 'id' } });
    assert.equal(emu.quota.current().units, 1);
  });

  test('a channel\'s daily upload cap: uploadLimitExceeded', async () => {
    emu.settings.channelDailyUploads = 0;
    const res = await call(root, 'POST', '/upload/youtube/v3/videos', {
      token: alice,
      query: { uploadType: 'resumable', part: 'snippet' },
      headers: { 'x-upload-content-length': '10', 'x-upload-content-type': 'video/mp4' },
      json: { snippet: { title: 'T' } },
    });
    assert.deepEqual([res.status, reason(res)], [400, 'uploadLimitExceeded']);
  });
});

// Library media end to end: uploaded files published to the platforms' emulators, which download Herald's
// public URLs as the platforms do; create-time checks on what the probe found; fitting (renditions made
// once, kept beside the original); alt text on the platforms that take it; what a post uses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { createMediaFixtures, ffmpegAvailable, type MediaFixtures } from '../helpers/media-fixtures.ts';
import { sha256, uploadOk } from '../helpers/media.ts';
import { startHerald } from '../helpers/herald.ts';

let w: World;
let fx: MediaFixtures;
const acc: Record<string, string> = {};

before(async () => {
  w = await startWorld();
  fx = await createMediaFixtures();
  for (const p of ['twitter', 'instagram', 'tiktok', 'threads', 'facebook'] as const) acc[p] = (await connectAccount(w.h, p, { sandbox_pages: '1' })).accountId;
});
after(async () => {
  await w.close();
  await fx.cleanup();
});

const target = (platform: string, platformSpecificData?: Record<string, unknown>) => ({ platform, accountId: acc[platform]!, ...(platformSpecificData ? { platformSpecificData } : {}) });

async function image(name: string, o: Parameters<MediaFixtures['image']>[1]) {
  return readFile(await fx.image(name, o));
}

describe('publishing library media', () => {
  test('an image with alt text to X: X receives the very bytes and the alt text; the post shows the mediaId', async () => {
    const bytes = await image('x.jpg', { width: 800, height: 600, format: 'jpeg' });
    const m = await uploadOk(w.h, bytes, 'image/jpeg', '?altText=Library%20words');
    const content = `library image ${Date.now()}`;
    const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [target('twitter')] });
    assert.equal(post.status, 'published', JSON.stringify(post));
    assert.deepEqual(post.mediaItems, [{ mediaId: m.id, type: 'image', url: m.url }]);
    const [entry] = posted(w.emu('twitter'), { text: content });
    assert.equal(entry!.media[0]!.sha256, sha256(bytes));
    assert.equal(entry!.media[0]!.altText, 'Library words', "the library's alt text when the item has none");
    const own = await publishNow(w.h, { content: `${content} own`, mediaItems: [{ mediaId: m.id, altText: 'Item words' }], platforms: [target('twitter')] });
    assert.equal(own.status, 'published');
    assert.equal(posted(w.emu('twitter'), { text: `${content} own` })[0]!.media[0]!.altText, 'Item words');
  });

  test('an oversize PNG to Instagram becomes a JPEG rendition, made once and reused; Instagram pulls it', async () => {
    const bytes = await image('big.png', { width: 2400, height: 1800, format: 'png', noise: true });
    assert.ok(bytes.length > 8_000_000, `the PNG is ${bytes.length} bytes`);
    const m = await uploadOk(w.h, bytes, 'image/png', '?altText=Noise');
    const meta = w.emu('meta');
    for (const n of [1, 2]) {
      const content = `IG fitted ${n} ${Date.now()}`;
      const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [target('instagram')] });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const [entry] = posted(meta, { text: content });
      const got = entry!.media[0]!;
      assert.equal(got.contentType, 'image/jpeg');
      assert.deepEqual([got.width, got.height], [1440, 1080]);
      assert.ok(got.bytes! < 8_000_000 && got.bytes! > 0);
      assert.match(got.url, /\/media\/[^/]+\/fit\/instagram-scale-1440x1080-[0-9a-f]{10}\.jpg$/);
      assert.equal(got.altText, 'Noise');
    }
    const renditions = await w.h.runtime.db.kysely.selectFrom('media_renditions').selectAll().where('media_id', '=', m.id).execute();
    assert.equal(renditions.length, 1, 'one rendition, reused');
    // The original is never changed.
    const original = await fetch(m.url);
    assert.equal(sha256(Buffer.from(await original.arrayBuffer())), sha256(bytes));
  });

  test('a panorama: 422 on Instagram unless mediaFit crops or pads it; none refuses a PNG', async () => {
    const m = await uploadOk(w.h, await image('pano.jpg', { width: 1800, height: 600, format: 'jpeg' }), 'image/jpeg');
    const refused = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'pano', mediaItems: [{ mediaId: m.id }], platforms: [target('instagram')] } });
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual({ type: refused.body.type, code: refused.body.code, param: refused.body.param }, { type: 'invalid_request_error', code: 'invalid_field_value', param: 'mediaItems[0]' });
    assert.match(refused.body.error, /aspect ratio|ratio/i);
    assert.match(refused.body.error, /3:1|3\.00|1800/);
    for (const fit of ['crop', 'pad'] as const) {
      const content = `pano ${fit} ${Date.now()}`;
      const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [target('instagram', { mediaFit: fit })] });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const got = posted(w.emu('meta'), { text: content })[0]!.media[0]!;
      assert.ok(Math.abs(got.width! / got.height! - 1.91) < 0.01, `${fit}: ${got.width}×${got.height}`);
    }
    const png = await uploadOk(w.h, await image('small.png', { width: 400, height: 400, format: 'png' }), 'image/png');
    const none = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'png', mediaItems: [{ mediaId: png.id }], platforms: [target('instagram', { mediaFit: 'none' })] } });
    assert.equal(none.status, 422, none.text);
    assert.match(none.body.error, /JPEG/);
    assert.equal(none.body.param, 'mediaItems[0]');
  });

  test('TikTok photo: a large JPEG is fitted under 1080p, pulled from the URL, published', async () => {
    const bytes = await image('tt.jpg', { width: 3000, height: 2000, format: 'jpeg' });
    const m = await uploadOk(w.h, bytes, 'image/jpeg');
    const content = `tiktok library ${Date.now()}`;
    const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [target('tiktok', { privacyLevel: 'SELF_ONLY' })] });
    assert.equal(post.status, 'published', JSON.stringify(post));
    const entry = w.emu('tiktok').ledger.list({ accountId: acc.tiktok }).find((e) => e.text === content || e.extra?.description === content) ?? w.emu('tiktok').ledger.list().at(-1)!;
    const got = entry.media[0]!;
    assert.equal(got.contentType, 'image/jpeg');
    assert.ok(got.width! <= 1920 && got.width! * got.height! <= 1920 * 1080, `${got.width}×${got.height}`);
  });

  test('alt text reaches Threads and Facebook as their APIs take it', async () => {
    const m = await uploadOk(w.h, await image('alt.jpg', { width: 600, height: 600, format: 'jpeg' }), 'image/jpeg', '?altText=Square');
    for (const platform of ['threads', 'facebook'] as const) {
      const content = `${platform} alt ${Date.now()}`;
      const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [target(platform)] });
      assert.equal(post.status, 'published', JSON.stringify(post));
      const emu = w.emu(platform === 'threads' ? 'threads' : 'meta');
      assert.equal(posted(emu, { text: content })[0]!.media[0]!.altText, 'Square', platform);
    }
  });
});

describe('create-time checks on library media', () => {
  test('per platform: 422 at the item with the limit and the file\'s value', async (t) => {
    const gif = await readFile(await fx.animatedGif('anim.gif', 3, 64, 64));
    const anim = await uploadOk(w.h, gif, 'image/gif');
    const fb = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'gif', platforms: [{ ...target('facebook'), customMedia: [{ mediaId: anim.id }] }] } });
    assert.equal(fb.status, 422, fb.text);
    assert.equal(fb.body.param, 'platforms[0].customMedia[0]');
    assert.match(fb.body.error, /Facebook/);
    const tall = await uploadOk(w.h, await image('tall.jpg', { width: 100, height: 1200, format: 'jpeg' }), 'image/jpeg');
    const th = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', platforms: [target('threads', { threadItems: [{ content: 'second', mediaItems: [{ mediaId: tall.id }] }] })] } });
    assert.equal(th.status, 422, th.text);
    assert.equal(th.body.param, 'platforms[0].platformSpecificData.threadItems[0].mediaItems[0]');
    assert.match(th.body.error, /Threads/);
    const png = await uploadOk(w.h, await image('tt.png', { width: 500, height: 500, format: 'png' }), 'image/png');
    const tt = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', mediaItems: [{ mediaId: png.id }], platforms: [target('tiktok', { privacyLevel: 'SELF_ONLY', mediaFit: 'none' })] } });
    assert.equal(tt.status, 422, tt.text);
    assert.match(tt.body.error, /TikTok accepts JPEG or WebP.*PNG/);
    if (!(await ffmpegAvailable())) return t.skip('ffmpeg is not installed');
    const wide = await uploadOk(w.h, await readFile(await fx.video('wide.mp4', { width: 2560, height: 1440, seconds: 1, audio: false })), 'video/mp4');
    const x = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', mediaItems: [{ mediaId: wide.id }], platforms: [target('twitter')] } });
    assert.equal(x.status, 422, x.text);
    assert.match(x.body.error, /X accepts videos at most 1920 px wide; this one is 2560×1440/);
    const short = await uploadOk(w.h, await readFile(await fx.video('short.mp4', { width: 320, height: 240, seconds: 1 })), 'video/mp4');
    const ig = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', mediaItems: [{ mediaId: short.id }], platforms: [target('instagram', { contentType: 'reel' })] } });
    assert.equal(ig.status, 422, ig.text);
    assert.match(ig.body.error, /at least 3 s/);
  });

  test("an unknown mediaId, or another key's, is 400 invalid_field_value at the item", async () => {
    const other = await w.h.newKey();
    const theirs = await uploadOk(w.h, await image('theirs.png', { width: 50, height: 50, format: 'png' }), 'image/png', '', other.key);
    for (const id of [theirs.id, 'med_nope']) {
      const res = await w.h.request('POST', '/v1/posts', { body: { isDraft: true, content: 'x', mediaItems: [{ type: 'image', url: 'https://example.com/a.jpg' }, { mediaId: id }] } });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual({ code: res.body.code, param: res.body.param }, { code: 'invalid_field_value', param: 'mediaItems[1].mediaId' });
    }
  });

  test('a draft holds its media: DELETE is 409 MEDIA_IN_USE until the draft drops it or is deleted', async () => {
    const m = await uploadOk(w.h, await image('held.png', { width: 50, height: 50, format: 'png' }), 'image/png');
    const draft = await w.h.request('POST', '/v1/posts', { body: { isDraft: true, content: 'draft', mediaItems: [{ mediaId: m.id }] } });
    assert.equal(draft.status, 201, draft.text);
    const held = await w.h.request('DELETE', `/v1/media/${m.id}`);
    assert.equal(held.status, 409);
    assert.equal(held.body.code, 'MEDIA_IN_USE');
    const patched = await w.h.request('PATCH', `/v1/posts/${draft.body.id}`, { body: { mediaItems: [] } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await w.h.request('DELETE', `/v1/media/${m.id}`)).status, 200);
    // A published post does not hold its media.
    const m2 = await uploadOk(w.h, await image('done.jpg', { width: 60, height: 60, format: 'jpeg' }), 'image/jpeg');
    const done = await publishNow(w.h, { content: `done ${Date.now()}`, mediaItems: [{ mediaId: m2.id }], platforms: [target('twitter')] });
    assert.equal(done.status, 'published');
    const d2 = await w.h.request('POST', '/v1/posts', { body: { isDraft: true, content: 'draft 2', mediaItems: [{ mediaId: m2.id }] } });
    assert.equal((await w.h.request('DELETE', `/v1/media/${m2.id}`)).status, 409);
    assert.equal((await w.h.request('DELETE', `/v1/posts/${d2.body.id}`)).status, 200);
    assert.equal((await w.h.request('DELETE', `/v1/media/${m2.id}`)).status, 200);
  });
});

describe('validate and roles', () => {
  test('POST /v1/posts/validate reports library media problems with the item and the target', async () => {
    const png = await uploadOk(w.h, await image('v.png', { width: 300, height: 300, format: 'png' }), 'image/png');
    const res = await w.h.request('POST', '/v1/posts/validate', {
      body: { publishNow: true, content: 'x', mediaItems: [{ mediaId: png.id }, { mediaId: 'med_missing' }], platforms: [target('instagram', { mediaFit: 'none' }), target('twitter')] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.valid, false);
    const params = res.body.errors.map((e: any) => e.param);
    assert.ok(params.includes('mediaItems[1].mediaId'), JSON.stringify(res.body.errors));
  });

  test('the public URL is served by API processes, not by workers', async () => {
    const m = await uploadOk(w.h, await image('r.jpg', { width: 40, height: 40, format: 'jpeg' }), 'image/jpeg');
    const path = new URL(m.url).pathname;
    const worker = await startHerald({ role: 'worker' });
    try {
      const res = await fetch(`${worker.url}${path}`);
      assert.equal(res.status, 404);
      assert.match(((await res.json()) as { error: string }).error, /^no route GET \/media\//, 'a worker has no such route at all');
    } finally {
      await worker.close();
    }
    assert.equal((await fetch(m.url)).status, 200);
  });
});

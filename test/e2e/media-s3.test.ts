// The media library on the S3 store, end to end against a real S3-compatible server (s3rver on 127.0.0.1):
// uploads stream into the bucket, Herald's public URL serves them from there, a publishing target gets a
// presigned URL minted for it (which the emulator downloads), a platform Herald uploads to gets the bytes
// read from the bucket, renditions are kept in the bucket beside the original, and a delete removes the
// objects. Private addresses are refused to downloads here, as in production: the bucket on loopback is
// reached by the store's own client, never by the download guard.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.ts';
import { sha256, uploadOk } from '../helpers/media.ts';
import { s3Env, startS3Server, type TestS3Server } from '../helpers/s3-server.ts';

let s3: TestS3Server;
let w: World;
let fx: MediaFixtures;
let ig: string;
let xAccount: string;

before(async () => {
  s3 = await startS3Server();
  fx = await createMediaFixtures();
  w = await startWorld({
    mediaOrigins: [new URL(s3.endpoint).origin],
    env: { ...s3Env(s3), HERALD_ALLOW_PRIVATE_NETWORKS: 'false' },
  });
  ig = (await connectAccount(w.h, 'instagram', { sandbox_pages: '1' })).accountId;
  xAccount = (await connectAccount(w.h, 'twitter')).accountId;
});
after(async () => {
  await w.close();
  await s3.close();
  await fx.cleanup();
});

test('upload into the bucket; the public URL serves it from there, with a Range', async () => {
  const bytes = await readFile(await fx.image('s3.jpg', { width: 640, height: 640, format: 'jpeg' }));
  const m = await uploadOk(w.h, bytes, 'image/jpeg');
  assert.ok((await s3.objectKeys()).includes(`${m.id}/original`));
  const got = await fetch(m.url);
  assert.equal(got.status, 200);
  assert.equal(got.headers.get('content-type'), 'image/jpeg');
  assert.equal(sha256(Buffer.from(await got.arrayBuffer())), sha256(bytes));
  const part = await fetch(m.url, { headers: { range: 'bytes=0-99' } });
  assert.equal(part.status, 206);
  assert.equal((await part.arrayBuffer()).byteLength, 100);
});

test('X, which Herald uploads to, gets the bytes read from the bucket (its presigned URL on loopback is refused to downloads)', async () => {
  const bytes = await readFile(await fx.image('to-x.jpg', { width: 800, height: 600, format: 'jpeg' }));
  const m = await uploadOk(w.h, bytes, 'image/jpeg');
  const content = `s3 to X ${Date.now()}`;
  const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [{ platform: 'twitter', accountId: xAccount }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(posted(w.emu('twitter'), { text: content })[0]!.media[0]!.sha256, sha256(bytes));
});

test('a target gets a presigned URL minted for it; a rendition is kept in the bucket; delete removes both', async () => {
  const jpeg = await readFile(await fx.image('as-is.jpg', { width: 1000, height: 1000, format: 'jpeg' }));
  const m = await uploadOk(w.h, jpeg, 'image/jpeg');
  const content = `s3 as is ${Date.now()}`;
  const post = await publishNow(w.h, { content, mediaItems: [{ mediaId: m.id }], platforms: [{ platform: 'instagram', accountId: ig }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const got = posted(w.emu('meta'), { text: content })[0]!.media[0]!;
  assert.ok(got.url.startsWith(`${s3.endpoint}/${s3.bucket}/${m.id}/original?`), got.url);
  assert.match(got.url, /X-Amz-Signature=/);
  assert.equal(got.sha256, sha256(jpeg), 'Instagram downloaded the very bytes from the presigned URL');

  const png = await readFile(await fx.image('fit.png', { width: 2000, height: 1600, format: 'png' }));
  const p = await uploadOk(w.h, png, 'image/png');
  const fitted = `s3 fitted ${Date.now()}`;
  const post2 = await publishNow(w.h, { content: fitted, mediaItems: [{ mediaId: p.id }], platforms: [{ platform: 'instagram', accountId: ig }] });
  assert.equal(post2.status, 'published', JSON.stringify(post2));
  const r = posted(w.emu('meta'), { text: fitted })[0]!.media[0]!;
  assert.equal(r.contentType, 'image/jpeg');
  assert.deepEqual([r.width, r.height], [1440, 1152]);
  const keys = await s3.objectKeys();
  assert.ok(keys.some((k) => k.startsWith(`${p.id}/instagram-`) && k.endsWith('.jpg')), keys.join(', '));

  assert.equal((await w.h.request('DELETE', `/v1/media/${p.id}`)).status, 200);
  assert.equal((await fetch(p.url)).status, 404);
  assert.deepEqual((await s3.objectKeys()).filter((k) => k.startsWith(p.id)), []);
});

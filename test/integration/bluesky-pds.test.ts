// The real Bluesky PDS (test/helpers/pds.ts), called over raw HTTP the way Herald's Bluesky adapter will call
// a user's PDS: app-password sessions, blobs, posts under a record key Herald chooses, edits, deletes, handles.
// Every status and error body asserted here is written down in docs/internal/bluesky-pds.md, for the adapter
// and for the emulator that must answer as the PDS does.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { fetch } from 'undici';
import { PDS_DEFAULT_BLOB_UPLOAD_LIMIT, startPds, usePds, type PdsAccount, type PdsAppPassword } from '../helpers/pds.ts';

const pds = usePds();
const POST = 'app.bsky.feed.post';

interface Answer {
  status: number;
  body: any;
  text: string;
}

async function answer(res: { status: number; text(): Promise<string> }): Promise<Answer> {
  const text = await res.text();
  let body: any = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body, text };
}

/** POST /xrpc/<method> with a JSON body (none when `body` is undefined) and a Bearer token. */
const call = async (method: string, body?: unknown, token?: string): Promise<Answer> =>
  answer(
    await fetch(`${pds().url}/xrpc/${method}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

/** GET /xrpc/<method>?<params>. */
const query = async (method: string, params: Record<string, string>, token?: string): Promise<Answer> =>
  answer(
    await fetch(`${pds().url}/xrpc/${method}?${new URLSearchParams(params)}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    }),
  );

const uploadBlob = async (bytes: Buffer, contentType: string, token: string): Promise<Answer> =>
  answer(
    await fetch(`${pds().url}/xrpc/com.atproto.repo.uploadBlob`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
      body: bytes,
    }),
  );

/** A JWT's header and claims, unverified. */
const jwt = (token: string) => {
  const [header, claims] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  return { header, claims };
};

const S32 = '234567abcdefghijklmnopqrstuvwxyz';
let lastMicros = 0n;
/** Microseconds since the epoch, never the same twice in this file. */
const nowMicros = () => (lastMicros = BigInt(Date.now()) * 1000n > lastMicros ? BigInt(Date.now()) * 1000n : lastMicros + 1n);
/** A TID (the record key of a post): 53 bits of microseconds since the epoch, then 10 bits of clock id, base32-sortable. */
function tid(micros: bigint = nowMicros(), clockId = BigInt(Math.floor(Math.random() * 1024))): string {
  let v = (micros << 10n) | clockId;
  let s = '';
  for (let i = 0; i < 13; i++) {
    s = S32[Number(v & 31n)] + s;
    v >>= 5n;
  }
  return s;
}

/** A valid 4×3 PNG of exactly `size` bytes (a tEXt chunk pads it), or the smallest one. */
function png(size?: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(crc32(typed), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4, 0);
  ihdr.writeUInt32BE(3, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const head = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(3 * (1 + 4 * 3))))]);
  const end = chunk('IEND', Buffer.alloc(0));
  if (size === undefined) return Buffer.concat([head, end]);
  const pad = size - head.length - end.length - 12 - 'pad\0'.length;
  assert.ok(pad >= 0, `a PNG cannot be ${size} bytes`);
  const out = Buffer.concat([head, chunk('tEXt', Buffer.concat([Buffer.from('pad\0'), Buffer.alloc(pad, 0x61)])), end]);
  assert.equal(out.length, size);
  return out;
}

/** An MP4's first box (`ftyp`), which is what the PDS sniffs, then `size` zero bytes. */
const mp4 = (size = 4096) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(4), Buffer.from('isommp42'), Buffer.alloc(size)]);

const XRPC_ERROR = { 'content-type': 'application/json; charset=utf-8' };

let alice: PdsAccount; // Herald's user
let bob: PdsAccount; // someone alice mentions
let appPassword: PdsAppPassword;
let session: { accessJwt: string; refreshJwt: string; did: string; handle: string };

before(async () => {
  await pds.ready;
  alice = await pds().createAccount();
  bob = await pds().createAccount();
  appPassword = await pds().createAppPassword(alice);
});

test('the PDS and its PLC directory listen on 127.0.0.1 only, and /xrpc/_health answers', async () => {
  const listening = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[3] === '0A') // LISTEN
      .map((f) => f[1]!);
  for (const url of [pds().url, pds().plcUrl]) {
    const port = Number(new URL(url).port).toString(16).toUpperCase().padStart(4, '0');
    assert.deepEqual(listening('/proc/net/tcp').filter((a) => a.endsWith(`:${port}`)), [`0100007F:${port}`], url);
    assert.deepEqual(listening('/proc/net/tcp6').filter((a) => a.endsWith(`:${port}`)), [], url);
  }
  const health = await query('_health', {});
  assert.equal(health.status, 200);
  assert.deepEqual(health.body, { version: 'herald-test' });
  assert.match(pds().url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(pds().publicUrl, pds().url.replace('127.0.0.1', 'localhost'));
});

test('createAccount needs no invite; createAppPassword gives a xxxx-xxxx-xxxx-xxxx password', () => {
  assert.match(alice.did, /^did:plc:[a-z2-7]{24}$/);
  assert.ok(alice.handle.endsWith('.test'));
  assert.equal(appPassword.privileged, false);
  assert.match(appPassword.password, /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
});

test('createSession with an app password: 200, an app-password access token (2 h) and a refresh token (90 days)', async () => {
  const res = await call('com.atproto.server.createSession', { identifier: alice.handle, password: appPassword.password });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['accessJwt', 'active', 'did', 'email', 'emailConfirmed', 'handle', 'refreshJwt']);
  assert.equal(res.body.did, alice.did);
  assert.equal(res.body.handle, alice.handle);
  assert.equal(res.body.active, true);
  const access = jwt(res.body.accessJwt);
  const refresh = jwt(res.body.refreshJwt);
  assert.deepEqual(access.header, { typ: 'at+jwt', alg: 'HS256' });
  assert.deepEqual(refresh.header, { typ: 'refresh+jwt', alg: 'HS256' });
  assert.equal(access.claims.scope, 'com.atproto.appPass');
  assert.equal(refresh.claims.scope, 'com.atproto.refresh');
  assert.equal(access.claims.aud, 'did:web:localhost');
  assert.equal(access.claims.sub, alice.did);
  assert.equal(access.claims.exp - access.claims.iat, 2 * 3600);
  assert.equal(refresh.claims.exp - refresh.claims.iat, 90 * 24 * 3600);
  session = res.body;

  // The identifier may also be the DID or the email.
  for (const identifier of [alice.did, alice.email]) {
    const other = await call('com.atproto.server.createSession', { identifier, password: appPassword.password });
    assert.equal(other.status, 200, `${identifier}: ${other.text}`);
  }
});

test('createSession with a wrong password, or an unknown handle: 401 AuthenticationRequired', async () => {
  for (const identifier of [alice.handle, `nobody${pds().handleDomain}`]) {
    const res = await call('com.atproto.server.createSession', { identifier, password: 'wrong-password' });
    assert.equal(res.status, 401);
    assert.equal(res.text, '{"error":"AuthenticationRequired","message":"Invalid identifier or password"}');
  }
});

test('getSession with the access token; refreshSession turns the refresh token into a new pair', async () => {
  const got = await query('com.atproto.server.getSession', {}, session.accessJwt);
  assert.equal(got.status, 200, got.text);
  assert.deepEqual(got.body, { did: alice.did, handle: alice.handle, email: alice.email, emailConfirmed: false, active: true });

  const refreshed = await call('com.atproto.server.refreshSession', undefined, session.refreshJwt);
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.deepEqual(Object.keys(refreshed.body).sort(), ['accessJwt', 'active', 'did', 'email', 'emailConfirmed', 'handle', 'refreshJwt']);
  assert.notEqual(refreshed.body.refreshJwt, session.refreshJwt);
  assert.equal(jwt(refreshed.body.accessJwt).claims.scope, 'com.atproto.appPass');
  // The old refresh token, used again at once (a retry after a lost answer): the same new refresh token
  // (its id; the PDS signs it again, so the issue time may have moved on a second), not an error.
  const again = await call('com.atproto.server.refreshSession', undefined, session.refreshJwt);
  assert.equal(again.status, 200, again.text);
  assert.equal(jwt(again.body.refreshJwt).claims.jti, jwt(refreshed.body.refreshJwt).claims.jti);
  // Each token only where it belongs.
  const accessAsRefresh = await call('com.atproto.server.refreshSession', undefined, refreshed.body.accessJwt);
  assert.equal(accessAsRefresh.status, 400);
  assert.equal(accessAsRefresh.text, '{"error":"InvalidToken","message":"Token could not be verified"}');
  const refreshAsAccess = await query('com.atproto.server.getSession', {}, refreshed.body.refreshJwt);
  assert.equal(refreshAsAccess.status, 400);
  assert.equal(refreshAsAccess.text, '{"error":"InvalidToken","message":"Token could not be verified"}');
  // The old access token stays good until it expires.
  assert.equal((await query('com.atproto.server.getSession', {}, session.accessJwt)).status, 200);
  session = { ...session, ...refreshed.body };
});

test('no token: 401 AuthMissing; an app-password session cannot make app passwords', async () => {
  const res = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, record: { $type: POST, text: 'x', createdAt: new Date().toISOString() } });
  assert.equal(res.status, 401);
  assert.equal(res.text, '{"error":"AuthMissing","message":"Authentication Required"}');
  const scoped = await call('com.atproto.server.createAppPassword', { name: 'from-an-app-password' }, session.accessJwt);
  assert.equal(scoped.status, 400);
  assert.equal(scoped.text, '{"error":"InvalidToken","message":"Bad token scope"}');
});

test('uploadBlob: a PNG becomes a blob ref; the PDS takes the MIME type from the bytes; over its limit 413', async () => {
  const image = png();
  const res = await uploadBlob(image, 'image/png', session.accessJwt);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['blob']);
  assert.equal(res.body.blob.$type, 'blob');
  assert.match(res.body.blob.ref.$link, /^bafkrei[a-z2-7]{52}$/);
  assert.equal(res.body.blob.mimeType, 'image/png');
  assert.equal(res.body.blob.size, image.length);

  const sniffed = await uploadBlob(mp4(), 'image/png', session.accessJwt);
  assert.equal(sniffed.status, 200, sniffed.text);
  assert.equal(sniffed.body.blob.mimeType, 'video/mp4');

  assert.equal(pds().blobUploadLimit, PDS_DEFAULT_BLOB_UPLOAD_LIMIT);
  const atLimit = await uploadBlob(png(pds().blobUploadLimit), 'image/png', session.accessJwt);
  assert.equal(atLimit.status, 200, atLimit.text);
  const over = await uploadBlob(png(pds().blobUploadLimit + 1), 'image/png', session.accessJwt);
  assert.equal(over.status, 413);
  assert.equal(over.text, '{"error":"PayloadTooLarge","message":"request entity too large"}');
});

test('an image over 2,000,000 bytes uploads, but a post may not embed it: 400 InvalidRequest "blob too big"', async () => {
  const blobOf = async (size: number) => (await uploadBlob(png(size), 'image/png', session.accessJwt)).body.blob;
  const withImage = (blob: unknown) => ({
    repo: alice.did,
    collection: POST,
    record: { $type: POST, text: 'big', createdAt: new Date().toISOString(), embed: { $type: 'app.bsky.embed.images', images: [{ image: blob, alt: '' }] } },
  });
  const fits = await call('com.atproto.repo.createRecord', withImage(await blobOf(2_000_000)), session.accessJwt);
  assert.equal(fits.status, 200, fits.text);
  const tooBig = await blobOf(2_000_001);
  assert.equal(tooBig.size, 2_000_001);
  const refused = await call('com.atproto.repo.createRecord', withImage(tooBig), session.accessJwt);
  assert.equal(refused.status, 400);
  assert.equal(
    refused.text,
    '{"error":"InvalidRequest","message":"Invalid app.bsky.feed.post record: blob too big (maximum 2000000, got 2000001) at $.record.embed.images[0].image"}',
  );
});

test('posts: createRecord under a caller-chosen TID with facets; the same rkey again is a 500 and the first post stands', async () => {
  const mention = `@${bob.handle}`;
  const link = 'https://example.com/herald';
  const text = `héllo ${mention} 🎉 see ${link} #herald`;
  const at = (part: string) => {
    const byteStart = Buffer.byteLength(text.slice(0, text.indexOf(part)));
    return { byteStart, byteEnd: byteStart + Buffer.byteLength(part) };
  };
  const resolved = await query('com.atproto.identity.resolveHandle', { handle: bob.handle });
  const image = (await uploadBlob(png(), 'image/png', session.accessJwt)).body.blob;
  const record = {
    $type: POST,
    text,
    createdAt: new Date().toISOString(),
    langs: ['en'],
    facets: [
      { index: at(mention), features: [{ $type: 'app.bsky.richtext.facet#mention', did: resolved.body.did }] },
      { index: at(link), features: [{ $type: 'app.bsky.richtext.facet#link', uri: link }] },
      { index: at('#herald'), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'herald' }] },
    ],
    embed: { $type: 'app.bsky.embed.images', images: [{ image, alt: 'a pixel', aspectRatio: { width: 4, height: 3 } }] },
  };
  const rkey = tid();
  const first = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record }, session.accessJwt);
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(Object.keys(first.body).sort(), ['cid', 'commit', 'uri', 'validationStatus']);
  assert.equal(first.body.uri, `at://${alice.did}/${POST}/${rkey}`);
  assert.match(first.body.cid, /^bafyrei[a-z2-7]{52}$/);
  assert.deepEqual(Object.keys(first.body.commit).sort(), ['cid', 'rev']);
  assert.equal(first.body.validationStatus, 'valid');

  // Herald's never-twice evidence: a second create under the same rkey does not make a second post. The PDS
  // answers it as an internal error (its repository refuses the key: "There is already a value at key:
  // app.bsky.feed.post/<rkey>", in its log only), whatever the second record says.
  const second = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record: { ...record, text: 'second' } }, session.accessJwt);
  assert.equal(second.status, 500);
  assert.equal(second.text, '{"error":"InternalServerError","message":"Internal Server Error"}');
  const same = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record }, session.accessJwt);
  assert.equal(same.status, 500);
  const viaApplyWrites = await call(
    'com.atproto.repo.applyWrites',
    { repo: alice.did, writes: [{ $type: 'com.atproto.repo.applyWrites#create', collection: POST, rkey, value: record }] },
    session.accessJwt,
  );
  assert.equal(viaApplyWrites.status, 500);
  assert.equal(viaApplyWrites.text, '{"error":"InternalServerError","message":"Internal Server Error"}');

  // What the adapter does after any doubtful answer: read the rkey back.
  const stored = await query('com.atproto.repo.getRecord', { repo: alice.did, collection: POST, rkey });
  assert.equal(stored.status, 200, stored.text);
  assert.deepEqual(stored.body, { uri: first.body.uri, cid: first.body.cid, value: record });

  // A record key must be a TID for posts.
  const notTid = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey: 'self', record }, session.accessJwt);
  assert.equal(notTid.status, 400);
  assert.equal(notTid.text, '{"error":"InvalidRequest","message":"Invalid record key for app.bsky.feed.post: Invalid TID string (got \\"self\\") at $"}');
  const bad = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey: 'not a tid!', record }, session.accessJwt);
  assert.equal(bad.status, 400);
  assert.equal(bad.text, '{"error":"InvalidRequest","message":"Invalid record key (got \\"not a tid!\\") at $.rkey"}');
  // Text is counted in graphemes: 300 at most.
  const long = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, record: { $type: POST, text: 'é'.repeat(301), createdAt: new Date().toISOString() } }, session.accessJwt);
  assert.equal(long.status, 400);
  assert.equal(long.text, '{"error":"InvalidRequest","message":"Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text"}');
});

test('getRecord and listRecords of app.bsky.feed.post; a missing record is 400 RecordNotFound', async () => {
  const account = await pds().createAccount();
  const rkeys = [tid(1_700_000_000_000_000n, 1n), tid(1_700_000_000_000_001n, 1n), tid(1_700_000_000_000_002n, 1n)];
  for (const [i, rkey] of rkeys.entries()) {
    const res = await call('com.atproto.repo.createRecord', { repo: account.did, collection: POST, rkey, record: { $type: POST, text: `post ${i}`, createdAt: new Date().toISOString() } }, account.accessJwt);
    assert.equal(res.status, 200, res.text);
  }
  const listed = await query('com.atproto.repo.listRecords', { repo: account.did, collection: POST });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(Object.keys(listed.body).sort(), ['cursor', 'records']);
  // Newest rkey first; the cursor is the last rkey listed.
  assert.deepEqual(listed.body.records.map((r: any) => r.uri), [...rkeys].reverse().map((k) => `at://${account.did}/${POST}/${k}`));
  assert.deepEqual(Object.keys(listed.body.records[0]).sort(), ['cid', 'uri', 'value']);
  assert.equal(listed.body.cursor, rkeys[0]);
  const page = await query('com.atproto.repo.listRecords', { repo: account.did, collection: POST, limit: '2' });
  assert.equal(page.body.records.length, 2);
  assert.equal(page.body.cursor, rkeys[1]);
  const rest = await query('com.atproto.repo.listRecords', { repo: account.did, collection: POST, limit: '2', cursor: page.body.cursor });
  assert.deepEqual(rest.body.records.map((r: any) => r.uri), [`at://${account.did}/${POST}/${rkeys[0]}`]);
  const oldestFirst = await query('com.atproto.repo.listRecords', { repo: account.did, collection: POST, reverse: 'true' });
  assert.deepEqual(oldestFirst.body.records.map((r: any) => r.uri), rkeys.map((k) => `at://${account.did}/${POST}/${k}`));

  const missing = await query('com.atproto.repo.getRecord', { repo: account.did, collection: POST, rkey: tid() });
  assert.equal(missing.status, 400);
  assert.match(missing.text, /^\{"error":"RecordNotFound","message":"Could not locate record: at:\/\/did:plc:[a-z2-7]+\/app\.bsky\.feed\.post\/[a-z2-7]{13}"\}$/);
});

test('putRecord edits a post in place (a new cid under the same uri); swapRecord guards against a stale edit', async () => {
  const rkey = tid();
  const record = { $type: POST, text: 'before', createdAt: new Date().toISOString() };
  const created = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record }, session.accessJwt);
  assert.equal(created.status, 200, created.text);
  const edited = await call('com.atproto.repo.putRecord', { repo: alice.did, collection: POST, rkey, record: { ...record, text: 'after' }, swapRecord: created.body.cid }, session.accessJwt);
  assert.equal(edited.status, 200, edited.text);
  assert.deepEqual(Object.keys(edited.body).sort(), ['cid', 'commit', 'uri', 'validationStatus']);
  assert.equal(edited.body.uri, created.body.uri);
  assert.notEqual(edited.body.cid, created.body.cid);
  const read = await query('com.atproto.repo.getRecord', { repo: alice.did, collection: POST, rkey });
  assert.equal(read.body.value.text, 'after');
  assert.equal(read.body.cid, edited.body.cid);

  const stale = await call('com.atproto.repo.putRecord', { repo: alice.did, collection: POST, rkey, record: { ...record, text: 'stale' }, swapRecord: created.body.cid }, session.accessJwt);
  assert.equal(stale.status, 400);
  assert.equal(stale.text, `{"error":"InvalidSwap","message":"Record was at ${edited.body.cid}"}`);

  // putRecord on a key that does not exist creates it.
  const fresh = tid();
  const put = await call('com.atproto.repo.putRecord', { repo: alice.did, collection: POST, rkey: fresh, record }, session.accessJwt);
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.uri, `at://${alice.did}/${POST}/${fresh}`);
});

test('deleteRecord: 200 with the commit, 200 {} when already gone; the rkey may then be used again; the post\'s blobs go with it', async () => {
  const rkey = tid();
  const image = (await uploadBlob(png(200), 'image/png', session.accessJwt)).body.blob;
  const record = { $type: POST, text: 'to delete', createdAt: new Date().toISOString(), embed: { $type: 'app.bsky.embed.images', images: [{ image, alt: '' }] } };
  assert.equal((await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record }, session.accessJwt)).status, 200);

  const deleted = await call('com.atproto.repo.deleteRecord', { repo: alice.did, collection: POST, rkey }, session.accessJwt);
  assert.equal(deleted.status, 200, deleted.text);
  assert.deepEqual(Object.keys(deleted.body), ['commit']);
  assert.deepEqual(Object.keys(deleted.body.commit).sort(), ['cid', 'rev']);
  const again = await call('com.atproto.repo.deleteRecord', { repo: alice.did, collection: POST, rkey }, session.accessJwt);
  assert.equal(again.status, 200);
  assert.equal(again.text, '{}');
  const gone = await query('com.atproto.repo.getRecord', { repo: alice.did, collection: POST, rkey });
  assert.equal(gone.status, 400);
  assert.equal(gone.text, `{"error":"RecordNotFound","message":"Could not locate record: at://${alice.did}/${POST}/${rkey}"}`);

  // The same record again: its image was removed with the post, so it must be uploaded anew.
  const reused = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record }, session.accessJwt);
  assert.equal(reused.status, 400);
  assert.equal(reused.text, `{"error":"BlobNotFound","message":"Could not find blob: ${image.ref.$link}"}`);
  const reuploaded = await uploadBlob(png(200), 'image/png', session.accessJwt);
  assert.equal(reuploaded.body.blob.ref.$link, image.ref.$link);
  const recreated = await call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, rkey, record }, session.accessJwt);
  assert.equal(recreated.status, 200, recreated.text);
});

test('video without a video service: uploadBlob stores video/mp4 like any blob, app.bsky.embed.video is accepted, app.bsky.video.* is 400', async () => {
  const bytes = mp4(3_000_000); // over the 2,000,000 of an image, under the upload limit
  const uploaded = await uploadBlob(bytes, 'video/mp4', session.accessJwt);
  assert.equal(uploaded.status, 200, uploaded.text);
  assert.equal(uploaded.body.blob.mimeType, 'video/mp4');
  assert.equal(uploaded.body.blob.size, bytes.length);
  const posted = await call(
    'com.atproto.repo.createRecord',
    {
      repo: alice.did,
      collection: POST,
      rkey: tid(),
      record: { $type: POST, text: 'a video', createdAt: new Date().toISOString(), embed: { $type: 'app.bsky.embed.video', video: uploaded.body.blob, aspectRatio: { width: 16, height: 9 } } },
    },
    session.accessJwt,
  );
  assert.equal(posted.status, 200, posted.text);
  assert.equal(posted.body.validationStatus, 'valid');

  // The real upload path (app.bsky.video.uploadVideo on the video service, with a service token) is not here:
  const limits = await query('app.bsky.video.getUploadLimits', {}, session.accessJwt);
  assert.equal(limits.status, 400);
  assert.equal(limits.text, '{"error":"InvalidRequest","message":"No service configured for app.bsky.video.getUploadLimits"}');
  // ...though the PDS does sign the service token the client would take there.
  const serviceAuth = await query('com.atproto.server.getServiceAuth', { aud: 'did:web:video.bsky.app', lxm: 'app.bsky.video.uploadVideo' }, session.accessJwt);
  assert.equal(serviceAuth.status, 200, serviceAuth.text);
  assert.equal(jwt(serviceAuth.body.token).claims.lxm, 'app.bsky.video.uploadVideo');
  assert.equal(jwt(serviceAuth.body.token).claims.iss, alice.did);
});

test('resolveHandle: a mention\'s DID; an unknown handle is 400 HandleNotFound; app.bsky.* reads have no AppView here', async () => {
  const res = await query('com.atproto.identity.resolveHandle', { handle: bob.handle });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { did: bob.did });
  const unknown = await query('com.atproto.identity.resolveHandle', { handle: `nobody${pds().handleDomain}` });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.text, '{"error":"HandleNotFound","message":"Unable to resolve handle"}');

  const thread = await query('app.bsky.feed.getPostThread', { uri: `at://${alice.did}/${POST}/${tid()}` }, session.accessJwt);
  assert.equal(thread.status, 400);
  assert.equal(thread.text, '{"error":"InvalidRequest","message":"No service configured for app.bsky.feed.getPostThread"}');
});

test('deleteSession revokes the refresh token (200, empty body); the access token works until it expires', async () => {
  const opened = await call('com.atproto.server.createSession', { identifier: alice.handle, password: appPassword.password });
  assert.equal(opened.status, 200, opened.text);
  const withAccess = await call('com.atproto.server.deleteSession', undefined, opened.body.accessJwt);
  assert.equal(withAccess.status, 400);
  assert.equal(withAccess.text, '{"error":"InvalidToken","message":"Token could not be verified"}');

  const res = await fetch(`${pds().url}/xrpc/com.atproto.server.deleteSession`, { method: 'POST', headers: { authorization: `Bearer ${opened.body.refreshJwt}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), null);
  assert.equal(await res.text(), '');
  const refresh = await call('com.atproto.server.refreshSession', undefined, opened.body.refreshJwt);
  assert.equal(refresh.status, 400);
  assert.equal(refresh.text, '{"error":"ExpiredToken","message":"Token has been revoked"}');
  const still = await query('com.atproto.server.getSession', {}, opened.body.accessJwt);
  assert.equal(still.status, 200, still.text);
});

test('errors are JSON with a charset', async () => {
  const res = await fetch(`${pds().url}/xrpc/com.atproto.server.getSession`);
  assert.equal(res.status, 401);
  assert.equal(res.headers.get('content-type'), XRPC_ERROR['content-type']);
  assert.equal(await res.text(), '{"error":"AuthMissing","message":"Authentication Required"}');
});

test('what the PDS took: start time and memory (reported, not bounded)', (t) => {
  const { rssBytes, peakRssBytes } = pds().memory();
  t.diagnostic(`PDS started in ${Math.round(pds().startMs)} ms; resident ${Math.round(rssBytes / 2 ** 20)} MiB now, ${Math.round(peakRssBytes / 2 ** 20)} MiB at peak`);
  assert.ok(rssBytes > 0);
});

test('stop() ends the PDS process and removes its data directory', async () => {
  const other = await startPds();
  assert.ok(existsSync(other.dataDir));
  process.kill(other.pid, 0); // alive
  await other.stop();
  assert.throws(() => process.kill(other.pid, 0), { code: 'ESRCH' });
  assert.equal(existsSync(other.dataDir), false);
  await other.stop(); // twice is fine
});

// One table of what a PDS answers to the calls Herald makes, run against the real PDS (@atproto/pds on
// 127.0.0.1, test/helpers/pds.ts) and against Herald's Bluesky emulator: the emulator refuses what the
// real PDS refuses, with the same status and the same body (docs/internal/bluesky-pds.md).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { encodeTid } from '../../src/platforms/bluesky/tid.ts';
import { createBlueskyEmulator, type BlueskyEmulator } from '../../src/sandbox/bluesky/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { PDS_DEFAULT_BLOB_UPLOAD_LIMIT, tokenId, usePds } from '../helpers/pds.ts';
import { jwt, mp4, png, POST, xrpcClient } from './bluesky-helpers.ts';

interface Account {
  did: string;
  handle: string;
  email: string;
  appPassword: string;
}

interface Target {
  name: string;
  url(): string;
  createAccount(): Promise<Account>;
  unknownHandle(): string;
}

const pds = usePds();
let server: EmulatorServer;
let emu: BlueskyEmulator;
before(async () => {
  // Like the real PDS here: its upload limit, no DID document in session answers, no accounts made at sign-in.
  emu = createBlueskyEmulator({ blobUploadLimit: PDS_DEFAULT_BLOB_UPLOAD_LIMIT, didDocWithSession: false, autoCreateAccounts: false });
  server = await startEmulatorServer([emu]);
});
after(() => server?.close());

const targets: Target[] = [
  {
    name: 'real PDS',
    url: () => pds().url,
    async createAccount() {
      await pds.ready;
      const a = await pds().createAccount();
      const app = await pds().createAppPassword(a);
      return { did: a.did, handle: a.handle, email: a.email, appPassword: app.password };
    },
    unknownHandle: () => `nobody${pds().handleDomain}`,
  },
  {
    name: 'emulator',
    url: () => server.rootOf('bluesky'),
    async createAccount() {
      return emu.createAccount({ handle: `u${randomBytes(5).toString('hex')}.test` });
    },
    unknownHandle: () => 'nobody.test',
  },
];

let micros = BigInt(Date.now()) * 1000n;
const tid = () => encodeTid((micros += 1000n), 7);
const now = () => new Date().toISOString();
const CID = /^bafyrei[a-z2-7]{52}$/;

for (const target of targets) {
  describe(target.name, () => {
    const x = xrpcClient(() => target.url());
    let alice: Account;
    let bob: Account;
    let access: string;
    let refresh: string;
    const post = (record: unknown, extra: Record<string, unknown> = {}) => x.call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, record, ...extra }, access);
    const expect = (res: { status: number; text: string }, status: number, body: unknown) => {
      assert.equal(res.status, status, res.text);
      assert.equal(res.text, JSON.stringify(body));
    };

    before(async () => {
      alice = await target.createAccount();
      bob = await target.createAccount();
      const session = await x.call('com.atproto.server.createSession', { identifier: alice.handle, password: alice.appPassword });
      assert.equal(session.status, 200, session.text);
      access = session.body.accessJwt;
      refresh = session.body.refreshJwt;
    });

    test('createSession: the session keys, app-password scope, 2 h and 90 days; the DID and e-mail sign in too', async () => {
      const res = await x.call('com.atproto.server.createSession', { identifier: alice.handle, password: alice.appPassword });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(Object.keys(res.body).sort(), ['accessJwt', 'active', 'did', 'email', 'emailConfirmed', 'handle', 'refreshJwt']);
      const a = jwt(res.body.accessJwt);
      const r = jwt(res.body.refreshJwt);
      assert.deepEqual(a.header, { typ: 'at+jwt', alg: 'HS256' });
      assert.deepEqual(r.header, { typ: 'refresh+jwt', alg: 'HS256' });
      assert.equal(a.claims.scope, 'com.atproto.appPass');
      assert.equal(a.claims.sub, alice.did);
      assert.equal(a.claims.exp - a.claims.iat, 7200);
      assert.equal(r.claims.scope, 'com.atproto.refresh');
      assert.equal(r.claims.exp - r.claims.iat, 90 * 86400);
      assert.equal(typeof r.claims.jti, 'string');
      for (const identifier of [alice.did, alice.email]) {
        assert.equal((await x.call('com.atproto.server.createSession', { identifier, password: alice.appPassword })).status, 200, identifier);
      }
    });

    test('createSession refusals: wrong password, unknown handle, missing password', async () => {
      for (const identifier of [alice.handle, target.unknownHandle()]) {
        expect(await x.call('com.atproto.server.createSession', { identifier, password: 'wrong-password' }), 401, { error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
      }
      expect(await x.call('com.atproto.server.createSession', { identifier: alice.handle }), 400, { error: 'InvalidRequest', message: 'Missing required key "password" at $' });
    });

    test('sessions: getSession, refresh rotation with the same pair for the old token, tokens only where they belong, deleteSession', async () => {
      const s = await x.call('com.atproto.server.createSession', { identifier: alice.handle, password: alice.appPassword });
      const got = await x.query('com.atproto.server.getSession', {}, s.body.accessJwt);
      assert.equal(got.status, 200, got.text);
      assert.deepEqual(got.body, { did: alice.did, handle: alice.handle, email: alice.email, emailConfirmed: false, active: true });
      const next = await x.call('com.atproto.server.refreshSession', undefined, s.body.refreshJwt);
      assert.equal(next.status, 200, next.text);
      assert.notEqual(next.body.refreshJwt, s.body.refreshJwt);
      const again = await x.call('com.atproto.server.refreshSession', undefined, s.body.refreshJwt);
      assert.equal(again.status, 200, again.text);
      assert.equal(tokenId(again.body.refreshJwt), tokenId(next.body.refreshJwt));
      assert.ok(tokenId(next.body.refreshJwt));
      const invalid = { error: 'InvalidToken', message: 'Token could not be verified' };
      expect(await x.call('com.atproto.server.refreshSession', undefined, next.body.accessJwt), 400, invalid);
      expect(await x.query('com.atproto.server.getSession', {}, next.body.refreshJwt), 400, invalid);
      expect(await x.query('com.atproto.server.getSession', {}, 'garbage'), 400, invalid);
      expect(await x.call('com.atproto.server.deleteSession', undefined, next.body.accessJwt), 400, invalid);
      expect(await x.call('com.atproto.server.refreshSession'), 401, { error: 'AuthMissing', message: 'Authentication Required' });
      const basic = await fetch(`${target.url()}/xrpc/com.atproto.server.getSession`, { headers: { authorization: 'Basic abc' } });
      expect({ status: basic.status, text: await basic.text() }, 400, { error: 'InvalidToken', message: 'Unexpected authorization type' });

      const ended = await x.call('com.atproto.server.deleteSession', undefined, next.body.refreshJwt);
      assert.equal(ended.status, 200, ended.text);
      assert.equal(ended.text, '');
      expect(await x.call('com.atproto.server.refreshSession', undefined, next.body.refreshJwt), 400, { error: 'ExpiredToken', message: 'Token has been revoked' });
      // Access tokens are not revoked: they live until they expire.
      assert.equal((await x.query('com.atproto.server.getSession', {}, next.body.accessJwt)).status, 200);
    });

    test('uploadBlob: a blob reference with the same CID as the real PDS computes; the type comes from the bytes; 413 over the limit', async () => {
      const image = png();
      const res = await x.upload(image, 'image/png', access);
      assert.equal(res.status, 200, res.text);
      // The CID of raw bytes is the same wherever it is computed.
      assert.deepEqual(res.body, { blob: { $type: 'blob', ref: { $link: 'bafkreigtuz3rbnv4y624we6puegs7usw2nzkisid4hcak3ya7k52didtya' }, mimeType: 'image/png', size: image.length } });
      const sniffed = await x.upload(mp4(), 'image/png', access);
      assert.equal(sniffed.body.blob.mimeType, 'video/mp4');
      expect(await x.upload(new Uint8Array([1, 2, 3]), undefined, access), 400, { error: 'InvalidRequest', message: 'Request encoding (Content-Type) required but not provided' });
      assert.equal((await x.upload(png(PDS_DEFAULT_BLOB_UPLOAD_LIMIT), 'image/png', access)).status, 200);
      expect(await x.upload(png(PDS_DEFAULT_BLOB_UPLOAD_LIMIT + 1), 'image/png', access), 413, { error: 'PayloadTooLarge', message: 'request entity too large' });
    });

    test('createRecord under a chosen TID; the same key again is an anonymous 500 and the first post stands', async () => {
      const rkey = tid();
      const record = { $type: POST, text: 'first', createdAt: now(), langs: ['en'] };
      const first = await post(record, { rkey });
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(Object.keys(first.body).sort(), ['cid', 'commit', 'uri', 'validationStatus']);
      assert.equal(first.body.uri, `at://${alice.did}/${POST}/${rkey}`);
      assert.match(first.body.cid, CID);
      assert.deepEqual(Object.keys(first.body.commit).sort(), ['cid', 'rev']);
      assert.equal(first.body.validationStatus, 'valid');
      expect(await post({ ...record, text: 'second' }, { rkey }), 500, { error: 'InternalServerError', message: 'Internal Server Error' });
      const stored = await x.query('com.atproto.repo.getRecord', { repo: alice.did, collection: POST, rkey });
      assert.deepEqual(stored.body, { uri: first.body.uri, cid: first.body.cid, value: record });
      // The handle names the repository too.
      assert.equal((await post(record, { repo: alice.handle, rkey: tid() })).status, 200);
    });

    const refusals: [string, () => Promise<{ status: number; text: string }>, number, unknown][] = [
      ['rkey "self"', () => post({ $type: POST, text: 'x', createdAt: now() }, { rkey: 'self' }), 400, { error: 'InvalidRequest', message: 'Invalid record key for app.bsky.feed.post: Invalid TID string (got "self") at $' }],
      ['rkey "not a tid!"', () => post({ $type: POST, text: 'x', createdAt: now() }, { rkey: 'not a tid!' }), 400, { error: 'InvalidRequest', message: 'Invalid record key (got "not a tid!") at $.rkey' }],
      ['no text', () => post({ $type: POST, createdAt: now() }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Missing required key "text" at $.record' }],
      ['no createdAt', () => post({ $type: POST, text: 'x' }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Missing required key "createdAt" at $.record' }],
      ['a bad createdAt', () => post({ $type: POST, text: 'x', createdAt: 'yesterday' }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Invalid datetime (got "yesterday") at $.record.createdAt' }],
      ['another $type', () => post({ $type: 'app.bsky.feed.like', text: 'x', createdAt: now() }), 400, { error: 'InvalidRequest', message: 'Invalid $type: expected app.bsky.feed.post, got app.bsky.feed.like' }],
      ['301 graphemes', () => post({ $type: POST, text: 'é'.repeat(301), createdAt: now() }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: grapheme too big (maximum 300, got 301) at $.record.text' }],
      ['3,002 bytes', () => post({ $type: POST, text: 'é'.repeat(1501), createdAt: now() }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: string too big (maximum 3000, got 3002) at $.record.text' }],
      ['4 langs', () => post({ $type: POST, text: 'x', createdAt: now(), langs: ['en', 'fr', 'de', 'es'] }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: array too big (maximum 3, got 4) at $.record.langs' }],
      ['a bad lang', () => post({ $type: POST, text: 'x', createdAt: now(), langs: ['not a lang!'] }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Invalid language (got "not a lang!") at $.record.langs[0]' }],
      ['a link facet that is no URI', () => post({ $type: POST, text: 'x', createdAt: now(), facets: [{ index: { byteStart: 0, byteEnd: 1 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'not a uri' }] }] }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Invalid uri (got "not a uri") at $.record.facets[0].features[0].uri' }],
      ['a mention by handle', () => post({ $type: POST, text: 'x', createdAt: now(), facets: [{ index: { byteStart: 0, byteEnd: 1 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'alice.test' }] }] }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Invalid DID (got "alice.test") at $.record.facets[0].features[0].did' }],
      ['a 65-grapheme tag', () => post({ $type: POST, text: 'x', createdAt: now(), facets: [{ index: { byteStart: 0, byteEnd: 1 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'a'.repeat(65) }] }] }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: grapheme too big (maximum 64, got 65) at $.record.facets[0].features[0].tag' }],
      ['a reply ref without cid', () => post({ $type: POST, text: 'x', createdAt: now(), reply: { root: { uri: `at://${alice.did}/${POST}/3kabcabcabcab` }, parent: { uri: `at://${alice.did}/${POST}/3kabcabcabcab`, cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' } } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Missing required key "cid" at $.record.reply.root' }],
      ['five images', () => post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [1, 2, 3, 4, 5].map(() => ({ alt: '', image: { $type: 'blob', ref: { $link: 'bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' }, mimeType: 'image/png', size: 10 } })) } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: array too big (maximum 4, got 5) at $.record.embed.images' }],
      ['a blob never uploaded', () => post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ alt: '', image: { $type: 'blob', ref: { $link: 'bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' }, mimeType: 'image/png', size: 10 } }] } }), 400, { error: 'BlobNotFound', message: 'Could not find blob: bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' }],
      ['an external card without title', () => post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.external', external: { uri: 'https://example.com', description: '' } } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Missing required key "title" at $.record.embed.external' }],
      ['no record', () => x.call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST }, access), 400, { error: 'InvalidRequest', message: 'Missing required key "record" at $' }],
      ['a form body', () => x.call('com.atproto.repo.createRecord', 'a=b', access, 'application/x-www-form-urlencoded'), 400, { error: 'InvalidRequest', message: 'Wrong request encoding (Content-Type): application/x-www-form-urlencoded' }],
      ['no body', () => x.call('com.atproto.repo.createRecord', undefined, access), 400, { error: 'InvalidRequest', message: 'Request encoding (Content-Type) required but not provided' }],
      ['no token', () => x.call('com.atproto.repo.createRecord', { repo: alice.did, collection: POST, record: { $type: POST, text: 'x', createdAt: now() } }), 401, { error: 'AuthMissing', message: 'Authentication Required' }],
      ["another account's repo", () => post({ $type: POST, text: 'x', createdAt: now() }, { repo: bob.did }), 401, { error: 'AuthenticationRequired', message: 'Authentication Required' }],
      ['a repo that does not exist', () => post({ $type: POST, text: 'x', createdAt: now() }, { repo: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' }), 403, { error: 'AccountNotFound', message: 'Account not found' }],
      ['GET on a procedure', () => x.query('com.atproto.repo.createRecord', {}, access), 400, { error: 'InvalidRequest', message: 'Incorrect HTTP method (GET) expected POST' }],
      ['POST on a query', () => x.query('com.atproto.repo.getRecord', { repo: 'x', collection: POST, rkey: 'y' }, undefined, 'POST'), 400, { error: 'InvalidRequest', message: 'Incorrect HTTP method (POST) expected GET' }],
      ['an AppView method', () => x.query('app.bsky.actor.getProfile', { actor: 'x' }), 400, { error: 'InvalidRequest', message: 'No service configured for app.bsky.actor.getProfile' }],
    ];
    for (const [name, run, status, body] of refusals) {
      test(`createRecord refuses ${name}`, async () => expect(await run(), status, body));
    }

    test('blobs in posts: the type must fit the embed, the reference must match the stored blob, images at most 2,000,000 bytes', async () => {
      const text = await x.upload(Buffer.from('hello world'), 'text/plain', access);
      const blob = text.body.blob;
      expect(await post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ alt: '', image: blob }] } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Expected "image/*" (got "text/plain") at $.record.embed.images[0].image.mimeType' });
      expect(await post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ alt: '', image: { ...blob, mimeType: 'image/png' } }] } }), 400, { error: 'InvalidMimeType', message: 'Referenced Mimetype does not match stored blob. Expected: text/plain, Got: image/png' });
      expect(await post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ image: { ...blob, mimeType: 'image/png' } }] } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Missing required key "alt" at $.record.embed.images[0]' });
      expect(await post({ $type: POST, text: 'x', createdAt: now(), embed: { $type: 'app.bsky.embed.video', video: blob } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Expected "video/mp4" (got "text/plain") at $.record.embed.video.mimeType' });
      const fits = (await x.upload(png(2_000_000), 'image/png', access)).body.blob;
      assert.equal((await post({ $type: POST, text: 'big', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ image: fits, alt: 'a', aspectRatio: { width: 4, height: 3 } }] } })).status, 200);
      const big = (await x.upload(png(2_000_001), 'image/png', access)).body.blob;
      expect(await post({ $type: POST, text: 'big', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ image: big, alt: '' }] } }), 400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: blob too big (maximum 2000000, got 2000001) at $.record.embed.images[0].image' });
      const video = (await x.upload(mp4(3_000_000), 'video/mp4', access)).body.blob;
      assert.equal(video.mimeType, 'video/mp4');
      assert.equal((await post({ $type: POST, text: 'a video', createdAt: now(), embed: { $type: 'app.bsky.embed.video', video, aspectRatio: { width: 16, height: 9 } } })).status, 200);
    });

    test('getRecord and listRecords: newest first, cursor = the last key listed, limits; RecordNotFound', async () => {
      const carol = await target.createAccount();
      const s = await x.call('com.atproto.server.createSession', { identifier: carol.handle, password: carol.appPassword });
      const keys = [tid(), tid(), tid()];
      for (const [i, rkey] of keys.entries()) {
        const res = await x.call('com.atproto.repo.createRecord', { repo: carol.did, collection: POST, rkey, record: { $type: POST, text: `post ${i}`, createdAt: now() } }, s.body.accessJwt);
        assert.equal(res.status, 200, res.text);
      }
      const uri = (k: string) => `at://${carol.did}/${POST}/${k}`;
      const listed = await x.query('com.atproto.repo.listRecords', { repo: carol.did, collection: POST });
      assert.deepEqual(listed.body.records.map((r: any) => r.uri), [...keys].reverse().map(uri));
      assert.deepEqual(Object.keys(listed.body.records[0]).sort(), ['cid', 'uri', 'value']);
      assert.equal(listed.body.cursor, keys[0]);
      const page = await x.query('com.atproto.repo.listRecords', { repo: carol.did, collection: POST, limit: '2' });
      assert.equal(page.body.cursor, keys[1]);
      const rest = await x.query('com.atproto.repo.listRecords', { repo: carol.did, collection: POST, limit: '2', cursor: page.body.cursor });
      assert.deepEqual(rest.body.records.map((r: any) => r.uri), [uri(keys[0]!)]);
      const oldestFirst = await x.query('com.atproto.repo.listRecords', { repo: carol.did, collection: POST, reverse: 'true' });
      assert.deepEqual(oldestFirst.body.records.map((r: any) => r.uri), keys.map(uri));
      expect(await x.query('com.atproto.repo.listRecords', { repo: carol.did, collection: POST, limit: '101' }), 400, { error: 'InvalidRequest', message: 'Invalid com.atproto.repo.listRecords params: integer too big (maximum 100, got 101)' });
      expect(await x.query('com.atproto.repo.listRecords', { repo: carol.did, collection: POST, limit: '0' }), 400, { error: 'InvalidRequest', message: 'Invalid com.atproto.repo.listRecords params: integer too small (minimum 1, got 0)' });
      expect(await x.query('com.atproto.repo.listRecords', { repo: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', collection: POST }), 400, { error: 'InvalidRequest', message: 'Could not find repo: did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' });
      const missing = tid();
      expect(await x.query('com.atproto.repo.getRecord', { repo: carol.did, collection: POST, rkey: missing }), 400, { error: 'RecordNotFound', message: `Could not locate record: ${uri(missing)}` });
      expect(await x.query('com.atproto.repo.getRecord', { repo: carol.did, collection: POST }), 400, { error: 'InvalidRequest', message: 'Invalid com.atproto.repo.getRecord params: Missing required key "rkey"' });
      expect(await x.query('com.atproto.repo.getRecord', { repo: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', collection: POST, rkey: missing }), 400, { error: 'InvalidRequest', message: 'Could not locate record' });
    });

    test('deleteRecord: the commit, then {} when already gone; the key is free again; the post\'s blob went with it', async () => {
      const rkey = tid();
      const image = (await x.upload(png(300), 'image/png', access)).body.blob;
      const record = { $type: POST, text: 'to delete', createdAt: now(), embed: { $type: 'app.bsky.embed.images', images: [{ image, alt: '' }] } };
      assert.equal((await post(record, { rkey })).status, 200);
      const deleted = await x.call('com.atproto.repo.deleteRecord', { repo: alice.did, collection: POST, rkey }, access);
      assert.equal(deleted.status, 200, deleted.text);
      assert.deepEqual(Object.keys(deleted.body), ['commit']);
      const again = await x.call('com.atproto.repo.deleteRecord', { repo: alice.did, collection: POST, rkey }, access);
      assert.equal(again.text, '{}');
      expect(await x.call('com.atproto.repo.deleteRecord', { repo: bob.did, collection: POST, rkey }, access), 401, { error: 'AuthenticationRequired', message: 'Authentication Required' });
      expect(await post(record, { rkey }), 400, { error: 'BlobNotFound', message: `Could not find blob: ${image.ref.$link}` });
      assert.equal((await x.upload(png(300), 'image/png', access)).body.blob.ref.$link, image.ref.$link);
      assert.equal((await post(record, { rkey })).status, 200);
    });

    test('resolveHandle: the DID; unknown 400 HandleNotFound; not a handle 400', async () => {
      const ok = await x.query('com.atproto.identity.resolveHandle', { handle: bob.handle });
      assert.deepEqual(ok.body, { did: bob.did });
      expect(await x.query('com.atproto.identity.resolveHandle', { handle: target.unknownHandle() }), 400, { error: 'HandleNotFound', message: 'Unable to resolve handle' });
      expect(await x.query('com.atproto.identity.resolveHandle', { handle: 'not a handle' }), 400, { error: 'InvalidRequest', message: 'Invalid com.atproto.identity.resolveHandle params: Invalid handle (got "not a handle")' });
      expect(await x.query('com.atproto.identity.resolveHandle', {}), 400, { error: 'InvalidRequest', message: 'Invalid com.atproto.identity.resolveHandle params: Missing required key "handle"' });
    });

    test('the refresh token of a revoked session refuses; an old access token still reads', async () => {
      assert.equal((await x.query('com.atproto.server.getSession', {}, access)).status, 200);
      assert.ok(refresh);
    });
  });
}

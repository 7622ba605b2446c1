// Herald's Bluesky adapter against the Bluesky emulator: every media shape, and every fault the emulator
// injects (the real PDS cannot): a token expiring mid-upload, 429 with its reset, a day's write points
// used up, 500 then success, a create that commits and never answers, a cut read-back, comments and
// unpublish. What was really published is read from the emulator's ledger.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBlueskyAdapter } from '../../src/platforms/bluesky/adapter.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type { AccountCredentials, CommentRequest, PlatformAdapter } from '../../src/platforms/types.ts';
import { createBlueskyEmulator, type BlueskyEmulator } from '../../src/sandbox/bluesky/emulator.ts';
import type { FaultRule } from '../../src/sandbox/kit/faults.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { blueskyDeps, mp4, png, publishRequest, signIn, startFileServer, type FileServer } from './bluesky-helpers.ts';

const APP_PASSWORD = 'abcd-efgh-ijkl-mnop';
let emu: BlueskyEmulator;
let server: EmulatorServer;
let files: FileServer;
let root: string;
let deps: AdapterDeps;
let adapter: PlatformAdapter;
let alice: AccountCredentials;

before(async () => {
  emu = createBlueskyEmulator();
  server = await startEmulatorServer([emu]);
  files = await startFileServer();
  root = server.rootOf('bluesky');
  deps = blueskyDeps(root);
  adapter = createBlueskyAdapter(deps);
  alice = await signIn(adapter, { identifier: 'alice.bsky.social', password: APP_PASSWORD, serverUrl: root });
});
after(async () => {
  await server?.close();
  await files?.close();
});
beforeEach(() => emu.faults.clear());

const fault = (rule: FaultRule) => emu.faults.add(rule);
const ledger = (text: string) => emu.ledger.list({ accountId: alice.accountId }).filter((e) => e.text === text && e.kind !== 'delete');
const image = (name: string, width = 4, height = 3, size?: number) => files.put(`/${name}.png`, png(size, width, height), 'image/png');

test('connect: a sandbox account is made at first sign-in, with a profile; a wrong app password is refused', async () => {
  const connected = await adapter.connectWithPassword!({ identifier: 'alice.bsky.social', password: APP_PASSWORD, serverUrl: root });
  assert.ok(connected.ok, JSON.stringify(connected));
  const [account] = connected.accounts;
  assert.match(account!.accountId, /^did:plc:[a-z2-7]{24}$/);
  assert.equal(account!.username, 'alice.bsky.social');
  assert.equal(account!.displayName, 'Sandbox alice');
  assert.equal((await fetch(account!.avatarUrl!)).headers.get('content-type'), 'image/png');
  // Like bsky.social, the session names the account's PDS in its DID document.
  assert.deepEqual(account!.meta, { serverUrl: root, pdsUrl: root, handle: 'alice.bsky.social' });
  for (const password of ['wxyz-wxyz-wxyz-wxyz', 'not an app password']) {
    const refused = await adapter.connectWithPassword!({ identifier: 'alice.bsky.social', password, serverUrl: root });
    assert.equal(!refused.ok && refused.category, 'auth_expired');
  }
  assert.equal(adapter.edit, undefined, 'Bluesky posts cannot be edited');
});

test('every media shape publishes once: text, one image, four images, a video, a link card', async () => {
  const page = files.put('/page.html', '<head><meta property="og:title" content="A page"><meta name="description" content="About it."></head>', 'text/html');
  const shapes: [string, Parameters<typeof publishRequest>[2]][] = [
    ['text only', {}],
    ['one image', { media: [{ type: 'image', url: image('one', 30, 20), altText: 'one' }] }],
    ['four images', { media: [1, 2, 3, 4].map((i) => ({ type: 'image' as const, url: image(`four${i}`, i, 1), altText: `image ${i}` })) }],
    ['a video', { media: [{ type: 'video', url: files.put('/v.mp4', mp4(2_500_000, 640, 360), 'video/mp4'), altText: 'moving' }] }],
    [`a card ${page}`, {}],
  ];
  for (const [text, options] of shapes) {
    const out = await adapter.publish(publishRequest(alice, text, options));
    assert.ok(out.ok, `${text}: ${JSON.stringify(out)}`);
    const entries = ledger(text);
    assert.equal(entries.length, 1, text);
    assert.equal(entries[0]!.id, out.platformPostId);
  }
  const four = ledger('four images')[0]!.extra!;
  assert.deepEqual((four.images as any[]).map((i) => [i.alt, i.aspectRatio, i.mimeType]), [1, 2, 3, 4].map((i) => [`image ${i}`, { width: i, height: 1 }, 'image/png']));
  const video = ledger('a video')[0]!.extra!.video as any;
  assert.deepEqual([video.size, video.mimeType, video.alt, video.aspectRatio], [2_500_000, 'video/mp4', 'moving', { width: 640, height: 360 }]);
  const card = ledger(`a card ${page}`)[0]!.extra!.external as any;
  assert.deepEqual([card.uri, card.title, card.description], [page, 'A page', 'About it.']);
});

test('media the platform would refuse fails before anything is posted: a 2,000,001-byte image, a video that is not MP4, a PDF', async () => {
  const cases: [string, Parameters<typeof publishRequest>[2], RegExp][] = [
    ['big image', { media: [{ type: 'image', url: image('big', 4, 3, 2_000_001) }] }, /image 1 .* is 2,000,001 bytes; Bluesky takes images of at most 2,000,000 bytes/],
    ['webm video', { media: [{ type: 'video', url: files.put('/v.webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0]), 'video/webm') }] }, /not an MP4 file/],
    ['a document', { media: [{ type: 'document', url: files.put('/d.pdf', '%PDF-1.7', 'application/pdf') }] }, /cannot carry documents/],
  ];
  for (const [text, options, message] of cases) {
    const out = await adapter.publish(publishRequest(alice, text, options));
    assert.equal(!out.ok && out.category, 'media_rejected', text);
    assert.match(!out.ok ? out.message : '', message);
    assert.equal(ledger(text).length, 0);
  }
});

test('a token that expires mid-upload: auth_expired; after a refresh the same attempt finishes, once', async () => {
  let fetches = 0;
  const expiring = createBlueskyAdapter({
    ...deps,
    media: {
      fetch: async (url, options) => {
        if (++fetches === 2) emu.oauth.expireAccessTokens();
        return deps.media.fetch(url, options);
      },
    },
  });
  const text = `expiring ${Date.now()}`;
  const request = publishRequest(alice, text, { media: [{ type: 'image', url: image('e1') }, { type: 'image', url: image('e2') }] });
  const first = await expiring.publish(request);
  assert.equal(!first.ok && first.category, 'auth_expired', JSON.stringify(first));
  assert.match(!first.ok ? first.message : '', /ExpiredToken: Token has expired/);
  const refreshed = await adapter.refresh(alice);
  assert.ok(refreshed.ok);
  request.account = { ...alice, accessToken: refreshed.grant.accessToken, refreshToken: refreshed.grant.refreshToken ?? null };
  const second = await expiring.publish(request);
  assert.ok(second.ok, JSON.stringify(second));
  assert.equal(ledger(text).length, 1);
  assert.equal(ledger(text)[0]!.media.length, 2);
  alice = request.account;
});

test('429 with its reset: rate_limited with retryAt from ratelimit-reset; a day of write points used up: quota_exceeded until its reset', async () => {
  fault({ kind: 'rate_limited', path: 'com.atproto.repo.createRecord', resetSeconds: 30 });
  const before = Date.now();
  const limited = await adapter.publish(publishRequest(alice, 'limited'));
  assert.equal(!limited.ok && limited.category, 'rate_limited', JSON.stringify(limited));
  const retryAt = !limited.ok ? limited.retryAt! : 0;
  assert.ok(retryAt >= before + 29_000 && retryAt <= Date.now() + 31_000, `retryAt ${retryAt - before} ms ahead`);

  emu.settings.writePointsPerDay = emu.state.repos.get(alice.accountId)!.writes.reduce((n, [, p]) => n + p, 0) + 3;
  try {
    assert.ok((await adapter.publish(publishRequest(alice, 'the last one today'))).ok);
    const quota = await adapter.publish(publishRequest(alice, 'one too many'));
    assert.equal(!quota.ok && quota.category, 'quota_exceeded', JSON.stringify(quota));
    assert.ok(!quota.ok && quota.retryAt! > Date.now() + 3600_000, 'the reset is the end of the day window');
    assert.equal(ledger('one too many').length, 0);
  } finally {
    emu.settings.writePointsPerDay = 35_000;
  }
});

test('500 then success: the key is read back (absent), the retry uses the same key, one post', async () => {
  fault({ kind: 'server_error', path: 'com.atproto.repo.createRecord' });
  const text = `five hundred ${Date.now()}`;
  const request = publishRequest(alice, text);
  const first = await adapter.publish(request);
  assert.equal(!first.ok && first.category, 'platform_unavailable', JSON.stringify(first));
  assert.match(!first.ok ? first.message : '', /the post is not there/);
  const rkey = (request.checkpoint!.posts as { rkey: string }[])[0]!.rkey;
  const second = await adapter.publish(request);
  assert.ok(second.ok, JSON.stringify(second));
  assert.ok(second.platformPostId.endsWith(`/${rkey}`));
  assert.equal(ledger(text).length, 1);
});

test('a create that commits and never answers: the key is read back and the post is the one published, once', async () => {
  fault({ kind: 'accept_then_hang', path: 'com.atproto.repo.createRecord' });
  const text = `hang ${Date.now()}`;
  const out = await adapter.publish(publishRequest(alice, text));
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(ledger(text).length, 1);
  assert.equal(ledger(text)[0]!.id, out.platformPostId);
});

test('a cut answer and a cut read-back: outcome_unknown; reconcile finds exactly one post; publishing again sends nothing', async () => {
  fault({ kind: 'accept_then_reset', path: 'com.atproto.repo.createRecord' });
  fault({ kind: 'drop', path: 'com.atproto.repo.getRecord' });
  const text = `unknown ${Date.now()}`;
  const request = publishRequest(alice, text, { settings: { threadItems: [{ content: `${text} (2)` }] } });
  const out = await adapter.publish(request);
  assert.equal(!out.ok && out.category, 'outcome_unknown', JSON.stringify(out));
  const reconciled = await adapter.reconcile(request);
  // The first post is there, the second was never sent: publishing resumes after the first.
  assert.deepEqual(reconciled, { ok: true, found: false });
  assert.equal(ledger(text).length, 1);
  const creates = emu.calls.filter((c) => c.path.endsWith('createRecord')).length;
  const resumed = await adapter.publish(request);
  assert.ok(resumed.ok, JSON.stringify(resumed));
  assert.equal(emu.calls.filter((c) => c.path.endsWith('createRecord')).length, creates + 1, 'only the thread item is sent');
  assert.equal(ledger(text).length, 1);
  assert.equal(ledger(`${text} (2)`).length, 1);
  assert.equal(resumed.platformPostId, ledger(text)[0]!.id);
  const again = await adapter.reconcile(request);
  assert.deepEqual(again, { ok: true, found: true, platformPostId: resumed.platformPostId, platformPostUrl: resumed.platformPostUrl });
});

test('a connection cut before the create reached the PDS: nothing there, the retry posts once', async () => {
  fault({ kind: 'drop', path: 'com.atproto.repo.createRecord' });
  const text = `dropped ${Date.now()}`;
  const request = publishRequest(alice, text);
  const first = await adapter.publish(request);
  assert.equal(!first.ok && first.category, 'platform_unavailable', JSON.stringify(first));
  assert.equal(ledger(text).length, 0);
  assert.ok((await adapter.publish(request)).ok);
  assert.equal(ledger(text).length, 1);
});

test('refusals map to categories: expired token, invalid record, bad scope; no checkpoint means nothing to reconcile', async () => {
  const cases: [FaultRule['kind'], string][] = [
    ['expired_token', 'auth_expired'],
    ['validation', 'content_rejected'],
    ['permission', 'permission_missing'],
  ];
  for (const [kind, category] of cases) {
    fault({ kind, path: 'com.atproto.repo.createRecord' });
    const out = await adapter.publish(publishRequest(alice, `refused ${kind}`));
    assert.equal(!out.ok && out.category, category, kind);
    assert.equal(ledger(`refused ${kind}`).length, 0);
  }
  assert.deepEqual(await adapter.reconcile(publishRequest(alice, 'never sent')), { ok: true, found: false });
});

function commentRequest(platformPostId: string, content: string): CommentRequest {
  const request: CommentRequest = {
    account: alice,
    platformPostId,
    content,
    settings: {},
    checkpoint: null,
    async saveCheckpoint(cp) {
      request.checkpoint = cp;
    },
    attemptStartedAt: Date.now(),
  };
  return request;
}

test('the first comment: a reply to the post; a lost answer is found by its key, and sending again adds nothing', async () => {
  const post = await adapter.publish(publishRequest(alice, `commented ${Date.now()}`));
  assert.ok(post.ok);
  const text = `comment ${Date.now()}`;
  fault({ kind: 'accept_then_reset', path: 'com.atproto.repo.createRecord' });
  // The read of the post being replied to goes through; the read-back after the lost answer does not.
  let reads = 0;
  const cutting = createBlueskyAdapter({
    ...deps,
    serverHttp: {
      request: async (req) => (req.url.endsWith('getRecord') && ++reads === 2 ? { sent: 'unknown', error: 'connection cut' } : deps.serverHttp.request(req)),
    },
  });
  const request = commentRequest(post.platformPostId, text);
  const sent = await cutting.comment!.send(request);
  assert.equal(!sent.ok && sent.category, 'outcome_unknown', JSON.stringify(sent));
  const found = await adapter.comment!.find(request);
  assert.ok(found.ok && found.found === true, JSON.stringify(found));
  const again = await adapter.comment!.send(request);
  assert.deepEqual(again, { ok: true, platformCommentId: found.platformCommentId });
  const entries = ledger(text);
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.kind, 'reply');
  assert.equal((entries[0]!.extra!.reply as any).root.uri, post.platformPostId);
  // A comment on a post that is gone says so.
  const gone = await adapter.comment!.send(commentRequest(post.platformPostId.replace(/[a-z2-7]{13}$/, '3kaaaaaaaaaaa'), 'orphan'));
  assert.equal(!gone.ok && gone.category, 'content_rejected');
});

test('unpublish deletes the post and its thread items, newest first', async () => {
  const text = `to remove ${Date.now()}`;
  const request = publishRequest(alice, text, { settings: { threadItems: [{ content: `${text} 2` }, { content: `${text} 3` }] } });
  const out = await adapter.publish(request);
  assert.ok(out.ok);
  assert.deepEqual(await adapter.unpublish!({ account: alice, platformPostId: out.platformPostId, checkpoint: request.checkpoint }), { ok: true, deleted: true });
  const deletes = emu.ledger.list({ kind: 'delete' }).slice(-3).map((e) => e.id);
  const uris = (request.checkpoint!.posts as { uri: string }[]).map((p) => p.uri);
  assert.deepEqual(deletes, [...uris].reverse());
  assert.ok(ledger(text)[0]!.extra!.deletedAt);
});

test('unpublish takes the first comment down first: a reply outlives its post on Bluesky', async () => {
  const text = `commented ${Date.now()}`;
  const request = publishRequest(alice, text);
  const out = await adapter.publish(request);
  assert.ok(out.ok);
  const c = await adapter.comment!.send(commentRequest(out.platformPostId, `${text} reply`));
  assert.ok(c.ok);
  assert.deepEqual(await adapter.unpublish!({ account: alice, platformPostId: out.platformPostId, checkpoint: request.checkpoint, platformCommentId: c.platformCommentId }), { ok: true, deleted: true });
  assert.deepEqual(emu.ledger.list({ kind: 'delete' }).slice(-2).map((e) => e.id), [c.platformCommentId, out.platformPostId]);
});

test('health: the session answers and the account is active; a deactivated account cannot post', async () => {
  const ok = await adapter.health(alice);
  assert.ok(ok.ok, JSON.stringify(ok));
  assert.deepEqual(ok.permissions, ['com.atproto.appPass']);
  const account = emu.state.accounts.get(alice.accountId)!;
  account.active = false;
  account.status = 'deactivated';
  try {
    const off = await adapter.health(alice);
    assert.equal(!off.ok && off.category, 'permission_missing');
    assert.match(!off.ok ? off.message : '', /deactivated/);
  } finally {
    account.active = true;
    delete account.status;
  }
  emu.oauth.expireAccessTokens();
  const expired = await adapter.health(alice);
  assert.equal(!expired.ok && expired.category, 'auth_expired');
});

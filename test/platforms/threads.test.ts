// The Threads adapter against the Threads emulator over real HTTP on 127.0.0.1.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import { createThreadsAdapter } from '../../src/platforms/threads/adapter.ts';
import {
  StaleAttemptError,
  type AccountCredentials,
  type Checkpoint,
  type ConnectedAccount,
  type MediaItem,
  type PlatformAdapter,
  type PublishRequest,
} from '../../src/platforms/types.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import { createThreadsEmulator, type ThreadsEmulator, type ThreadsEmulatorOptions } from '../../src/sandbox/threads/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent } from '../helpers/platform.ts';
import { gate, until } from '../helpers/wait.ts';

const DAY_MS = 24 * 60 * 60_000;
const REDIRECT = 'https://app.example.com/connect/threads/callback';

interface Rig {
  emu: ThreadsEmulator;
  server: EmulatorServer;
  root: string;
  /** Moves the emulator's clock (token age, container expiry); the adapter keeps real time. */
  clock: { offset: number };
  adapter(overrides?: Partial<AdapterDeps>): PlatformAdapter;
}

async function startRig(options: ThreadsEmulatorOptions = {}): Promise<Rig> {
  const clock = { offset: 0 };
  const emu = createThreadsEmulator({ now: () => Date.now() + clock.offset, processingMs: 30, ...options });
  const server = await startEmulatorServer([emu]);
  const root = server.rootOf('threads');
  return {
    emu,
    server,
    root,
    clock,
    adapter: (overrides = {}) => createThreadsAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/oauth/authorize` }, overrides)),
  };
}

async function connect(adapter: PlatformAdapter, user = 'alice', extra: Record<string, string> = {}): Promise<ConnectedAccount> {
  const url = adapter.authorizeUrl({ state: 'state-1', redirectUri: REDIRECT });
  const { code, state } = await approveConsent(url, { sandbox_user: user, ...extra });
  assert.equal(state, 'state-1');
  const res = await adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(res.ok, res.ok ? '' : res.message);
  assert.equal(res.accounts.length, 1);
  return res.accounts[0]!;
}

function credentials(a: ConnectedAccount): AccountCredentials {
  return {
    accountId: a.accountId,
    username: a.username,
    accessToken: a.grant.accessToken,
    refreshToken: null,
    expiresAt: a.grant.expiresAt,
    scopes: a.grant.scopes,
    meta: a.meta,
  };
}

type Req = PublishRequest & { saved: Checkpoint[] };

function request(account: AccountCredentials, input: { content?: string; media?: MediaItem[]; settings?: Record<string, unknown>; checkpoint?: Checkpoint | null; onSave?: (cp: Checkpoint) => void }): Req {
  const saved: Checkpoint[] = [];
  return {
    account,
    content: input.content ?? '',
    media: input.media ?? [],
    settings: input.settings ?? {},
    checkpoint: input.checkpoint ?? null,
    attemptStartedAt: Date.now(),
    saved,
    async saveCheckpoint(cp) {
      input.onSave?.(cp);
      saved.push(structuredClone(cp));
    },
  };
}

describe('Threads adapter against the emulator', () => {
  let rig: Rig;
  let image: MediaItem;
  let video: MediaItem;
  before(async () => {
    rig = await startRig();
    image = { type: 'image', url: `${rig.server.mediaUrl}/sample.jpg` };
    video = { type: 'video', url: `${rig.server.mediaUrl}/sample.mp4` };
  });
  after(() => rig.server.close());
  beforeEach(() => {
    rig.emu.reset();
    rig.clock.offset = 0;
  });

  test('authorize URL carries the Threads app, scopes, code flow and state', () => {
    const url = new URL(rig.adapter().authorizeUrl({ state: 's', redirectUri: REDIRECT }));
    assert.equal(url.origin + url.pathname, `${rig.root}/oauth/authorize`);
    assert.equal(url.searchParams.get('client_id'), 'herald-sandbox');
    assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('state'), 's');
    assert.deepEqual(url.searchParams.get('scope')!.split(','), ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete']);
    assert.equal(url.searchParams.get('code_challenge'), null);
  });

  test('connect: code, long-lived token, profile; the id survives beyond 2^53', async () => {
    const before = Date.now();
    const account = await connect(rig.adapter(), 'alice');
    const user = [...rig.emu.store.users.values()].find((u) => u.username === 'alice')!;
    assert.equal(account.accountId, user.id);
    assert.ok(BigInt(account.accountId) > 2n ** 53n);
    assert.equal(account.username, 'alice');
    assert.equal(account.displayName, 'Alice');
    assert.match(account.avatarUrl!, /\/threads\/avatars\//);
    assert.equal(account.grant.refreshToken, undefined);
    assert.deepEqual(account.grant.scopes, ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete']);
    const expiresAt = account.grant.expiresAt!;
    // 60 days from the long-lived exchange (whole seconds), however long connecting took.
    assert.ok(expiresAt >= before + 60 * DAY_MS - 1_000 && expiresAt <= Date.now() + 60 * DAY_MS, `expiresAt ${expiresAt - before} ms ahead`);
    // The stored token is the long-lived one.
    assert.equal(rig.emu.store.tokens.get(account.grant.accessToken)?.longLived, true);
  });

  test('connect: a refused code is an unusable grant; declined scopes are reported as granted by Threads', async () => {
    const adapter = rig.adapter();
    const bad = await adapter.connect({ code: 'not-a-code', redirectUri: REDIRECT });
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.category, 'auth_expired');
    const partial = await connect(adapter, 'bob', { sandbox_decline: 'threads_manage_replies' });
    assert.deepEqual(partial.grant.scopes, ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_delete']);
  });

  test('health: scopes, expiry and publishing quota', async () => {
    const adapter = rig.adapter();
    const from = Date.now();
    const account = credentials(await connect(adapter));
    const h = await adapter.health(account);
    assert.ok(h.ok, h.ok ? '' : h.message);
    assert.deepEqual(h.permissions, ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete']);
    // 60 days from the long-lived exchange (whole seconds), however long connecting took.
    assert.ok(h.expiresAt! >= from + 60 * DAY_MS - 1_000 && h.expiresAt! <= Date.now() + 60 * DAY_MS, `expiresAt ${h.expiresAt! - from} ms ahead`);
    assert.deepEqual(h.quota, { used: 0, total: 250 });
    assert.ok((await adapter.publish(request(account, { content: 'counted' }))).ok);
    const again = await adapter.health(account);
    assert.deepEqual(again.ok && again.quota, { used: 1, total: 250 });
  });

  test('refresh: refused while the token is younger than 24 h, then a new 60-day token', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const young = await adapter.refresh(account);
    assert.equal(young.ok, false);
    assert.equal(!young.ok && young.category, 'platform_unavailable');
    rig.clock.offset = 25 * 60 * 60_000;
    const refreshed = await adapter.refresh(account);
    assert.ok(refreshed.ok, refreshed.ok ? '' : refreshed.message);
    assert.notEqual(refreshed.grant.accessToken, account.accessToken);
    assert.deepEqual(refreshed.grant.scopes, account.scopes);
    assert.ok(refreshed.grant.expiresAt! > Date.now() + 59 * DAY_MS);
    const h = await adapter.health({ ...account, accessToken: refreshed.grant.accessToken });
    assert.ok(h.ok);
  });

  test('an expired token is auth_expired everywhere; revoke answers revoked:false', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    assert.ok(rig.emu.oauth.expireAccessTokens() > 0);
    const published = await adapter.publish(request(account, { content: 'never' }));
    assert.equal(!published.ok && published.category, 'auth_expired');
    const refreshed = await adapter.refresh(account);
    assert.equal(!refreshed.ok && refreshed.category, 'auth_expired');
    const health = await adapter.health(account);
    assert.equal(!health.ok && health.category, 'auth_expired');
    assert.deepEqual(await adapter.revoke(account), { ok: true, revoked: false });
    assert.equal(rig.emu.ledger.list().length, 0);
  });

  test('publishes text, a single image and a single video', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    for (const [content, media, mediaType] of [
      ['just words', [], 'TEXT_POST'],
      ['a picture', [image], 'IMAGE'],
      ['', [video], 'VIDEO'],
    ] as const) {
      const res = await adapter.publish(request(account, { content, media: [...media] }));
      assert.ok(res.ok, res.ok ? '' : res.message);
      const entry = rig.emu.ledger.get(res.platformPostId)!;
      assert.equal(entry.text, content);
      assert.equal(entry.kind, 'post');
      assert.equal(entry.extra?.mediaType, mediaType);
      assert.deepEqual(entry.media, media.map((m) => ({ type: m.type, url: m.url })));
      const post = rig.emu.store.posts.get(res.platformPostId)!;
      assert.equal(res.platformPostUrl, rig.emu.store.permalink(post));
    }
    assert.equal(rig.emu.ledger.list().length, 3);
  });

  test('publishes a mixed carousel as one post', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const media = [image, video, image];
    const res = await adapter.publish(request(account, { content: 'three things', media }));
    assert.ok(res.ok, res.ok ? '' : res.message);
    const entries = rig.emu.ledger.list();
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.extra?.mediaType, 'CAROUSEL_ALBUM');
    assert.deepEqual(entries[0]!.media.map((m) => m.type), ['image', 'video', 'image']);
  });

  test('a thread: items become a reply chain; reply control on every post, topic tag on the first', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const req = request(account, {
      content: 'one',
      settings: { threadItems: [{ content: 'two', mediaItems: [image] }, { content: 'three' }], replyControl: 'mentioned_only', topicTag: 'Herald' },
    });
    const res = await adapter.publish(req);
    assert.ok(res.ok, res.ok ? '' : res.message);
    const [first, second, third] = rig.emu.ledger.list();
    assert.equal(rig.emu.ledger.list().length, 3);
    assert.deepEqual([first!.text, second!.text, third!.text], ['one', 'two', 'three']);
    assert.deepEqual([first!.kind, second!.kind, third!.kind], ['post', 'reply', 'reply']);
    assert.equal(res.platformPostId, first!.id);
    assert.equal(second!.extra?.replyToId, first!.id);
    assert.equal(third!.extra?.replyToId, second!.id);
    assert.equal(second!.extra?.mediaType, 'IMAGE');
    for (const e of [first, second, third]) assert.equal(e!.extra?.replyControl, 'mentioned_only');
    assert.deepEqual([first!.extra?.topicTag, second!.extra?.topicTag], ['Herald', undefined]);
    // Every published item was checkpointed as it went.
    const last = req.saved.at(-1) as { published: { id: string }[]; pending?: unknown };
    assert.deepEqual(last.published.map((p) => p.id), [first!.id, second!.id, third!.id]);
    assert.equal(last.pending, undefined);
  });

  test('a thread without threads_manage_replies stops before posting anything', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter, 'carol', { sandbox_decline: 'threads_manage_replies' }));
    const res = await adapter.publish(request(account, { content: 'root', settings: { threadItems: [{ content: 'reply' }] } }));
    assert.equal(!res.ok && res.category, 'permission_missing');
    assert.equal(rig.emu.ledger.list().length, 0);
  });

  test('a container in ERROR is media_rejected with the documented reason', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const bad = { type: 'video' as const, url: `${rig.server.mediaUrl}/sample.mp4?sandbox_error=INVALID_DURATION` };
    const attempt = request(account, { content: 'clip', media: [bad] });
    const single = await adapter.publish(attempt);
    assert.equal(!single.ok && single.category, 'media_rejected');
    assert.equal(!single.ok && single.platformCode, 'INVALID_DURATION');
    // A retry does not trust the dead container: it asks Threads again with a new one.
    const containers = rig.emu.store.containers.size;
    const retry = await adapter.publish(request(account, { content: 'clip', media: [bad], checkpoint: attempt.saved.at(-1)! }));
    assert.equal(!retry.ok && retry.category, 'media_rejected');
    assert.equal(rig.emu.store.containers.size, containers + 1);
    const carousel = await adapter.publish(request(account, { content: 'set', media: [image, bad] }));
    assert.equal(!carousel.ok && carousel.category, 'media_rejected');
    assert.equal(rig.emu.ledger.list().length, 0);
  });

  test('injected faults map to categories', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const cases = [
      [{ kind: 'server_error', method: 'POST', path: '/threads' }, 'platform_unavailable'],
      [{ kind: 'validation', method: 'POST', path: '/threads' }, 'content_rejected'],
      [{ kind: 'permission', method: 'POST', path: '/threads' }, 'permission_missing'],
      [{ kind: 'expired_token', method: 'GET', path: '/threads_publishing_limit' }, 'auth_expired'],
      [{ kind: 'drop', method: 'POST', path: '/threads' }, 'platform_unavailable'], // a lost container is harmless
    ] as const;
    for (const [fault, category] of cases) {
      rig.emu.faults.add({ ...fault });
      const res = await adapter.publish(request(account, { content: `fault ${fault.kind}` }));
      assert.equal(!res.ok && res.category, category, fault.kind);
      rig.emu.faults.clear();
    }
    assert.equal(rig.emu.ledger.list().length, 0);
  });

  test('a throttled publish is rate_limited with the time Graph gives', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    rig.emu.faults.add({ kind: 'rate_limited', method: 'POST', path: '/threads_publish', resetSeconds: 120 });
    const started = Date.now();
    const res = await adapter.publish(request(account, { content: 'slow down' }));
    assert.equal(!res.ok && res.category, 'rate_limited');
    const retryAt = !res.ok ? res.retryAt! : 0;
    assert.ok(retryAt >= started + 120_000 && retryAt <= Date.now() + 120_000, `retryAt ${retryAt - started} ms ahead`);
    assert.equal(rig.emu.ledger.list().length, 0);
  });

  test('a publish cut off before it was answered is outcome_unknown; reconcile says not published, the retry publishes once', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    rig.emu.faults.add({ kind: 'drop', method: 'POST', path: '/threads_publish' });
    const first = request(account, { content: 'dropped once' });
    const res = await adapter.publish(first);
    assert.equal(!res.ok && res.category, 'outcome_unknown');
    const checkpoint = first.saved.at(-1)!;
    const rec = await adapter.reconcile(request(account, { content: 'dropped once', checkpoint }));
    assert.deepEqual(rec, { ok: true, found: false });
    const retry = await adapter.publish(request(account, { content: 'dropped once', checkpoint }));
    assert.ok(retry.ok);
    assert.equal(rig.emu.ledger.list().length, 1);
    // The retry reused the container the first attempt checkpointed.
    assert.equal(rig.emu.ledger.list()[0]!.extra?.containerId, (checkpoint.pending as { containerId: string }).containerId);
  });

  test('accepted then hung: outcome_unknown, then reconcile finds the one post', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    rig.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/threads_publish' });
    const first = request(account, { content: 'did it go out?', media: [image] });
    const res = await adapter.publish(first);
    assert.equal(!res.ok && res.category, 'outcome_unknown');
    const rec = await adapter.reconcile(request(account, { content: 'did it go out?', media: [image], checkpoint: first.saved.at(-1)! }));
    const posts = rig.emu.ledger.list();
    assert.equal(posts.length, 1);
    assert.ok(rec.ok && rec.found === true);
    assert.equal(rec.platformPostId, posts[0]!.id);
    assert.equal(rec.platformPostUrl, rig.emu.store.permalink(rig.emu.store.posts.get(posts[0]!.id)!));
  });

  test('an interrupted thread resumes from its checkpoint without posting anything twice', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const settings = { threadItems: [{ content: 'second' }, { content: 'third' }] };
    // Hang the second post's publish: the root is public, the reply is published but unanswered.
    const first = request(account, {
      content: 'first',
      settings,
      onSave: (cp) => {
        const c = cp as { published: unknown[]; pending?: unknown };
        if (c.published.length === 1 && c.pending) rig.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/threads_publish' });
      },
    });
    const res = await adapter.publish(first);
    assert.equal(!res.ok && res.category, 'outcome_unknown');
    assert.deepEqual(rig.emu.ledger.list().map((e) => e.text), ['first', 'second']);

    const checkpoint = first.saved.at(-1)!;
    // Not the whole thread yet: publishing again is safe and finishes it.
    const rec = await adapter.reconcile(request(account, { content: 'first', settings, checkpoint }));
    assert.deepEqual(rec, { ok: true, found: false });
    const resumed = await adapter.publish(request(account, { content: 'first', settings, checkpoint }));
    assert.ok(resumed.ok, resumed.ok ? '' : resumed.message);
    const entries = rig.emu.ledger.list();
    assert.deepEqual(entries.map((e) => e.text), ['first', 'second', 'third']);
    assert.equal(resumed.platformPostId, entries[0]!.id);
    assert.equal(entries[2]!.extra?.replyToId, entries[1]!.id);
    // The unanswered reply was found in the account's replies, not posted again.
    assert.ok(rig.emu.calls.some((c) => c.method === 'GET' && c.path.endsWith('/replies')));
    // Once complete, reconcile from the final checkpoint finds the thread.
    const done = await adapter.reconcile(request(account, { content: 'first', settings, checkpoint: null }));
    assert.ok(done.ok && done.found === true && done.platformPostId === entries[0]!.id);
  });

  test('a crash after publishing, before recording it: the next attempt adopts the post instead of re-posting', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const settings = { threadItems: [{ content: 'reply' }] };
    let stored: Checkpoint | null = null;
    const doomed = request(account, { content: 'root', settings });
    doomed.saveCheckpoint = async (cp) => {
      if ((cp.published as unknown[]).length === 1) throw new StaleAttemptError();
      stored = structuredClone(cp);
    };
    await assert.rejects(adapter.publish(doomed), StaleAttemptError);
    assert.equal(rig.emu.ledger.list().length, 1);
    const next = await adapter.publish(request(account, { content: 'root', settings, checkpoint: stored }));
    assert.ok(next.ok, next.ok ? '' : next.message);
    assert.deepEqual(rig.emu.ledger.list().map((e) => e.text), ['root', 'reply']);
    assert.equal(next.platformPostId, rig.emu.ledger.list()[0]!.id);
    assert.ok(rig.emu.calls.some((c) => c.method === 'GET' && c.path.endsWith('/threads')));
  });

  test('reconcile without a checkpoint searches recent posts by text', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    const published = await adapter.publish(request(account, { content: 'findable words' }));
    assert.ok(published.ok);
    const found = await adapter.reconcile(request(account, { content: 'findable words' }));
    assert.deepEqual(found, { ok: true, found: true, platformPostId: published.platformPostId, platformPostUrl: published.platformPostUrl });
    const missing = await adapter.reconcile(request(account, { content: 'never posted' }));
    assert.deepEqual(missing, { ok: true, found: false });
    // Media-only posts all have empty text; the media type tells them apart.
    const picture = await adapter.publish(request(account, { media: [image] }));
    assert.ok(picture.ok);
    const sameShape = await adapter.reconcile(request(account, { media: [image] }));
    assert.ok(sameShape.ok && sameShape.found === true && sameShape.platformPostId === picture.platformPostId);
    assert.deepEqual(await adapter.reconcile(request(account, { media: [video] })), { ok: true, found: false });
  });
});

describe('Threads adapter at the publishing limit', () => {
  let rig: Rig;
  before(async () => {
    rig = await startRig({ postQuota: 2, replyQuota: 1 });
  });
  after(() => rig.server.close());

  test('a used-up quota is quota_exceeded with a retry time, and nothing is posted', async () => {
    const adapter = rig.adapter();
    const account = credentials(await connect(adapter));
    assert.ok((await adapter.publish(request(account, { content: 'one' }))).ok);
    assert.ok((await adapter.publish(request(account, { content: 'two' }))).ok);
    const third = await adapter.publish(request(account, { content: 'three' }));
    assert.equal(!third.ok && third.category, 'quota_exceeded');
    assert.ok(!third.ok && third.retryAt! > Date.now());
    // Replies have their own quota: a thread needing two replies when one is left does not start.
    rig.emu.store.posts.clear();
    const thread = await adapter.publish(request(account, { content: 'root', settings: { threadItems: [{ content: 'a' }, { content: 'b' }] } }));
    assert.equal(!thread.ok && thread.category, 'quota_exceeded');
    assert.deepEqual(rig.emu.ledger.list().map((e) => e.text), ['one', 'two']);
  });

  test('the limit reached between the quota check and threads_publish is still quota_exceeded', async () => {
    rig.emu.reset();
    // Hold the adapter's threads_publish call (after its quota check) until another app has used the
    // last slot: the order is set by the test, not by how long a delay lasts on this machine.
    const http = createPlatformHttp({ timeoutMs: 2000 });
    const held = gate();
    const otherAppPosted = gate();
    let holding = false;
    const adapter = rig.adapter({
      http: {
        async request(req) {
          if (holding && req.url.endsWith('/threads_publish')) {
            held.open();
            await otherAppPosted.opened;
          }
          return http.request(req);
        },
      },
    });
    const account = credentials(await connect(adapter));
    assert.ok((await adapter.publish(request(account, { content: 'first' }))).ok);
    holding = true;
    const pending = adapter.publish(request(account, { content: 'second' }));
    await until('the adapter to be about to call threads_publish', () => held.isOpen());
    const direct = await fetch(`${rig.root}/v1.0/me/threads`, {
      method: 'POST',
      body: new URLSearchParams({ media_type: 'TEXT', text: 'from elsewhere', auto_publish_text: 'true', access_token: account.accessToken }),
    });
    otherAppPosted.open();
    assert.equal(direct.status, 200);
    const res = await pending;
    assert.equal(!res.ok && res.category, 'quota_exceeded');
    assert.deepEqual(rig.emu.ledger.list().map((e) => e.text), ['first', 'from elsewhere']);
  });
});

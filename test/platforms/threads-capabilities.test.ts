// The Threads adapter's optional capabilities against the emulator: the first comment (a reply by the
// same account, checkpointed like a post) and unpublish (DELETE /{threads-media-id}); Threads cannot edit.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createThreadsAdapter } from '../../src/platforms/threads/adapter.ts';
import type { AccountCredentials, Checkpoint, PlatformAdapter } from '../../src/platforms/types.ts';
import { createThreadsEmulator, type ThreadsEmulator, type ThreadsEmulatorOptions } from '../../src/sandbox/threads/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent, credentialsOf, testCommentRequest, testPublishRequest, type TestComment } from '../helpers/platform.ts';

const REDIRECT = 'https://app.example.com/connect/threads/callback';

interface Rig {
  emu: ThreadsEmulator;
  server: EmulatorServer;
  adapter: PlatformAdapter;
}

async function startRig(options: ThreadsEmulatorOptions = {}): Promise<Rig> {
  const emu = createThreadsEmulator({ processingMs: 10, ...options });
  const server = await startEmulatorServer([emu]);
  const root = server.rootOf('threads');
  return { emu, server, adapter: createThreadsAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/oauth/authorize` })) };
}

async function connect(rig: Rig, user: string, extra: Record<string, string> = {}): Promise<AccountCredentials> {
  const { code } = await approveConsent(rig.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: user, ...extra });
  const res = await rig.adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(res.ok, res.ok ? '' : res.message);
  return credentialsOf(res.accounts[0]!);
}

async function published(rig: Rig, account: AccountCredentials, content: string, settings: Record<string, unknown> = {}): Promise<{ id: string; checkpoint: Checkpoint | null }> {
  const req = testPublishRequest({ account, content, media: [], settings });
  const out = await rig.adapter.publish(req);
  assert.ok(out.ok, out.ok ? '' : out.message);
  return { id: out.platformPostId, checkpoint: req.checkpoint };
}

function commentRequest(account: AccountCredentials, platformPostId: string, content: string, settings: Record<string, unknown> = {}): TestComment {
  return testCommentRequest({ account, platformPostId, content, settings });
}

const replies = (rig: Rig, postId: string) => rig.emu.ledger.list({ kind: 'reply' }).filter((e) => e.extra?.replyToId === postId);

let rig: Rig;
before(async () => {
  rig = await startRig();
});
afterEach(() => rig.emu.faults.clear());
after(() => rig.server.close());

test('no edit: the Threads API has no call that changes a published post', () => {
  assert.equal(rig.adapter.edit, undefined);
});

describe('first comment', () => {
  test('a reply to the post: container checkpointed before threads_publish, then the reply id; a second send posts nothing', async () => {
    const account = await connect(rig, 'c-reply');
    const { id } = await published(rig, account, `root ${Date.now()}`, { replyControl: 'accounts_you_follow' });
    const req = commentRequest(account, id, 'the first comment', { replyControl: 'accounts_you_follow' });
    const r = await rig.adapter.comment!.send(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [entry] = replies(rig, id);
    assert.deepEqual([entry?.id, entry?.accountId, entry?.text, entry?.extra?.replyControl], [r.platformCommentId, account.accountId, 'the first comment', 'accounts_you_follow']);
    assert.deepEqual(req.saved.map((cp) => Object.keys(cp).sort()), [['containerId', 'createdAt'], ['containerId', 'createdAt', 'replyId']]);
    assert.deepEqual(await rig.adapter.comment!.send(req), r);
    assert.deepEqual(await rig.adapter.comment!.find(req), { ok: true, found: true, platformCommentId: r.platformCommentId });
    assert.equal(replies(rig, id).length, 1);
  });

  test('a reply whose publish answer is lost: outcome_unknown; find reads the post\'s replies; the next send adopts it', async () => {
    const account = await connect(rig, 'c-lost');
    const { id } = await published(rig, account, `lost reply root ${Date.now()}`);
    rig.emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/threads_publish' });
    const req = commentRequest(account, id, 'made, never answered');
    const r = await rig.adapter.comment!.send(req);
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const [made] = replies(rig, id);
    assert.deepEqual(await rig.adapter.comment!.find(req), { ok: true, found: true, platformCommentId: made!.id });
    assert.deepEqual(await rig.adapter.comment!.send(req), { ok: true, platformCommentId: made!.id });
    assert.equal(replies(rig, id).length, 1);
    assert.equal(rig.emu.calls.filter((c) => c.method === 'GET' && c.path.endsWith(`/${id}/replies`)).length > 0, true, 'the post\'s own replies were read');
  });

  test('an attempt that stopped after making its container: find says not found, the next send publishes that container', async () => {
    const account = await connect(rig, 'c-container');
    const { id } = await published(rig, account, `container root ${Date.now()}`);
    rig.emu.faults.add({ kind: 'server_error', method: 'POST', path: '/threads_publish' });
    const req = commentRequest(account, id, 'published on the second try');
    const first = await rig.adapter.comment!.send(req);
    assert.equal(!first.ok && first.category, 'platform_unavailable');
    const containers = rig.emu.store.containers.size;
    assert.deepEqual(await rig.adapter.comment!.find(req), { ok: true, found: false });
    const second = await rig.adapter.comment!.send(req);
    assert.ok(second.ok, second.ok ? '' : second.message);
    assert.equal(rig.emu.store.containers.size, containers, 'no second container');
    assert.equal(replies(rig, id).length, 1);
  });

  test('find: nothing sent is not found', async () => {
    const account = await connect(rig, 'c-none');
    const { id } = await published(rig, account, `no reply ${Date.now()}`);
    assert.deepEqual(await rig.adapter.comment!.find(commentRequest(account, id, 'never sent')), { ok: true, found: false });
  });

  test('refusals: without threads_manage_replies nothing is made; without threads_read_replies a lost reply cannot be looked up', async () => {
    const noReplies = await connect(rig, 'c-no-manage', { sandbox_decline: 'threads_manage_replies' });
    const root = await published(rig, noReplies, `no manage ${Date.now()}`);
    const denied = await rig.adapter.comment!.send(commentRequest(noReplies, root.id, 'hello'));
    assert.equal(!denied.ok && denied.category, 'permission_missing');
    assert.equal(replies(rig, root.id).length, 0);

    const noRead = await connect(rig, 'c-no-read', { sandbox_decline: 'threads_read_replies' });
    const other = await published(rig, noRead, `no read ${Date.now()}`);
    rig.emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/threads_publish' });
    const req = commentRequest(noRead, other.id, 'posted, not readable');
    assert.equal((await rig.adapter.comment!.send(req)).ok, false);
    const find = await rig.adapter.comment!.find(req);
    assert.equal(!find.ok && find.category, 'permission_missing', 'never guessed: the reply is not sent again');
    assert.equal(replies(rig, other.id).length, 1);
  });

  test('a used-up reply quota is quota_exceeded with a retry time, and nothing is posted', async () => {
    const full = await startRig({ replyQuota: 0 });
    try {
      const account = await connect(full, 'c-quota');
      const { id } = await published(full, account, `quota root ${Date.now()}`);
      const r = await full.adapter.comment!.send(commentRequest(account, id, 'over the quota'));
      assert.equal(!r.ok && r.category, 'quota_exceeded');
      assert.ok(!r.ok && r.retryAt! > Date.now());
      assert.equal(replies(full, id).length, 0);
    } finally {
      await full.server.close();
    }
  });
});

describe('unpublish', () => {
  test('a thread comes down newest first; deleting again counts as deleted', async () => {
    const account = await connect(rig, 'u-thread');
    const { id, checkpoint } = await published(rig, account, `thread head ${Date.now()}`, { threadItems: [{ content: 'second' }, { content: 'third' }] });
    const items = ((checkpoint as { published: { id: string }[] }).published).map((p) => p.id);
    assert.equal(items.length, 3);
    assert.deepEqual(await rig.adapter.unpublish!({ account, platformPostId: id, checkpoint }), { ok: true, deleted: true });
    const deletes = rig.emu.ledger.list({ kind: 'delete', accountId: account.accountId }).map((e) => e.id);
    assert.deepEqual(deletes, [...items].reverse());
    assert.deepEqual(await rig.adapter.unpublish!({ account, platformPostId: id, checkpoint }), { ok: true, deleted: true });
    assert.equal(rig.emu.ledger.list({ kind: 'delete', accountId: account.accountId }).length, 3);
  });

  test('the first comment, a reply that would outlive the post, comes down first', async () => {
    const account = await connect(rig, 'u-commented');
    const { id, checkpoint } = await published(rig, account, `commented ${Date.now()}`);
    const c = await rig.adapter.comment!.send(commentRequest(account, id, 'a reply under it'));
    assert.ok(c.ok);
    assert.deepEqual(await rig.adapter.unpublish!({ account, platformPostId: id, checkpoint, platformCommentId: c.platformCommentId }), { ok: true, deleted: true });
    assert.deepEqual(rig.emu.ledger.list({ kind: 'delete', accountId: account.accountId }).map((e) => e.id), [c.platformCommentId, id]);
  });

  test('without threads_delete: permission_missing; a lost answer: platform_unavailable, and deleting again is harmless', async () => {
    const limited = await connect(rig, 'u-no-delete', { sandbox_decline: 'threads_delete' });
    const mine = await published(rig, limited, `cannot delete ${Date.now()}`);
    const denied = await rig.adapter.unpublish!({ account: limited, platformPostId: mine.id, checkpoint: mine.checkpoint });
    assert.equal(!denied.ok && denied.category, 'permission_missing');

    const account = await connect(rig, 'u-lost');
    const post = await published(rig, account, `lost delete ${Date.now()}`);
    rig.emu.faults.add({ kind: 'accept_then_reset', method: 'DELETE', path: `/${post.id}` });
    const lost = await rig.adapter.unpublish!({ account, platformPostId: post.id, checkpoint: post.checkpoint });
    assert.equal(!lost.ok && lost.category, 'platform_unavailable');
    assert.deepEqual(await rig.adapter.unpublish!({ account, platformPostId: post.id, checkpoint: post.checkpoint }), { ok: true, deleted: true });
  });

  test('past the daily delete limit: rate_limited, the post stays', async () => {
    const small = await startRig({ deleteQuota: 1 });
    try {
      const account = await connect(small, 'u-limit');
      const first = await published(small, account, `first ${Date.now()}`);
      const second = await published(small, account, `second ${Date.now()}`);
      assert.deepEqual(await small.adapter.unpublish!({ account, platformPostId: first.id, checkpoint: first.checkpoint }), { ok: true, deleted: true });
      const over = await small.adapter.unpublish!({ account, platformPostId: second.id, checkpoint: second.checkpoint });
      assert.equal(!over.ok && over.category, 'rate_limited');
      assert.ok(small.emu.store.posts.has(second.id));
    } finally {
      await small.server.close();
    }
  });
});

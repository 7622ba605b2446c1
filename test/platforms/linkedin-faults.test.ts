// The LinkedIn adapter under injected faults: every failure lands in the right category with LinkedIn's
// own retry signal, and no fault leads to a post (or comment) published twice: the emulator's ledger is
// the proof.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextUtcMidnight } from '../../src/platforms/linkedin/errors.ts';
import { calls, commentRequest, connect, image, mp4, publishRequest, retryOf, startHarness, type Harness } from './linkedin-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness({ programmaticRefresh: true });
});
afterEach(() => h.emu.faults.clear());
after(() => h.close());

const posts = (accountId: string) => h.emu.ledger.list({ accountId, kind: 'post' });

test('the token expiring mid-upload: auth_expired; after a refresh the retry uploads again and posts once', async () => {
  const { member } = await connect(h, 'f-expiry');
  const video = { type: 'video' as const, url: h.files.put('f-expiry.mp4', mp4(8, 200_000), 'video/mp4') };
  h.emu.faults.add({ kind: 'expired_token', method: 'PUT', path: '/part/2' });
  const req = publishRequest(member, 'uploaded twice, posted once', [video]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'auth_expired');
  assert.equal(!r.ok && r.platformCode, 'EXPIRED_ACCESS_TOKEN');
  assert.equal(req.saved.length, 0, 'nothing to checkpoint: the video never completed');
  const renewed = await h.adapter.refresh(member);
  assert.ok(renewed.ok);
  const again = await h.adapter.publish(retryOf(req, { ...member, accessToken: renewed.grant.accessToken }));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(calls(h, 'POST', '/rest/videos') >= 3, true, 'a second initialize, then finalize');
  assert.deepEqual(posts(member.accountId).map((p) => p.id), [again.platformPostId]);
});

test('429 with a reset: rate_limited until then, nothing posted; the retry posts once', async () => {
  const { member } = await connect(h, 'f-429');
  h.emu.faults.add({ kind: 'rate_limited', method: 'POST', path: '/rest/posts', resetSeconds: 120 });
  const started = Date.now();
  const req = publishRequest(member, 'throttled');
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.ok(!r.ok && r.retryAt! >= started + 120_000 && r.retryAt! <= Date.now() + 120_000);
  assert.equal(posts(member.accountId).length, 0);
  assert.ok((await h.adapter.publish(retryOf(req))).ok);
  assert.equal(posts(member.accountId).length, 1);
});

test('the daily quota (429, no reset header): quota_exceeded until midnight UTC', async () => {
  const q = await startHarness({ dailyPostsPerMember: 1 });
  try {
    const { member } = await connect(q, 'f-quota');
    assert.ok((await q.adapter.publish(publishRequest(member, 'one'))).ok);
    const r = await q.adapter.publish(publishRequest(member, 'two'));
    assert.equal(!r.ok && r.category, 'quota_exceeded');
    assert.equal(!r.ok && r.retryAt, nextUtcMidnight(Date.now()));
  } finally {
    await q.close();
  }
});

test('500 then success: platform_unavailable, then exactly one post', async () => {
  const { pages } = await connect(h, 'f-500');
  h.emu.faults.add({ kind: 'server_error', method: 'POST', path: '/rest/images' });
  const req = publishRequest(pages[0]!, 'after an outage', [image(h, 3)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(!r.ok && r.httpStatus, 500);
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(posts(pages[0]!.accountId).length, 1);
});

test('permission and validation faults', async () => {
  const { member } = await connect(h, 'f-refusals');
  h.emu.faults.add({ kind: 'permission', method: 'POST', path: '/rest/posts' });
  const denied = await h.adapter.publish(publishRequest(member, 'no scope'));
  assert.equal(!denied.ok && denied.category, 'permission_missing');
  h.emu.faults.add({ kind: 'validation', method: 'POST', path: '/rest/posts', message: 'ERROR :: /commentary :: invalid' });
  const invalid = await h.adapter.publish(publishRequest(member, 'refused'));
  assert.equal(!invalid.ok && invalid.category, 'content_rejected');
});

test('a Page post that hangs after LinkedIn made it: outcome_unknown, and reconcile finds exactly that post', async () => {
  const { pages } = await connect(h, 'f-hang-page');
  const page = pages[0]!;
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/rest/posts' });
  const req = publishRequest(page, 'made, never answered', [image(h, 4)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const [made] = posts(page.accountId);
  const found = await h.adapter.reconcile(retryOf(req));
  assert.deepEqual(found, { ok: true, found: true, platformPostId: made!.id, platformPostUrl: `https://www.linkedin.com/feed/update/${made!.id}` });
  assert.equal(posts(page.accountId).length, 1);
});

test('a Page post cut off before LinkedIn made it: reconcile positively finds nothing, the retry posts once', async () => {
  const { pages } = await connect(h, 'f-drop-page');
  const page = pages[0]!;
  h.emu.faults.add({ kind: 'drop', method: 'POST', path: '/rest/posts' });
  const req = publishRequest(page, 'dropped on the way');
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown', 'a cut connection cannot tell');
  assert.deepEqual(await h.adapter.reconcile(retryOf(req)), { ok: true, found: false });
  assert.ok((await h.adapter.publish(retryOf(req))).ok);
  assert.equal(posts(page.accountId).length, 1);
});

for (const kind of ['accept_then_hang', 'accept_then_reset'] as const) {
  test(`a member post after ${kind}: LinkedIn's duplicate refusal names the earlier post, which is the answer`, async () => {
    const { member } = await connect(h, `f-${kind}`);
    h.emu.faults.add({ kind, method: 'POST', path: '/rest/posts' });
    const req = publishRequest(member, `sent once (${kind})`, [image(h, 5)]);
    const r = await h.adapter.publish(req);
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const [made] = posts(member.accountId);
    assert.ok(made);
    // A member's posts cannot be read: publishing again is the way to ask.
    assert.deepEqual(await h.adapter.reconcile(retryOf(req)), { ok: true, found: false });
    const second = retryOf(req);
    const again = await h.adapter.publish(second);
    assert.ok(again.ok, again.ok ? '' : again.message);
    assert.equal(again.platformPostId, made.id);
    assert.equal(posts(member.accountId).length, 1);
    assert.equal(second.saved.at(-1)?.postUrn, made.id);
    const later = await h.adapter.reconcile(retryOf(second));
    assert.equal(later.ok && later.found === true && later.platformPostId, made.id, 'the checkpoint now names the post');
  });
}

test('a member post without text after an unknown outcome cannot be told apart: unknown, never re-sent', async () => {
  const { member } = await connect(h, 'f-silent');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/rest/posts' });
  const req = publishRequest(member, '', [image(h, 6)]);
  assert.equal((await h.adapter.publish(req)).ok, false);
  const rec = await h.adapter.reconcile(retryOf(req));
  assert.equal(rec.ok && rec.found, 'unknown');
});

test('reconcile without a recorded send: the post was never sent', async () => {
  const { member } = await connect(h, 'f-never');
  const before = h.emu.calls.length;
  assert.deepEqual(await h.adapter.reconcile(publishRequest(member, 'never sent')), { ok: true, found: false });
  assert.equal(h.emu.calls.length, before);
});

test('an edit whose answer is lost: a member\'s is set again, a Page\'s is read', async () => {
  const { member, pages } = await connect(h, 'f-edit');
  for (const account of [member, pages[0]!]) {
    const r = await h.adapter.publish(publishRequest(account, `original ${account.accountId}`));
    assert.ok(r.ok);
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/rest/posts/' });
    const req = { account, platformPostId: r.platformPostId, content: `edited ${account.accountId}` };
    const sent = await h.adapter.edit!.send(req);
    assert.equal(!sent.ok && sent.category, 'outcome_unknown');
    const found = await h.adapter.edit!.find(req);
    assert.deepEqual(found, { ok: true, found: true, platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl });
    const edits = h.emu.ledger.list({ kind: 'edit' }).filter((x) => x.id === r.platformPostId);
    assert.ok(edits.every((x) => x.text === req.content));
    assert.equal(edits.length, account === member ? 2 : 1, 'the member\'s text set twice to the same; the Page\'s read');
  }
});

test('a first comment whose answer is lost: found on a Page\'s post, unknown on a member\'s, never posted twice', async () => {
  const { member, pages } = await connect(h, 'f-comment');
  for (const account of [pages[0]!, member]) {
    const r = await h.adapter.publish(publishRequest(account, `commented ${account.accountId}`));
    assert.ok(r.ok);
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/comments' });
    const req = commentRequest(account, r.platformPostId, 'first!');
    const c = await h.adapter.comment!.send(req);
    assert.equal(!c.ok && c.category, 'outcome_unknown');
    const made = h.emu.ledger.list({ kind: 'comment', accountId: account.accountId });
    assert.equal(made.length, 1);
    const found = await h.adapter.comment!.find(req);
    if (account === member) assert.equal(found.ok && found.found, 'unknown');
    else assert.deepEqual(found, { ok: true, found: true, platformCommentId: made[0]!.id });
  }
});

test('an unanswered delete is safe to send again', async () => {
  const { member } = await connect(h, 'f-delete');
  const r = await h.adapter.publish(publishRequest(member, 'to be removed'));
  assert.ok(r.ok);
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'DELETE', path: '/rest/posts/' });
  const first = await h.adapter.unpublish!({ account: member, platformPostId: r.platformPostId, checkpoint: null });
  assert.equal(!first.ok && first.category, 'platform_unavailable');
  assert.deepEqual(await h.adapter.unpublish!({ account: member, platformPostId: r.platformPostId, checkpoint: null }), { ok: true, deleted: true });
});

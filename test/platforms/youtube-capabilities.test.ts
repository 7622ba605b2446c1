// The YouTube adapter's optional capabilities against the emulator: editing the description, unpublishing
// (videos.delete) and the first comment, each with what happens when the answer is lost.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountCredentials } from '../../src/platforms/types.ts';
import { SETTINGS, commentRequest, connectAccount, publishRequest, startHarness, video, type Harness } from './youtube-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
afterEach(() => h.emu.faults.clear());
after(() => h.close());

async function published(user: string, settings: Record<string, unknown> = SETTINGS, consent: Record<string, string> = {}): Promise<{ creds: AccountCredentials; id: string }> {
  const { creds } = await connectAccount(h, user, consent);
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)], { ...SETTINGS, tags: ['keep', 'these'], categoryId: '27', ...settings }, 'the first description'));
  assert.ok(r.ok, r.ok ? '' : r.message);
  return { creds, id: r.platformPostId };
}

describe('edit', () => {
  test('the description changes; title, category and tags are kept; the id stays', async () => {
    const { creds, id } = await published('e-edit');
    const edit = h.adapter.edit!;
    assert.deepEqual(edit.limits, { windowMs: null, maxEdits: null });
    const r = await edit.send({ account: creds, platformPostId: id, content: 'a better description' });
    assert.deepEqual(r, { ok: true, platformPostId: id, platformPostUrl: `https://www.youtube.com/watch?v=${id}` });
    const [entry] = h.emu.ledger.list({ kind: 'edit' }).filter((e) => e.extra?.videoId === id);
    assert.equal(entry!.text, 'a better description');
    assert.deepEqual([entry!.extra!.title, entry!.extra!.categoryId, entry!.extra!.tags], [SETTINGS.title, '27', ['keep', 'these']]);
    assert.deepEqual(await edit.find({ account: creds, platformPostId: id, content: 'a better description' }), r.ok ? { ok: true, found: true, platformPostId: id, platformPostUrl: r.platformPostUrl } : null);
    assert.deepEqual(await edit.find({ account: creds, platformPostId: id, content: 'never sent' }), { ok: true, found: false });
  });

  test('the rules of a description: at most 5,000 bytes, no < or >', () => {
    const edit = h.adapter.edit!;
    assert.deepEqual(edit.validate('fine', { meta: {} }), []);
    assert.match(edit.validate('é'.repeat(2501), { meta: {} })[0]!.message, /5002 bytes.*at most 5000/);
    assert.match(edit.validate('a <tag>', { meta: {} })[0]!.message, /< or >/);
  });

  test('an edit whose answer is lost is outcome_unknown; find says it was made', async () => {
    const { creds, id } = await published('e-hang');
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'PUT', path: '/youtube/v3/videos' });
    const r = await h.adapter.edit!.send({ account: creds, platformPostId: id, content: 'sent into the void' });
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const found = await h.adapter.edit!.find({ account: creds, platformPostId: id, content: 'sent into the void' });
    assert.equal(found.ok && found.found, true);
  });

  test('an edit needs force-ssl: without it, permission_missing', async () => {
    const { creds, id } = await published('e-scope', {}, { sandbox_decline: 'youtube.force-ssl' });
    const r = await h.adapter.edit!.send({ account: creds, platformPostId: id, content: 'new' });
    assert.equal(!r.ok && r.category, 'permission_missing');
    assert.equal(!r.ok && r.platformCode, 'insufficientPermissions');
  });
});

describe('unpublish', () => {
  test('videos.delete; a video already gone counts as deleted; the ledger has one delete', async () => {
    const { creds, id } = await published('u-delete');
    assert.deepEqual(await h.adapter.unpublish!({ account: creds, platformPostId: id, checkpoint: null }), { ok: true, deleted: true });
    assert.deepEqual(await h.adapter.unpublish!({ account: creds, platformPostId: id, checkpoint: null }), { ok: true, deleted: true });
    assert.equal(h.emu.ledger.list({ kind: 'delete' }).filter((e) => e.extra?.videoId === id).length, 1);
  });

  test('another channel\'s video: permission_missing; a lost answer: platform_unavailable (deleting again is harmless)', async () => {
    const { id } = await published('u-owner');
    const { creds: other } = await connectAccount(h, 'u-other');
    const r = await h.adapter.unpublish!({ account: other, platformPostId: id, checkpoint: null });
    assert.equal(!r.ok && r.category, 'permission_missing');
    const { creds, id: mine } = await published('u-hang');
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'DELETE', path: '/youtube/v3/videos' });
    const lost = await h.adapter.unpublish!({ account: creds, platformPostId: mine, checkpoint: null });
    assert.equal(!lost.ok && lost.category, 'platform_unavailable');
    assert.deepEqual(await h.adapter.unpublish!({ account: creds, platformPostId: mine, checkpoint: null }), { ok: true, deleted: true });
  });
});

describe('first comment', () => {
  test('commentThreads.insert by the channel; the checkpoint keeps its id; a second send does not post again', async () => {
    const { creds, id } = await published('c-comment');
    const req = commentRequest(creds, id, 'Thanks for watching!');
    const r = await h.adapter.comment!.send(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const entry = h.emu.ledger.get(r.platformCommentId)!;
    assert.deepEqual([entry.kind, entry.text, entry.accountId, entry.extra!.videoId], ['comment', 'Thanks for watching!', creds.accountId, id]);
    assert.deepEqual(req.saved.map((cp) => Object.keys(cp).sort()), [['sentAt'], ['platformCommentId', 'sentAt']]);
    const again = await h.adapter.comment!.send({ ...req });
    assert.deepEqual(again, r);
    assert.equal(h.emu.ledger.list({ kind: 'comment' }).filter((e) => e.extra?.videoId === id).length, 1);
  });

  test('a comment whose answer is lost: outcome_unknown; find and a later send both find it, nothing is posted twice', async () => {
    const { creds, id } = await published('c-hang');
    h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/youtube/v3/commentThreads' });
    const req = commentRequest(creds, id, 'Lost in transit');
    const r = await h.adapter.comment!.send(req);
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const found = await h.adapter.comment!.find(req);
    const [posted] = h.emu.ledger.list({ kind: 'comment' }).filter((e) => e.extra?.videoId === id);
    assert.deepEqual(found, { ok: true, found: true, platformCommentId: posted!.id });
    const resent = await h.adapter.comment!.send(req);
    assert.deepEqual(resent, { ok: true, platformCommentId: posted!.id });
    assert.equal(h.emu.ledger.list({ kind: 'comment' }).filter((e) => e.extra?.videoId === id).length, 1);
  });

  test('find says not found when the comment is not there', async () => {
    const { creds, id } = await published('c-none');
    assert.deepEqual(await h.adapter.comment!.find(commentRequest(creds, id, 'never sent')), { ok: true, found: false });
  });

  test('refusals: a private video, and an account without force-ssl', async () => {
    const { creds, id } = await published('c-private', { privacyStatus: 'private' });
    const priv = await h.adapter.comment!.send(commentRequest(creds, id, 'hello'));
    assert.equal(!priv.ok && priv.category, 'permission_missing');
    const { creds: limited, id: theirs } = await published('c-scope', {}, { sandbox_decline: 'youtube.force-ssl' });
    const scope = await h.adapter.comment!.send(commentRequest(limited, theirs, 'hello'));
    assert.equal(!scope.ok && scope.category, 'permission_missing');
    assert.equal(!scope.ok && scope.platformCode, 'insufficientPermissions');
  });
});

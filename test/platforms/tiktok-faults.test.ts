// The TikTok adapter under injected faults: every failure lands in the right category, and no fault
// leads to a post published twice (the emulator's ledger is the proof).
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../helpers/wait.ts';
import { connectAccount, image, publishRequest, retryOf, startHarness, video, type Harness } from './tiktok-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
afterEach(() => {
  h.emu.faults.clear();
  Object.assign(h.emu.settings, { unaudited: false, verifiedUrlPrefixes: null });
});
after(() => h.close());

const ledgerOf = (accountId: string) => h.emu.ledger.list({ accountId });
const initCount = () => h.emu.calls.filter((c) => c.path.endsWith('/init/')).length;

test('server_error on creator_info → platform_unavailable', async () => {
  const { creds } = await connectAccount(h, 'f-500');
  h.emu.faults.add({ kind: 'server_error', path: '/creator_info/' });
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(!r.ok && r.httpStatus, 500);
  assert.equal(!r.ok && r.platformCode, 'internal_error');
});

test('rate_limited on video init → rate_limited, retryAt a minute out (TikTok sends no reset time)', async () => {
  const { creds } = await connectAccount(h, 'f-429');
  h.emu.faults.add({ kind: 'rate_limited', path: '/video/init/' });
  const started = Date.now();
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.ok(!r.ok && r.retryAt! >= started + 60_000 && r.retryAt! <= Date.now() + 60_000);
  assert.equal(ledgerOf(creds.accountId).length, 0);
});

test('validation on video init → content_rejected with TikTok\'s message', async () => {
  const { creds } = await connectAccount(h, 'f-400');
  h.emu.faults.add({ kind: 'validation', path: '/video/init/', message: 'post_info.title is invalid' });
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!r.ok && r.category, 'content_rejected');
  assert.equal(!r.ok && r.platformCode, 'invalid_params');
  assert.match(!r.ok ? r.message : '', /post_info\.title is invalid/);
});

test('permission on creator_info → permission_missing', async () => {
  const { creds } = await connectAccount(h, 'f-scope');
  h.emu.faults.add({ kind: 'permission', path: '/creator_info/' });
  const r = await h.adapter.publish(publishRequest(creds, [image(h)]));
  assert.equal(!r.ok && r.category, 'permission_missing');
  assert.equal(!r.ok && r.platformCode, 'scope_not_authorized');
});

test('drop on video init → platform_unavailable, nothing posted, a retry posts once', async () => {
  const { creds } = await connectAccount(h, 'f-drop');
  h.emu.faults.add({ kind: 'drop', path: '/video/init/' });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(req.saved.length, 0);
  assert.ok((await h.adapter.publish(retryOf(req))).ok);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('a token expiring while TikTok processes: auth_expired, then the retry resumes the same publish', async () => {
  const { creds } = await connectAccount(h, 'f-midway');
  h.emu.faults.add({ kind: 'expired_token', path: '/status/fetch/' });
  const req = publishRequest(creds, [video(h, 300_000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'auth_expired');
  const inits = initCount();
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(initCount(), inits, 'the retry must not start a second publish');
  assert.deepEqual(ledgerOf(creds.accountId).map((e) => e.id), [again.platformPostId]);
});

test('transient status errors do not end the wait', async () => {
  const { creds } = await connectAccount(h, 'f-flaky-status');
  h.emu.faults.add({ kind: 'server_error', path: '/status/fetch/', count: 2 });
  const r = await h.adapter.publish(publishRequest(creds, [image(h)]));
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('accept_then_hang on a status fetch: polling carries on, reconcile by publish id finds the post', async () => {
  const { creds } = await connectAccount(h, 'f-hang-status');
  h.emu.faults.add({ kind: 'accept_then_hang', path: '/status/fetch/' });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.ok(r.ok, r.ok ? '' : r.message);
  const rec = await h.adapter.reconcile(retryOf(req));
  assert.deepEqual(rec, { ok: true, found: true, platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl });
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('accept_then_hang on video init: nothing can go live without the upload, so it is safe to retry', async () => {
  const { creds } = await connectAccount(h, 'f-hang-init');
  h.emu.faults.add({ kind: 'accept_then_hang', path: '/video/init/' });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(req.saved.length, 0);
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok);
  // The hung init never got its upload, so nothing of it can go live later: this count is final.
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('accept_then_hang on the final chunk: outcome_unknown, reconcile finds the post, a retry does not re-post', async () => {
  const { creds } = await connectAccount(h, 'f-hang-put');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'PUT', path: '/upload/video/' });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  assert.equal(req.saved.length, 1);
  await until('TikTok to finish processing the upload it never answered', () => ledgerOf(creds.accountId).length > 0);
  const rec = await h.adapter.reconcile(retryOf(req));
  assert.ok(rec.ok && rec.found === true);
  const inits = initCount();
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok && rec.ok && rec.found === true && again.platformPostId === rec.platformPostId);
  assert.equal(initCount(), inits);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('accept_then_hang on photo init: outcome_unknown, and with no publish id reconcile cannot tell', async () => {
  const { creds } = await connectAccount(h, 'f-hang-photo');
  h.emu.faults.add({ kind: 'accept_then_hang', path: '/content/init/' });
  const req = publishRequest(creds, [image(h)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const rec = await h.adapter.reconcile(retryOf(req));
  assert.ok(rec.ok && rec.found === 'unknown');
  // TikTok did post it (once its processing ends): this is why the engine must not re-send blindly.
  await until('TikTok to finish processing the photo post it never answered', () => ledgerOf(creds.accountId).length > 0);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('an upload cut short can never complete: reconcile says not found and the retry starts over', async () => {
  const { creds } = await connectAccount(h, 'f-short-upload');
  h.emu.faults.add({ kind: 'server_error', method: 'PUT', path: '/upload/video/' });
  const req = publishRequest(creds, [video(h, 600_000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(req.saved.length, 1);
  assert.deepEqual(await h.adapter.reconcile(retryOf(req)), { ok: true, found: false });
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('an unaudited app: only SELF_ONLY, only private accounts', async () => {
  h.emu.settings.unaudited = true;
  const { creds: pub } = await connectAccount(h, 'f-unaudited-public');
  const r1 = await h.adapter.publish(publishRequest(pub, [image(h)], { privacyLevel: 'SELF_ONLY' }));
  assert.equal(!r1.ok && r1.category, 'content_rejected');
  assert.equal(!r1.ok && r1.platformCode, 'unaudited_client_can_only_post_to_private_accounts');
  const { creds: priv } = await connectAccount(h, 'f-unaudited-private', { sandbox_private: '1' });
  const r2 = await h.adapter.publish(publishRequest(priv, [image(h)], { privacyLevel: 'FOLLOWER_OF_CREATOR' }));
  assert.equal(!r2.ok && r2.platformCode, 'unaudited_client_can_only_post_to_private_accounts');
  const r3 = await h.adapter.publish(publishRequest(priv, [image(h)], { privacyLevel: 'SELF_ONLY' }));
  assert.ok(r3.ok);
});

test('photo URLs outside the verified domains → media_rejected (url_ownership_unverified)', async () => {
  h.emu.settings.verifiedUrlPrefixes = ['https://cdn.herald.example/'];
  const { creds } = await connectAccount(h, 'f-unverified');
  const r = await h.adapter.publish(publishRequest(creds, [image(h)]));
  assert.equal(!r.ok && r.category, 'media_rejected');
  assert.equal(!r.ok && r.platformCode, 'url_ownership_unverified');
});

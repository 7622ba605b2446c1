// The YouTube adapter under injected faults: every failure lands in the right category, the upload resumes
// instead of starting over, and no fault leads to a video published twice (the emulator's ledger is the proof).
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlatformHttp } from '../../src/platforms/http.ts';
import { nextQuotaReset } from '../../src/platforms/youtube/quota.ts';
import { GRANULE, connectAccount, publishRequest, retryOf, startHarness, video, type Harness } from './youtube-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
afterEach(() => {
  h.emu.faults.clear();
  h.emu.quota.reset();
  Object.assign(h.emu.settings, { channelDailyUploads: 50, sessionTtlMs: 7 * 86_400_000 });
});
after(() => h.close());

const videosOf = (accountId: string) => h.emu.ledger.list({ accountId, kind: 'video' });
const count = (method: string, part: string) => h.emu.calls.filter((c) => c.method === method && c.path.includes(part)).length;
const SESSION = '/upload/youtube/v3/videos';

test('the token expires mid-upload: auth_expired, and after a refresh the same session resumes where it stood', async () => {
  const { creds } = await connectAccount(h, 'f-expiry');
  // The token dies right after the first chunk is taken.
  let puts = 0;
  const http: PlatformHttp = {
    request: async (req) => {
      const res = await h.deps.http.request(req);
      if (req.method === 'PUT' && ++puts === 1) h.emu.oauth.expireAccessTokens();
      return res;
    },
  };
  const adapter = h.adapterWith({ http });
  const req = publishRequest(creds, [video(h, GRANULE * 3 + 10)]);
  const r = await adapter.publish(req);
  assert.equal(!r.ok && r.category, 'auth_expired');
  assert.equal(!r.ok && r.platformCode, 'authError');
  const renewed = await adapter.refresh(creds);
  assert.ok(renewed.ok);
  const opened = count('POST', SESSION);
  const again = await adapter.publish(retryOf(req, { ...creds, accessToken: renewed.grant.accessToken }));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(count('POST', SESSION), opened, 'no second session');
  assert.deepEqual(videosOf(creds.accountId).map((e) => e.id), [again.platformPostId]);
  // 1 chunk, 1 refused, then a status query and the 3 chunks left.
  assert.equal(puts, 6);
});

test('429 with a reset time: rate_limited with retryAt from Retry-After', async () => {
  const { creds } = await connectAccount(h, 'f-429');
  h.emu.faults.add({ kind: 'rate_limited', method: 'POST', path: SESSION, resetSeconds: 120 });
  const started = Date.now();
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.equal(!r.ok && r.platformCode, 'rateLimitExceeded');
  assert.ok(!r.ok && r.retryAt! >= started + 120_000 && r.retryAt! <= Date.now() + 120_000);
  assert.equal(videosOf(creds.accountId).length, 0);
});

test('a 500 when opening the session, then success: one video', async () => {
  const { creds } = await connectAccount(h, 'f-500');
  h.emu.faults.add({ kind: 'server_error', method: 'POST', path: SESSION });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(!r.ok && r.platformCode, 'backendError');
  assert.equal(req.saved.length, 0);
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok);
  assert.equal(videosOf(creds.accountId).length, 1);
});

test('a 500 on a chunk: the session is asked and the upload resumes in the same attempt', async () => {
  const { creds } = await connectAccount(h, 'f-chunk-500');
  h.emu.faults.add({ kind: 'server_error', method: 'PUT', path: SESSION });
  const r = await h.adapter.publish(publishRequest(creds, [video(h, GRANULE * 2 + 5)]));
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.equal(videosOf(creds.accountId).length, 1);
});

test('the connection drops before a chunk arrives: resumed from the reported offset', async () => {
  const { creds } = await connectAccount(h, 'f-drop');
  h.emu.faults.add({ kind: 'drop', method: 'PUT', path: SESSION });
  const r = await h.adapter.publish(publishRequest(creds, [video(h, GRANULE * 2 + 5)]));
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.equal(videosOf(creds.accountId).length, 1);
  assert.equal(h.emu.ledger.get(r.platformPostId)!.extra!.bytes, GRANULE * 2 + 5);
});

test('the last chunk is taken but its answer is cut: the session says the upload completed', async () => {
  const { creds } = await connectAccount(h, 'f-reset');
  h.emu.faults.add({ kind: 'accept_then_reset', method: 'PUT', path: SESSION });
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.ok(r.ok, r.ok ? '' : r.message);
  assert.deepEqual(videosOf(creds.accountId).map((e) => e.id), [r.platformPostId]);
});

test('hang after commit, and the session cannot be asked either: outcome_unknown, then reconcile finds exactly one video', async () => {
  const { creds } = await connectAccount(h, 'f-hang');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'PUT', path: SESSION, count: 2 });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  assert.equal(videosOf(creds.accountId).length, 1, 'the video exists although nobody heard');
  h.emu.faults.clear();
  const reconciled = await h.adapter.reconcile(retryOf(req));
  assert.equal(reconciled.ok && reconciled.found, true);
  assert.equal(reconciled.ok && reconciled.found === true && reconciled.platformPostId, videosOf(creds.accountId)[0]!.id);
  // And a publish with that checkpoint returns the same video instead of uploading another.
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok);
  assert.equal(videosOf(creds.accountId).length, 1);
});

test('reconcile: nothing saved means nothing sent; an incomplete session holds no video and publishing resumes it', async () => {
  const { creds } = await connectAccount(h, 'f-incomplete');
  const fresh = await h.adapter.reconcile(publishRequest(creds, [video(h, 1000)]));
  assert.deepEqual(fresh, { ok: true, found: false });
  // The first chunk goes in; then every PUT is cut before it arrives, the status queries too.
  let puts = 0;
  const http: PlatformHttp = {
    request: async (req) => {
      const res = await h.deps.http.request(req);
      if (req.method === 'PUT' && ++puts === 1) h.emu.faults.add({ kind: 'drop', method: 'PUT', path: SESSION, forever: true });
      return res;
    },
  };
  const req = publishRequest(creds, [video(h, GRANULE * 2 + 5)]);
  const r = await h.adapterWith({ http }).publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable', 'a dropped chunk that is not the last cannot have made a video');
  h.emu.faults.clear();
  const reconciled = await h.adapter.reconcile(retryOf(req));
  assert.deepEqual(reconciled, { ok: true, found: false });
  const opened = count('POST', SESSION);
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(count('POST', SESSION), opened, 'the earlier session is resumed, not replaced');
  assert.equal(videosOf(creds.accountId).length, 1);
});

test('reconcile after the session expired: the uploads playlist is read, matched on title and description', async () => {
  const { creds } = await connectAccount(h, 'f-expired-session');
  const req = publishRequest(creds, [video(h, 1000)], { title: 'Findable', madeForKids: false }, 'exact description');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'PUT', path: SESSION, count: 2 });
  assert.equal((await h.adapter.publish(req)).ok, false);
  h.emu.faults.clear();
  h.emu.settings.sessionTtlMs = 0;
  const other = publishRequest(creds, [video(h, 1000)], { title: 'Findable', madeForKids: false }, 'another description');
  const notThere = await h.adapter.reconcile({ ...retryOf(other), checkpoint: req.saved[0]! });
  assert.deepEqual(notThere, { ok: true, found: false });
  const next = retryOf(req);
  const found = await h.adapter.reconcile(next);
  assert.equal(found.ok && found.found === true && found.platformPostId, videosOf(creds.accountId)[0]!.id);
  assert.equal(next.saved.at(-1)!.videoId, videosOf(creds.accountId)[0]!.id, 'the id found is saved');
});

test('quotaExceeded: quota_exceeded until midnight Pacific, and health reports the quota used up', async () => {
  const { creds } = await connectAccount(h, 'f-quota');
  h.emu.quota.set({ uploads: 100 });
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!r.ok && r.category, 'quota_exceeded');
  assert.equal(!r.ok && r.platformCode, 'quotaExceeded');
  assert.equal(!r.ok && r.retryAt, nextQuotaReset(Date.now()));
  assert.ok(!r.ok && !r.message.includes('<a'), 'no HTML in the message');
  const health = await h.adapter.health(creds);
  assert.deepEqual(health.ok && health.quota, { used: 100, total: 100 });
});

test('a channel\'s daily upload cap: quota_exceeded, retried a day later', async () => {
  const { creds } = await connectAccount(h, 'f-cap');
  h.emu.settings.channelDailyUploads = 0;
  const started = Date.now();
  const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!r.ok && r.category, 'quota_exceeded');
  assert.equal(!r.ok && r.platformCode, 'uploadLimitExceeded');
  assert.ok(!r.ok && r.retryAt! >= started + 86_400_000);
});

test('validation and permission faults: content_rejected and permission_missing with YouTube\'s words', async () => {
  const { creds } = await connectAccount(h, 'f-400');
  h.emu.faults.add({ kind: 'validation', method: 'POST', path: SESSION });
  const invalid = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!invalid.ok && invalid.category, 'content_rejected');
  assert.equal(!invalid.ok && invalid.platformCode, 'invalidTitle');
  assert.match(!invalid.ok ? invalid.message : '', /invalid or empty video title/);
  h.emu.faults.add({ kind: 'permission', method: 'POST', path: SESSION });
  const denied = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
  assert.equal(!denied.ok && denied.category, 'permission_missing');
  assert.equal(videosOf(creds.accountId).length, 0);
});

test('opening the session gets no answer: platform_unavailable (a session makes no video), and a retry posts once', async () => {
  const { creds } = await connectAccount(h, 'f-open-hang');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: SESSION });
  const req = publishRequest(creds, [video(h, 1000)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(req.saved.length, 0);
  assert.ok((await h.adapter.publish(retryOf(req))).ok);
  assert.equal(videosOf(creds.accountId).length, 1);
});

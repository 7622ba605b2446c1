// The Mastodon adapter when things go wrong: a token refused mid-upload, rate limits and the statuses
// cap with the instance's reset time, 5xx then success, answers lost after the instance acted (hang,
// reset) and before it did (drop), reconcile from the account's statuses, and a thread cut in the middle.
// Whatever happens, the ledger shows each status once.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SAMPLE_MEDIA } from '../../src/sandbox/media.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/sandbox/mastodon/state.ts';
import { until } from '../helpers/wait.ts';
import { calls, connectAccount, image, made, publishRequest, retryOf, startHarness, video, type Harness } from './mastodon-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());
beforeEach(() => {
  h.emu.faults.clear();
  h.emu.settings.rateLimits = structuredClone(DEFAULT_RATE_LIMITS);
  h.emu.settings.processingMs = 30;
});

test('a token refused right after the upload: auth_expired, nothing posted; the next attempt reuses the upload and posts once', async () => {
  const { creds } = await connectAccount(h, 'mid-upload');
  const content = `mid-upload ${Date.now()}`;
  h.emu.faults.add({ kind: 'expired_token', method: 'POST', path: '/api/v1/statuses' });
  const uploads = calls(h, 'POST', /^\/api\/v2\/media$/);
  const req = publishRequest(creds, content, [image(h, 1, 'alt')]);
  const first = await h.adapter.publish(req);
  assert.equal(!first.ok && first.category, 'auth_expired');
  assert.equal(!first.ok && first.httpStatus, 401);
  assert.equal(made(h, content).length, 0);
  // The engine refreshes once: Mastodon has no refresh grant, so the adapter checks the token, which works.
  const refreshed = await h.adapter.refresh(creds);
  assert.ok(refreshed.ok);
  const second = await h.adapter.publish(retryOf(req));
  assert.ok(second.ok, second.ok ? '' : second.message);
  assert.equal(made(h, content).length, 1);
  assert.equal(calls(h, 'POST', /^\/api\/v2\/media$/), uploads + 1, 'the media uploaded before the refusal was attached, not uploaded again');
});

test('a token revoked while the video is processing: auth_expired, and it cannot be renewed', async () => {
  const { creds } = await connectAccount(h, 'revoked-mid-upload');
  // Processing outlasts the test: the token is revoked once Herald has been told "still processing" (206),
  // however slow the machine, and Herald waits as long as it takes.
  h.emu.settings.processingMs = 3_600_000;
  const content = `revoked ${Date.now()}`;
  const polls = h.emu.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/v1/media/') && c.status === 206).length;
  const patient = h.adapterWith({ timing: { pollIntervalMs: 20, maxProcessingMs: 600_000 } });
  const pending = patient.publish(publishRequest(creds, content, [video(h)]));
  await until('Herald to poll the video while it is processing', () => h.emu.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/v1/media/') && c.status === 206).length > polls);
  h.emu.oauth.revokeUser(creds.meta.mastodonId as string);
  const r = await pending;
  assert.equal(!r.ok && r.category, 'auth_expired');
  assert.equal(made(h, content).length, 0);
  const refresh = await h.adapter.refresh(creds);
  assert.equal(!refresh.ok && refresh.category, 'auth_expired');
});

test('429 with X-RateLimit-Reset: rate_limited with retryAt at that time', async () => {
  const { creds } = await connectAccount(h, 'throttled');
  h.emu.faults.add({ kind: 'rate_limited', method: 'POST', path: '/api/v1/statuses', resetSeconds: 90 });
  const r = await h.adapter.publish(publishRequest(creds, `throttled ${Date.now()}`));
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.ok(!r.ok && Math.abs(r.retryAt! - (Date.now() + 90_000)) < 3000, `retryAt ${!r.ok && r.retryAt}`);
});

test('the statuses cap (300 per 3 hours, here 1): quota_exceeded until its window ends', async () => {
  // The instance's clock sits just past a 3-hour boundary (in the future), so its window ends hours away
  // whenever the test runs.
  const period = 3 * 3600_000;
  const offset = (Math.floor(Date.now() / period) + 2) * period + 1000 - Date.now();
  const capped = await startHarness({ now: () => Date.now() + offset, rateLimits: { statuses: { limit: 1, periodS: 3 * 3600 } } });
  try {
    const { creds } = await connectAccount(capped, 'capped');
    assert.ok((await capped.adapter.publish(publishRequest(creds, 'cap one'))).ok);
    const r = await capped.adapter.publish(publishRequest(creds, 'cap two'));
    assert.equal(!r.ok && r.category, 'quota_exceeded');
    assert.equal(!r.ok && r.retryAt, (Math.floor((Date.now() + offset) / period) + 1) * period);
    assert.equal(made(capped).length, 1);
  } finally {
    await capped.close();
  }
});

test('the media upload limit (30 per 30 minutes, here 1): rate_limited until its window ends', async () => {
  const { creds } = await connectAccount(h, 'media-limited');
  h.emu.settings.rateLimits.media = { limit: 1, periodS: 1800 };
  const r = await h.adapter.publish(publishRequest(creds, 'two pictures', [image(h, 1), image(h, 2)]));
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.equal(!r.ok && r.retryAt, (Math.floor(Date.now() / 1_800_000) + 1) * 1_800_000);
  assert.match(!r.ok ? r.message : '', /media 2 of 2/);
});

test('500 then success: platform_unavailable, then the retry sends the same Idempotency-Key and posts once', async () => {
  const { creds } = await connectAccount(h, 'flaky');
  const content = `flaky ${Date.now()}`;
  h.emu.faults.add({ kind: 'server_error', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, content);
  const first = await h.adapter.publish(req);
  assert.equal(!first.ok && first.category, 'platform_unavailable');
  const key = (req.saved.at(-1)!.pending as { key: string }).key;
  const second = await h.adapter.publish(retryOf(req));
  assert.ok(second.ok);
  const [entry] = made(h, content);
  assert.equal(made(h, content).length, 1);
  assert.equal(entry!.extra!.idempotencyKey, key);
});

test('hang after the status was made: outcome_unknown; reconcile finds exactly that one post', async () => {
  const { creds } = await connectAccount(h, 'hanging');
  const content = `hang ${Date.now()}`;
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, content);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const [entry] = made(h, content);
  assert.equal(made(h, content).length, 1);
  const rec = retryOf(req);
  const found = await h.adapter.reconcile(rec);
  assert.deepEqual(found, { ok: true, found: true, platformPostId: entry!.id, platformPostUrl: entry!.extra!.url });
  // Publishing with what reconcile saved sends nothing.
  const creates = calls(h, 'POST', /^\/api\/v1\/statuses$/);
  const again = await h.adapter.publish(retryOf(rec));
  assert.ok(again.ok && again.platformPostId === entry!.id);
  assert.equal(calls(h, 'POST', /^\/api\/v1\/statuses$/), creates);
  assert.equal(made(h, content).length, 1);
});

test('a connection cut after the status was made: re-sent within the hour, the key brings back the same status', async () => {
  const { creds } = await connectAccount(h, 'reset');
  const content = `reset ${Date.now()}`;
  h.emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, content, [image(h, 3)]);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(made(h, content).length, 1);
  assert.equal(made(h, content)[0]!.id, again.platformPostId);
});

test('a status with media whose answer was lost is found by its attachment ids', async () => {
  const { creds } = await connectAccount(h, 'media-hang');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, '', [image(h, 4), image(h, 5)]);
  assert.equal((await h.adapter.publish(req)).ok, false);
  const sources = calls(h, 'GET', /\/source$/);
  const found = await h.adapter.reconcile(retryOf(req));
  assert.ok(found.ok && found.found === true);
  assert.equal(calls(h, 'GET', /\/source$/), sources, 'no text to compare: the ids decide');
});

test('cut before the instance did anything: reconcile shows no such status (found false); the next attempt posts once', async () => {
  const { creds } = await connectAccount(h, 'dropped');
  const content = `dropped ${Date.now()}`;
  h.emu.faults.add({ kind: 'drop', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, content);
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  assert.equal(made(h, content).length, 0);
  const rec = retryOf(req);
  assert.deepEqual(await h.adapter.reconcile(rec), { ok: true, found: false });
  assert.ok((await h.adapter.publish(retryOf(rec))).ok);
  assert.equal(made(h, content).length, 1);
});

test('past the key\'s hour, reconcile reads the source text; found absent, a new key is used', async () => {
  const { creds } = await connectAccount(h, 'late');
  const content = `late ${Date.now()}`;
  // Another status by the same account, same time, other text: it must not be taken for ours.
  await h.adapter.publish(publishRequest(creds, `${content} (not this one)`));
  h.emu.faults.add({ kind: 'drop', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, content);
  assert.equal((await h.adapter.publish(req)).ok, false);
  const cp = structuredClone(req.saved.at(-1)!) as { pending: { sentAt: number; key: string } };
  cp.pending.sentAt = Date.now() - 2 * 3600_000;
  const old = retryOf(req);
  old.checkpoint = cp;
  assert.deepEqual(await h.adapter.reconcile(old), { ok: true, found: false });
  const r = await h.adapter.publish(retryOf(old));
  assert.ok(r.ok);
  assert.notEqual(made(h, content)[0]!.extra!.idempotencyKey, cp.pending.key);
});

test('past the key\'s hour, a status that was made is found by its source text', async () => {
  const { creds } = await connectAccount(h, 'late-found');
  const content = `late but there ${Date.now()}`;
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/api/v1/statuses' });
  const req = publishRequest(creds, content);
  assert.equal((await h.adapter.publish(req)).ok, false);
  const cp = structuredClone(req.saved.at(-1)!) as { pending: { sentAt: number } };
  cp.pending.sentAt = Date.now() - 2 * 3600_000;
  const old = retryOf(req);
  old.checkpoint = cp;
  const found = await h.adapter.reconcile(old);
  assert.ok(found.ok && found.found === true && found.platformPostId === made(h, content)[0]!.id);
});

test('reconcile without a checkpoint: nothing was sent', async () => {
  const { creds } = await connectAccount(h, 'never');
  assert.deepEqual(await h.adapter.reconcile(publishRequest(creds, 'never sent')), { ok: true, found: false });
});

test('a thread cut in the middle resumes after the last status the instance accepted', async () => {
  // A media host that fails once (503), then serves the picture.
  let hits = 0;
  const flaky: Server = createServer((_req, res) => {
    hits++;
    if (hits === 1) return void res.writeHead(503).end();
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(SAMPLE_MEDIA['sample.jpg']!.bytes);
  });
  await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
  try {
    const { creds } = await connectAccount(h, 'interrupted');
    const stamp = Date.now();
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/pic.jpg`;
    const req = publishRequest(creds, `head ${stamp}`, [], { threadItems: [{ content: `reply ${stamp}`, mediaItems: [{ type: 'image', url }] }] });
    const first = await h.adapter.publish(req);
    assert.equal(!first.ok && first.category, 'platform_unavailable');
    assert.match(!first.ok ? first.message : '', /^reply 1 of the thread: /);
    assert.equal(made(h, `head ${stamp}`).length, 1);
    const second = await h.adapter.publish(retryOf(req));
    assert.ok(second.ok, second.ok ? '' : second.message);
    assert.equal(second.platformPostId, made(h, `head ${stamp}`)[0]!.id);
    assert.equal(made(h, `head ${stamp}`).length, 1);
    assert.equal(made(h, `reply ${stamp}`).length, 1);
    assert.equal(made(h, `reply ${stamp}`)[0]!.extra!.inReplyToId, second.platformPostId);
  } finally {
    await new Promise((r) => flaky.close(r));
  }
});

test('a reply of a thread whose answer was lost is reconciled; the post stays the first status', async () => {
  const { creds } = await connectAccount(h, 'thread-hang');
  const stamp = Date.now();
  const req = publishRequest(creds, `t-head ${stamp}`, [], { threadItems: [{ content: `t-reply ${stamp}` }] });
  // The first create goes through; the reply's answer is lost.
  h.emu.faults.add({ kind: 'slow', method: 'POST', path: '/api/v1/statuses', delayMs: 1 });
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/api/v1/statuses' });
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const found = await h.adapter.reconcile(retryOf(req));
  assert.ok(found.ok && found.found === true);
  assert.equal(found.ok && found.found === true && found.platformPostId, made(h, `t-head ${stamp}`)[0]!.id);
  assert.equal(made(h, `t-reply ${stamp}`).length, 1);
});

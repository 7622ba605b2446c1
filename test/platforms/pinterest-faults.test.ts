// The Pinterest adapter under injected faults: every failure lands in the right category, unknown
// outcomes are reconciled from the board's Pins, and no fault leads to a Pin published twice (the
// emulator's ledger is the proof).
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount, image, publishRequest, retryOf, sleep, startHarness, video, type Harness } from './pinterest-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
afterEach(() => {
  h.emu.faults.clear();
  h.emu.settings.writesPerMinute = 60;
  h.emu.settings.trialAccess = false;
});
after(() => h.close());

const ledgerOf = (accountId: string) => h.emu.ledger.list({ accountId }).filter((e) => e.kind !== 'delete');
const count = (method: string, path: string) => h.emu.calls.filter((c) => c.method === method && c.path.startsWith(path)).length;

test('token expiry mid-upload: auth_expired, then the retry with a fresh token resumes the same upload', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-midway');
  // The token dies while Herald waits for Pinterest to process the video.
  h.emu.faults.add({ kind: 'expired_token', method: 'GET', path: '/v5/media/' });
  const req = publishRequest(creds, [video(h, 20_000)], { boardId });
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'auth_expired');
  assert.equal(!r.ok && r.platformCode, '2');
  const mediaId = req.saved.at(-1)!.mediaId;
  assert.match(String(mediaId), /^\d+$/);
  const renewed = await h.adapter.refresh(creds);
  assert.ok(renewed.ok);
  const registers = count('POST', '/v5/media');
  const uploads = count('POST', '/pinterest-media-upload/');
  const again = await h.adapter.publish(retryOf(req, { ...creds, accessToken: renewed.grant.accessToken }));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(count('POST', '/v5/media'), registers, 'no second registration');
  assert.equal(count('POST', '/pinterest-media-upload/'), uploads, 'no second upload');
  assert.deepEqual(ledgerOf(creds.accountId).map((e) => [e.id, e.extra?.mediaId]), [[again.platformPostId, mediaId]]);
});

test('429 with a reset time → rate_limited with retryAt from it; nothing posted', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-429');
  h.emu.faults.add({ kind: 'rate_limited', method: 'POST', path: '/v5/pins', resetSeconds: 120 });
  const started = Date.now();
  const r = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }));
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.equal(!r.ok && r.platformCode, '8');
  assert.ok(!r.ok && r.retryAt! >= started + 120_000 && r.retryAt! <= Date.now() + 120_000);
  assert.equal(ledgerOf(creds.accountId).length, 0);
});

test('Pinterest\'s own per-minute write limit reads the same way', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-organic-429');
  h.emu.settings.writesPerMinute = 1;
  assert.ok((await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }, 'first'))).ok);
  const r = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }, 'second'));
  assert.equal(!r.ok && r.category, 'rate_limited');
  assert.ok(!r.ok && r.retryAt! > Date.now() + 50_000);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('500 on the pin call, then success: the retry looks on the board first and posts once', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-500');
  h.emu.faults.add({ kind: 'server_error', method: 'POST', path: '/v5/pins' });
  const req = publishRequest(creds, [image(h)], { boardId });
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(!r.ok && r.httpStatus, 500);
  const looks = count('GET', `/v5/boards/${boardId}/pins`);
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(count('GET', `/v5/boards/${boardId}/pins`), looks + 1);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('hang after the Pin is made: outcome_unknown, reconcile finds exactly that Pin, a retry does not post again', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-hang');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/v5/pins' });
  const req = publishRequest(creds, [image(h)], { boardId, title: 'Hung' }, 'made, then silence');
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const [made] = ledgerOf(creds.accountId);
  assert.ok(made, 'Pinterest did make it');
  const rec = await h.adapter.reconcile(retryOf(req));
  assert.deepEqual(rec, { ok: true, found: true, platformPostId: made.id, platformPostUrl: `https://www.pinterest.com/pin/${made.id}/` });
  const pins = count('POST', '/v5/pins');
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok && again.platformPostId === made.id);
  assert.equal(count('POST', '/v5/pins'), pins, 'no second pin call');
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('the connection cut after the Pin is made (accept_then_reset): reconcile finds it', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-reset');
  h.emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/v5/pins' });
  const req = publishRequest(creds, [image(h, 'sample.jpg', 1), image(h, 'sample.png', 2)], { boardId }, 'a carousel cut short');
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'outcome_unknown');
  const rec = await h.adapter.reconcile(retryOf(req));
  assert.ok(rec.ok && rec.found === true);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('a connection dropped before Pinterest acted: unknown, reconcile says not found, the retry posts once', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-drop');
  h.emu.faults.add({ kind: 'drop', method: 'POST', path: '/v5/pins' });
  const req = publishRequest(creds, [image(h)], { boardId }, 'dropped');
  const r = await h.adapter.publish(req);
  assert.ok(!r.ok && (r.category === 'outcome_unknown' || r.category === 'platform_unavailable'));
  assert.deepEqual(await h.adapter.reconcile(retryOf(req)), { ok: true, found: false });
  assert.ok((await h.adapter.publish(retryOf(req))).ok);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('reconcile without a pin time asks nothing: no Pin was ever asked for', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-early');
  const req = publishRequest(creds, [video(h)], { boardId });
  req.checkpoint = { kind: 'video', mediaId: '1040000000000000001' };
  const calls = h.emu.calls.length;
  assert.deepEqual(await h.adapter.reconcile(req), { ok: true, found: false });
  assert.equal(h.emu.calls.length, calls);
});

test('reconcile reads every page of the board; a board too long to read says unknown; a read failure is a failure', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-pages');
  for (let i = 0; i < 5; i++) assert.ok((await h.adapter.publish(publishRequest(creds, [image(h, 'sample.jpg', i)], { boardId }, `filler ${i}`))).ok);
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/v5/pins' });
  const req = publishRequest(creds, [image(h)], { boardId }, 'the one');
  assert.equal((await h.adapter.publish(req)).ok, false);
  await sleep(20);
  for (let i = 5; i < 8; i++) assert.ok((await h.adapter.publish(publishRequest(creds, [image(h, 'sample.jpg', i)], { boardId }, `filler ${i}`))).ok);
  const paged = h.adapterWith({}, { locate: { pageSize: 2, maxPages: 10 } });
  const found = await paged.reconcile(retryOf(req));
  assert.ok(found.ok && found.found === true && found.platformPostId === ledgerOf(creds.accountId).find((e) => e.text === 'the one')!.id);
  const short = h.adapterWith({}, { locate: { pageSize: 2, maxPages: 1 } });
  const unknown = await short.reconcile(retryOf(req));
  assert.ok(unknown.ok && unknown.found === 'unknown');
  h.emu.faults.add({ kind: 'server_error', method: 'GET', path: '/pins' });
  const failed = await h.adapter.reconcile(retryOf(req));
  assert.equal(!failed.ok && failed.category, 'platform_unavailable');
});

test('a hang on the storage upload: the retry finds the bytes arrived and pins them without uploading again', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-hang-upload');
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/pinterest-media-upload/' });
  const req = publishRequest(creds, [video(h, 10_000)], { boardId });
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.deepEqual(await h.adapter.reconcile(retryOf(req)), { ok: true, found: false }, 'no Pin was asked for');
  const uploads = count('POST', '/pinterest-media-upload/');
  const again = await h.adapter.publish(retryOf(req));
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.equal(count('POST', '/pinterest-media-upload/'), uploads);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('the storage host failing (S3 XML 500): platform_unavailable; the retry registers a fresh upload', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-s3');
  h.emu.faults.add({ kind: 'server_error', method: 'POST', path: '/pinterest-media-upload/' });
  const req = publishRequest(creds, [video(h)], { boardId });
  const r = await h.adapter.publish(req);
  assert.equal(!r.ok && r.category, 'platform_unavailable');
  assert.equal(!r.ok && r.platformCode, 'InternalError');
  const first = req.saved.at(-1)!.mediaId;
  const retry = retryOf(req);
  const again = await h.adapter.publish(retry);
  assert.ok(again.ok, again.ok ? '' : again.message);
  assert.notEqual(retry.saved.at(-1)!.mediaId, first);
  assert.equal(ledgerOf(creds.accountId).length, 1);
});

test('validation and permission answers: content_rejected and permission_missing with Pinterest\'s text', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-4xx');
  h.emu.faults.add({ kind: 'validation', method: 'POST', path: '/v5/pins', message: 'description contains a blocked word' });
  const v = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }));
  assert.equal(!v.ok && v.category, 'content_rejected');
  assert.match(!v.ok ? v.message : '', /blocked word \(code 1\)/);
  h.emu.faults.add({ kind: 'permission', method: 'POST', path: '/v5/pins' });
  const p = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }));
  assert.equal(!p.ok && p.category, 'permission_missing');
  assert.equal(!p.ok && p.platformCode, '3');
});

test('unpublish whose answer was lost: the next asking finds the Pin gone and counts it deleted', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-unpublish');
  const r = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }));
  assert.ok(r.ok);
  h.emu.faults.add({ kind: 'accept_then_hang', method: 'DELETE', path: '/v5/pins/' });
  const request = { account: creds, platformPostId: r.platformPostId, checkpoint: null };
  const lost = await h.adapter.unpublish!(request);
  assert.equal(!lost.ok && lost.category, 'platform_unavailable');
  assert.deepEqual(await h.adapter.unpublish!(request), { ok: true, deleted: true });
  assert.equal(h.emu.ledger.list({ kind: 'delete' }).filter((e) => e.id === r.platformPostId).length, 1);
});

test('an app with Trial access may not create Pins in production: permission_missing, with Pinterest\'s pointer to its sandbox', async () => {
  const { creds, boardId } = await connectAccount(h, 'f-trial');
  h.emu.settings.trialAccess = true;
  const r = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }));
  assert.equal(!r.ok && r.category, 'permission_missing');
  assert.equal(!r.ok && r.platformCode, '29');
  assert.match(!r.ok ? r.message : '', /api-sandbox\.pinterest\.com/);
  assert.equal(ledgerOf(creds.accountId).length, 0);
});

// POST /v1/posts through the real HTTP stack: the three modes, time zones, and every create-time rule
// with its exact shape-B error. The rows of the input fault matrix (no content or media, missing platforms,
// bad timezone, past time, too many targets or media, over 1 MiB) are in test/faults/input.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let server: EmulatorServer;
let h: TestHerald;
let x: string; // a connected X account
let tiktok: string;
let instagram: string;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

before(async () => {
  server = await startEmulatorServer(createEmulators());
  h = await startHerald({ emulators: server });
  x = (await connectAccount(h, 'twitter')).accountId;
  tiktok = (await connectAccount(h, 'tiktok')).accountId;
  instagram = (await connectAccount(h, 'instagram')).accountId;
});
after(async () => {
  await h.close();
  await server.close();
});

async function expectB(body: unknown, status: number, code: string, param: string | null, extra: { raw?: string; headers?: Record<string, string>; key?: string | null } = {}) {
  const res = await h.request('POST', '/v1/posts', { body: extra.raw === undefined ? body : undefined, raw: extra.raw, headers: extra.headers, key: extra.key });
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.equal(res.body.param, param, res.text);
  assert.equal(typeof res.body.error, 'string');
  assert.ok(res.body.error.length > 0);
  assert.ok(['invalid_request_error', 'authentication_error', 'idempotency_error'].includes(res.body.type), res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'param', 'type']);
  return res.body;
}

describe('modes', () => {
  test('a draft needs no platforms and publishes nothing', async () => {
    const res = await h.request('POST', '/v1/posts', { body: { content: 'an idea', isDraft: true, tags: ['ideas'] } });
    assert.equal(res.status, 201);
    assert.match(res.body.id, /^post_[A-Za-z0-9_-]{20,}$/);
    assert.equal(res.body.status, 'draft');
    assert.deepEqual(res.body.platforms, []);
    assert.deepEqual(res.body.tags, ['ideas']);
    assert.match(res.body.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('a scheduled post stores its targets pending and its time in UTC', async () => {
    const when = inAnHour();
    const res = await h.request('POST', '/v1/posts', {
      body: {
        content: 'later',
        scheduledFor: when,
        platforms: [
          { platform: 'twitter', accountId: x },
          { platform: 'tiktok', accountId: tiktok, customMedia: [{ type: 'video', url: `${server.mediaUrl}/sample.mp4` }] },
          { platform: 'instagram', accountId: instagram, customMedia: [{ type: 'image', url: `${server.mediaUrl}/sample.jpg` }] },
        ],
        tiktokSettings: { privacyLevel: 'SELF_ONLY' },
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 'scheduled');
    assert.equal(res.body.scheduledFor, when);
    assert.deepEqual(res.body.platforms.map((p: { status: string }) => p.status), ['pending', 'pending', 'pending']);
    assert.equal(res.body.platforms[1].customMedia[0].type, 'video');
    const again = await h.request('GET', `/v1/posts/${res.body.id}`);
    assert.deepEqual(again.body, res.body);
  });

  test('a local time is read in the timezone', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const res = await h.request('POST', '/v1/posts', {
      body: { content: 'x', scheduledFor: `${year}-01-15T09:30:00`, timezone: 'Europe/Paris', platforms: [{ platform: 'twitter', accountId: x }] },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.scheduledFor, `${year}-01-15T08:30:00.000Z`);
    assert.equal(res.body.timezone, 'Europe/Paris');
  });
});

describe('400 rules (shape B)', () => {
  const target = () => [{ platform: 'twitter', accountId: x }];
  test('a mode is required', () => expectB({ content: 'x', platforms: target() }, 400, 'missing_required_field', 'publishNow'));
  test('publishNow false alone is no mode', () =>
    expectB({ content: 'x', publishNow: false, platforms: target() }, 400, 'missing_required_field', 'publishNow'));
  test('isDraft and publishNow contradict', () =>
    expectB({ content: 'x', isDraft: true, publishNow: true }, 400, 'invalid_field_value', 'publishNow'));
  test('publishNow and scheduledFor contradict', () =>
    expectB({ content: 'x', publishNow: true, scheduledFor: inAnHour(), platforms: target() }, 400, 'invalid_field_value', 'scheduledFor'));
  test('more than two years ahead is refused', () =>
    expectB({ content: 'x', scheduledFor: new Date(Date.now() + 3 * 365 * 86_400_000).toISOString(), platforms: target() }, 400, 'invalid_field_value', 'scheduledFor'));
  test('an unreadable time is refused', () =>
    expectB({ content: 'x', scheduledFor: 'next tuesday', platforms: target() }, 400, 'invalid_field_value', 'scheduledFor'));
  test('a local time skipped by DST is refused', async () => {
    const b = await expectB(
      { content: 'x', scheduledFor: '2027-03-14T02:30:00', timezone: 'America/New_York', platforms: target() },
      400,
      'invalid_field_value',
      'scheduledFor',
    );
    assert.match(b.error, /does not exist/);
  });
  test('an unknown field is named, never ignored', () =>
    expectB({ content: 'x', scheduleFor: inAnHour(), platforms: target() }, 400, 'unknown_field', 'scheduleFor'));
  test('an unknown nested field is named with its path', () =>
    expectB({ content: 'x', isDraft: true, platforms: [{ platform: 'twitter', accountId: x, custom: 1 }] }, 400, 'unknown_field', 'platforms[0].custom'));
  test('a missing nested field is named with its path', () =>
    expectB({ content: 'x', isDraft: true, platforms: [{ platform: 'twitter', accountId: x }, { platform: 'twitter' }] }, 400, 'missing_required_field', 'platforms[1].accountId'));
  test('an unknown platform is refused', () =>
    expectB({ content: 'x', isDraft: true, platforms: [{ platform: 'myspace', accountId: '1' }] }, 400, 'invalid_field_value', 'platforms[0].platform'));
  test('a wrong type is refused without coercion', () =>
    expectB({ content: 'x', publishNow: 'true', platforms: target() }, 400, 'invalid_field_value', 'publishNow'));
  test('an account that is not connected is refused', () =>
    expectB({ content: 'x', scheduledFor: inAnHour(), platforms: [{ platform: 'twitter', accountId: '999' }] }, 400, 'invalid_field_value', 'platforms[0].accountId'));
  test('an account of another platform is refused', () =>
    expectB({ content: 'x', scheduledFor: inAnHour(), platforms: [{ platform: 'threads', accountId: x }] }, 400, 'invalid_field_value', 'platforms[0].accountId'));
  test('duplicate targets are refused', () =>
    expectB({ content: 'x', scheduledFor: inAnHour(), platforms: [...target(), ...target()] }, 400, 'invalid_field_value', 'platforms[1].accountId'));
  test('a media URL must be absolute http(s)', () =>
    expectB({ isDraft: true, mediaItems: [{ type: 'image', url: 'ftp://example.com/a.jpg' }] }, 400, 'invalid_field_value', 'mediaItems[0].url'));
  test('a media type must be image or video', () =>
    expectB({ isDraft: true, mediaItems: [{ type: 'gif', url: 'https://example.com/a.gif' }] }, 400, 'invalid_field_value', 'mediaItems[0].type'));
  test("platformSpecificData is checked against the target platform's options", () =>
    expectB({ content: 'x', isDraft: true, platforms: [{ platform: 'twitter', accountId: x, platformSpecificData: { privacyLevel: 'SELF_ONLY' } }] }, 400, 'unknown_field', 'platforms[0].platformSpecificData.privacyLevel'));
  test('settings objects reject unknown options', () =>
    expectB({ content: 'x', isDraft: true, tiktokSettings: { privacy: 'SELF_ONLY' } }, 400, 'unknown_field', 'tiktokSettings.privacy'));
  test('a body that is not JSON is a 400', () => expectB(undefined, 400, 'invalid_field_value', null, { raw: '{"content":', headers: { 'content-type': 'application/json' } }));
  test('a body that is not an object is a 400', () => expectB(undefined, 400, 'invalid_field_value', null, { raw: '[1,2]', headers: { 'content-type': 'application/json' } }));
});

describe('422 platform rules (shape B)', () => {
  test('X text over 280 weighted characters', async () => {
    const b = await expectB({ content: 'é'.repeat(281), scheduledFor: inAnHour(), platforms: [{ platform: 'twitter', accountId: x }] }, 422, 'invalid_field_value', 'content');
    assert.match(b.error, /platforms\[0\] \(twitter\)/);
  });
  test('the param names the field the target really publishes', () =>
    expectB(
      { content: 'short', scheduledFor: inAnHour(), platforms: [{ platform: 'twitter', accountId: x, customContent: '😀'.repeat(141) }] },
      422,
      'invalid_field_value',
      'platforms[0].customContent',
    ));
  test('instagram needs media', () =>
    expectB({ content: 'words only', scheduledFor: inAnHour(), platforms: [{ platform: 'instagram', accountId: instagram }] }, 422, 'invalid_field_value', 'mediaItems'));
  test('tiktok needs a privacy level', () =>
    expectB(
      { content: 'v', mediaItems: [{ type: 'video', url: `${server.mediaUrl}/sample.mp4` }], scheduledFor: inAnHour(), platforms: [{ platform: 'tiktok', accountId: tiktok }] },
      422,
      'invalid_field_value',
      'tiktokSettings.privacyLevel',
    ));
  test('X refuses images and video mixed', () =>
    expectB(
      {
        content: 'x',
        mediaItems: [
          { type: 'image', url: `${server.mediaUrl}/sample.jpg` },
          { type: 'video', url: `${server.mediaUrl}/sample.mp4` },
        ],
        scheduledFor: inAnHour(),
        platforms: [{ platform: 'twitter', accountId: x }],
      },
      422,
      'invalid_field_value',
      'mediaItems',
    ).then(() => undefined));
});

describe('transport errors (shape B on this route)', () => {
  test('401 without a key', () => expectB({ content: 'x', isDraft: true }, 401, 'invalid_credentials', 'Authorization', { key: null }));
  test('401 comes before validation', () => expectB({ nonsense: true }, 401, 'invalid_credentials', 'Authorization', { key: 'hk_wrong' }));
  test('415 for a body that is not JSON', async () => {
    await expectB(undefined, 415, 'unsupported_media_type', null, { raw: 'content=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await expectB(undefined, 415, 'unsupported_media_type', null, { raw: '{"content":"x","isDraft":true}', headers: { 'content-type': 'text/plain' } });
  });
});

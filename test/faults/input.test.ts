// Fault matrix: bad input. Each row is a request a client gets wrong and the exact answer of API.md
// (shape B on POST /v1/posts: status, type, code, param; shape A elsewhere), with nothing created:
//   no content and no media (draft; whitespace only; scheduled, targets bring none) → 400 missing_required_field, content
//   missing platforms on a non-draft (publishNow absent or [], scheduled absent)    → 400 missing_required_field, platforms
//   bad timezone (unknown name, empty, a UTC offset)                               → 400 invalid_field_value, timezone
//   scheduledFor in the past (UTC, a second ago, local time in a timezone)          → 400 invalid_field_value, scheduledFor
//   body over 1 MiB on POST /v1/posts                                               → 413 payload_too_large (shape B, param null)
//   body over 1 MiB on every other route with a body                                → 413 PAYLOAD_TOO_LARGE (shape A)
//   limit over 100 (or under 1, or not an integer) on GET /v1/posts and deliveries → 400 VALIDATION_ERROR, limit
//   26 targets (25 pass that rule)                                                  → 400 invalid_field_value, platforms
//   36 media items, shared or per target (35 pass)                                  → 400 invalid_field_value, mediaItems / platforms[0].customMedia
//   a path segment over 100 characters                                             → 414 URI_TOO_LONG (shape A)
//   a malformed percent-escape in the path (%zz)                                   → 400 VALIDATION_ERROR (shape A)
//   a body holding a "__proto__" key, or "constructor" holding "prototype"         → 400 invalid_field_value / VALIDATION_ERROR naming the key
//   the character U+0000 (NUL) in a JSON string or key, a path, a query, a CSV    → 400 invalid_field_value / VALIDATION_ERROR naming the field,
//   cell or a multipart altText                                                      nothing created, on both databases (PostgreSQL's text cannot
//                                                                                    hold it: each was a 500 there)
//   a method the path does not take (PUT /v1/posts, PUT /v1/posts/{id}, …)         → 405 METHOD_NOT_ALLOWED, Allow lists the path's methods
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let server: EmulatorServer;
let h: TestHerald;
let x: string; // a connected X account of h.key
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
/** A valid local time (no offset) next year, so that only the timezone can be wrong. */
const localTime = () => `${new Date().getUTCFullYear() + 1}-06-15T09:30:00`;
const target = () => [{ platform: 'twitter', accountId: x }];
const image = { type: 'image', url: 'https://example.com/a.jpg' };
const OVER_1_MIB = 'x'.repeat(1_100_000);

before(async () => {
  server = await startEmulatorServer(createEmulators());
  h = await startHerald({ emulators: server });
  x = (await connectAccount(h, 'twitter')).accountId;
});
after(async () => {
  await h.close();
  await server.close();
});

async function postIds(key?: string): Promise<string[]> {
  const list = await h.request('GET', '/v1/posts?limit=100', { key });
  assert.equal(list.status, 200, list.text);
  return list.body.posts.map((p: { id: string }) => p.id);
}

/** POST /v1/posts must answer exactly this shape-B error and create nothing. */
function refusedB(body: unknown, status: number, code: string, param: string | null) {
  return refusedBy({ body }, status, code, param);
}

/** The same, for a body sent as this JSON text (keys such as "__proto__" that an object cannot carry). */
function refusedRawB(raw: string, status: number, code: string, param: string | null) {
  return refusedBy({ raw, headers: { 'content-type': 'application/json' } }, status, code, param);
}

async function refusedBy(request: { body?: unknown; raw?: string; headers?: Record<string, string> }, status: number, code: string, param: string | null) {
  const before = await postIds();
  const res = await h.request('POST', '/v1/posts', request);
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'param', 'type'], 'shape B');
  assert.equal(res.body.type, 'invalid_request_error', res.text);
  assert.equal(res.body.code, code, res.text);
  assert.equal(res.body.param, param, res.text);
  assert.ok(typeof res.body.error === 'string' && res.body.error.length > 0);
  assert.deepEqual(await postIds(), before, 'nothing was created');
  return res.body as { error: string };
}

/** A shape-A error: {error, code} and optionally param and details, nothing else. */
function assertShapeA(res: { status: number; body: any; text: string }, status: number, code: string, param?: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body).filter((k) => !['error', 'code', 'param', 'details'].includes(k)), [], `shape A: ${res.text}`);
  assert.equal(res.body.code, code, res.text);
  assert.ok(typeof res.body.error === 'string' && res.body.error.length > 0);
  if (param !== undefined) assert.equal(res.body.param, param, res.text);
}

describe('no content and no media', () => {
  test('a draft with no content and no media → 400 missing_required_field, param content', async () => {
    await refusedB({ isDraft: true }, 400, 'missing_required_field', 'content');
  });
  test('content of only whitespace and no media → 400 missing_required_field, param content', async () => {
    await refusedB({ content: ' \n\t ', isDraft: true }, 400, 'missing_required_field', 'content');
  });
  test('a scheduled post with no content and no media whose targets bring none either → 400 missing_required_field, param content', async () => {
    await refusedB({ scheduledFor: inAnHour(), platforms: target() }, 400, 'missing_required_field', 'content');
  });
});

describe('missing platforms on a non-draft', () => {
  test('publishNow without platforms → 400 missing_required_field, param platforms', async () => {
    await refusedB({ content: 'x', publishNow: true }, 400, 'missing_required_field', 'platforms');
  });
  test('publishNow with platforms: [] → 400 missing_required_field, param platforms', async () => {
    await refusedB({ content: 'x', publishNow: true, platforms: [] }, 400, 'missing_required_field', 'platforms');
  });
  test('scheduledFor without platforms → 400 missing_required_field, param platforms', async () => {
    await refusedB({ content: 'x', scheduledFor: inAnHour() }, 400, 'missing_required_field', 'platforms');
  });
});

describe('bad timezone', () => {
  test('an unknown time zone name (Mars/Olympus) → 400 invalid_field_value, param timezone', async () => {
    await refusedB({ content: 'x', scheduledFor: localTime(), timezone: 'Mars/Olympus', platforms: target() }, 400, 'invalid_field_value', 'timezone');
  });
  test('an empty time zone → 400 invalid_field_value, param timezone', async () => {
    await refusedB({ content: 'x', scheduledFor: localTime(), timezone: '', platforms: target() }, 400, 'invalid_field_value', 'timezone');
  });
  test('an unknown time zone on publishNow is refused too → 400 invalid_field_value, param timezone', async () => {
    await refusedB({ content: 'x', publishNow: true, timezone: 'Europe/Atlantis', platforms: target() }, 400, 'invalid_field_value', 'timezone');
  });
  for (const offset of ['+02:00', '-0500', 'Z']) {
    test(`a UTC offset (${offset}) where an IANA name is required → 400 invalid_field_value, param timezone`, async () => {
      await refusedB({ content: 'x', scheduledFor: localTime(), timezone: offset, platforms: target() }, 400, 'invalid_field_value', 'timezone');
    });
  }
});

describe('scheduledFor in the past', () => {
  const cases: [string, () => Record<string, unknown>][] = [
    ['a UTC time years ago', () => ({ scheduledFor: '2020-01-01T00:00:00Z' })],
    ['a second ago', () => ({ scheduledFor: new Date(Date.now() - 1000).toISOString() })],
    ['a past local time read in its timezone', () => ({ scheduledFor: '2020-06-01T10:00:00', timezone: 'Europe/Paris' })],
  ];
  for (const [name, when] of cases) {
    test(`scheduledFor ${name} → 400 invalid_field_value, param scheduledFor, pointing to publishNow`, async () => {
      const b = await refusedB({ content: 'x', ...when(), platforms: target() }, 400, 'invalid_field_value', 'scheduledFor');
      assert.match(b.error, /publishNow/);
    });
  }
});

describe('oversized body', () => {
  test('a body over 1 MiB on POST /v1/posts → 413 payload_too_large in shape B, param null', async () => {
    await refusedB({ content: OVER_1_MIB, isDraft: true }, 413, 'payload_too_large', null);
    // Even when it would be invalid too: the size is checked before anything is read.
    await refusedB({ nonsense: OVER_1_MIB }, 413, 'payload_too_large', null);
  });

  test('a body over 1 MiB on every other route that takes one → 413 PAYLOAD_TOO_LARGE in shape A, nothing changed', async () => {
    const { key } = await h.newKey('oversized');
    const draft = await h.request('POST', '/v1/posts', { key, body: { content: 'kept as is', isDraft: true } });
    assert.equal(draft.status, 201, draft.text);
    const routes: [string, unknown][] = [
      [`/v1/posts/${draft.body.id}/edit`, { content: OVER_1_MIB }],
      [`/v1/posts/${draft.body.id}/retry`, { padding: OVER_1_MIB }],
      ['/v1/connect/twitter', { code: OVER_1_MIB, redirect_url: 'https://app.example.com/cb' }],
      ['/v1/webhooks/settings', { url: `https://hooks.example.com/${OVER_1_MIB}`, events: ['post.deleted'] }],
      ['/v1/webhooks/test', { event: OVER_1_MIB }],
    ];
    for (const [path, body] of routes) {
      assertShapeA(await h.request('POST', path, { key, body }), 413, 'PAYLOAD_TOO_LARGE');
    }
    assert.deepEqual((await h.request('GET', `/v1/posts/${draft.body.id}`, { key })).body, draft.body, 'the post is untouched');
    assert.equal((await h.request('GET', '/v1/webhooks/settings', { key })).status, 404, 'no settings were saved');
    assert.deepEqual((await h.request('GET', '/v1/accounts', { key })).body.accounts, [], 'no account was connected');
  });
});

describe('limit out of range on a list', () => {
  for (const limit of ['101', '1000', '0', '-1', '2.5', 'abc']) {
    test(`GET /v1/posts?limit=${limit} → 400 VALIDATION_ERROR, param limit`, async () => {
      assertShapeA(await h.request('GET', `/v1/posts?limit=${limit}`), 400, 'VALIDATION_ERROR', 'limit');
    });
  }
  test('GET /v1/webhooks/deliveries?limit=101 → 400 VALIDATION_ERROR, param limit', async () => {
    assertShapeA(await h.request('GET', '/v1/webhooks/deliveries?limit=101'), 400, 'VALIDATION_ERROR', 'limit');
  });
});

describe('too many targets or media items', () => {
  const fakeTargets = (n: number) => Array.from({ length: n }, (_, i) => ({ platform: 'twitter', accountId: `acct${i}` }));
  test('26 targets → 400 invalid_field_value, param platforms (25 pass that rule)', async () => {
    await refusedB({ content: 'x', isDraft: true, platforms: fakeTargets(26) }, 400, 'invalid_field_value', 'platforms');
    // 25 are within the limit: the request goes on to the next rule (these accounts are not connected).
    await refusedB({ content: 'x', isDraft: true, platforms: fakeTargets(25) }, 400, 'invalid_field_value', 'platforms[0].accountId');
  });

  test('36 shared media items → 400 invalid_field_value, param mediaItems (35 are accepted)', async () => {
    await refusedB({ isDraft: true, mediaItems: Array.from({ length: 36 }, () => image) }, 400, 'invalid_field_value', 'mediaItems');
    const { key } = await h.newKey('35 media');
    const ok = await h.request('POST', '/v1/posts', { key, body: { isDraft: true, mediaItems: Array.from({ length: 35 }, () => image) } });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.mediaItems.length, 35);
  });

  test('36 media items on one target → 400 invalid_field_value, param platforms[0].customMedia', async () => {
    await refusedB(
      { content: 'x', isDraft: true, platforms: [{ platform: 'twitter', accountId: x, customMedia: Array.from({ length: 36 }, () => image) }] },
      400,
      'invalid_field_value',
      'platforms[0].customMedia',
    );
  });
});

describe('errors raised by the framework, in the error model too', () => {
  /** Shape A with the request id header, as every answer has (these are answered before routing). */
  function assertFramework(res: { status: number; headers: Headers; body: any; text: string }, status: number, code: string) {
    assertShapeA(res, status, code);
    assert.match(res.headers.get('x-request-id') ?? '', /\S/, 'X-Request-Id is set');
    assert.doesNotMatch(res.text, /FST_/, 'no framework code leaks');
  }

  test('a path segment over 100 characters → 414 URI_TOO_LONG; 100 characters are an unknown id as usual', async () => {
    for (const path of [`/v1/posts/post_${'a'.repeat(200)}`, `/v1/posts/${'a'.repeat(101)}/retry`, `/v1/webhooks/deliveries/${'d'.repeat(5000)}`]) {
      assertFramework(await h.request(path.endsWith('/retry') ? 'POST' : 'GET', path), 414, 'URI_TOO_LONG');
    }
    assertShapeA(await h.request('GET', `/v1/posts/${'a'.repeat(100)}`), 404, 'NOT_FOUND');
  });

  test('a malformed percent-escape in the path (%zz) → 400 VALIDATION_ERROR', async () => {
    for (const path of ['/v1/posts/%zz', '/v1/posts%zz', `/v1/accounts/twitter/${x}%E0%A4%A`]) {
      const res = await h.request('GET', path);
      assertFramework(res, 400, 'VALIDATION_ERROR');
      assert.match(res.body.error, /path/);
    }
  });

  test('a "__proto__" key in a POST /v1/posts body → 400 invalid_field_value naming it (shape B), nothing created', async () => {
    for (const [raw, param] of [
      ['{"__proto__": {"isDraft": true}, "content": "x", "isDraft": true}', '__proto__'],
      ['{"content": "x", "isDraft": true, "tiktokSettings": {"__proto__": {"x": 1}}}', 'tiktokSettings.__proto__'],
      ['{"content": "x", "isDraft": true, "mediaItems": [{"type": "image", "url": "https://example.com/a.jpg", "__proto__": null}]}', 'mediaItems[0].__proto__'],
    ] as const) {
      const { error } = await refusedRawB(raw, 400, 'invalid_field_value', param);
      assert.match(error, /"__proto__" is not allowed/);
      assert.doesNotMatch(error, /not valid JSON/);
    }
  });

  test('"__proto__", or "constructor" holding "prototype", on other routes → 400 VALIDATION_ERROR naming the key (shape A)', async () => {
    const raw = (body: string) => h.request('POST', '/v1/webhooks/settings', { raw: body, headers: { 'content-type': 'application/json' } });
    const proto = await raw('{"url": "https://example.com/h", "events": ["post.deleted"], "__proto__": {"secret": "x"}}');
    assertShapeA(proto, 400, 'VALIDATION_ERROR', '__proto__');
    assert.match(proto.body.error, /"__proto__" is not allowed/);
    const ctor = await raw('{"url": "https://example.com/h", "events": ["post.deleted"], "constructor": {"prototype": {}}}');
    assertShapeA(ctor, 400, 'VALIDATION_ERROR', 'constructor');
    assert.match(ctor.body.error, /"constructor" key holding "prototype" is not allowed/);
    assert.equal((await h.request('GET', '/v1/webhooks/settings')).status, 404, 'no settings were saved');
    // Broken JSON is still called broken JSON.
    assert.match((await raw('{"url": ')).body.error, /not valid JSON/);
  });

  test('U+0000 (NUL) anywhere a client can put it → 400 naming the field (shape B on POST /v1/posts), nothing created', async () => {
    const before = await postIds();
    for (const [raw, param] of [
      ['{"content": "a\\u0000b", "isDraft": true}', 'content'],
      ['{"content": "x", "isDraft": true, "tags": ["ok", "b\\u0000"]}', 'tags[1]'],
      ['{"content": "x", "isDraft": true, "tiktokSettings": {"a\\u0000": 1}}', 'tiktokSettings.a\u0000'],
    ] as const) {
      assert.match((await refusedRawB(raw, 400, 'invalid_field_value', param)).error, /U\+0000/);
    }
    // An escaped backslash before "u0000" is text, not a NUL.
    const text = await h.request('POST', '/v1/posts', { raw: '{"content": "a\\\\u0000b", "isDraft": true}', headers: { 'content-type': 'application/json' } });
    assert.equal(text.status, 201, text.text);
    assert.equal(text.body.content, 'a\\u0000b');
    await h.request('DELETE', `/v1/posts/${text.body.id}`);
    // Other routes: shape A, naming the field; ids and query parameters in the URL.
    assertShapeA(await h.request('PUT', '/v1/queue', { body: { timezone: 'UTC\u0000', slots: [{ day: 'mon', time: '09:00' }] } }), 400, 'VALIDATION_ERROR', 'timezone');
    assertShapeA(await h.request('POST', '/v1/media/import', { body: { url: 'https://example.com/a.jpg', altText: 'a\u0000' } }), 400, 'VALIDATION_ERROR', 'altText');
    for (const [method, path] of [
      ['GET', '/v1/posts/post_%00x'],
      ['GET', '/v1/media/med_%00x'],
      ['GET', '/v1/posts?status=draft%00'],
      ['GET', '/v1/posts?cursor=%00'],
      ['POST', '/v1/media?altText=a%00b'],
    ] as const) {
      const res = await h.request(method, path);
      assertShapeA(res, 400, 'VALIDATION_ERROR');
      assert.match(res.body.error, /%00/, path);
    }
    const csv = await h.request('POST', '/v1/posts/bulk', { raw: 'content,isDraft\nfine,true\nab\u0000c,true\n', headers: { 'content-type': 'text/csv' } });
    assertShapeA(csv, 400, 'VALIDATION_ERROR', 'rows[1].content');
    const boundary = 'nulboundary';
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="altText"\r\n\r\nx\u0000y\r\n--${boundary}--\r\n`;
    const multipart = await h.request('POST', '/v1/media', { raw: form, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    assertShapeA(multipart, 400, 'VALIDATION_ERROR', 'altText');
    assert.deepEqual(await postIds(), before, 'nothing was created');
    assert.deepEqual((await h.request('GET', '/v1/media')).body.media, [], 'no media was kept');
  });

  test('a method the path does not take → 405 METHOD_NOT_ALLOWED, with Allow listing the methods it does', async () => {
    const post = await h.request('POST', '/v1/posts', { body: { content: 'for 405', isDraft: true } });
    for (const [method, path, allow] of [
      ['PUT', '/v1/posts', 'GET, HEAD, POST'],
      ['DELETE', '/v1/posts', 'GET, HEAD, POST'],
      ['PUT', `/v1/posts/${post.body.id}`, 'GET, HEAD, PATCH, DELETE'],
      ['GET', `/v1/posts/${post.body.id}/retry`, 'POST'],
      ['PUT', '/v1/webhooks/settings', 'GET, HEAD, POST, DELETE'],
      ['GET', '/v1/accounts/twitter/123', 'DELETE'],
    ] as const) {
      const res = await h.request(method, path);
      assertShapeA(res, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
      assert.match(res.body.error, new RegExp(`^${method} is not allowed`));
    }
    // The post is untouched, and a path that exists for no method is still a 404.
    assert.equal((await h.request('GET', `/v1/posts/${post.body.id}`)).status, 200);
    assertShapeA(await h.request('PUT', '/v1/nothing-here'), 404, 'NOT_FOUND');
  });
});

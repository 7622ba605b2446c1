// Fuzzing from the OpenAPI document: for every operation it lists, fast-check generates valid and
// invalid requests (from the route's own schemas, plus hand-made bodies that reach the success paths of
// media upload and import, bulk in JSON and CSV, validate, queue, unpublish, PATCH, retry, edit, connect
// and webhooks, on fixtures made in `before`: real ids, a webhook receiver, failed and editable posts, grants
// from the sandbox's consent pages) and the answers are
// checked: never a 5xx, never a stack trace or a source path, every error in API.md's shape (B on POST
// /v1/posts, A elsewhere), every 2xx body valid against its response schema. POST /mcp (hidden from the
// document) gets JSON-RPC bodies, good and broken, and tool arguments derived from each tool's input schema;
// a tool's result must match the response schema of the route it calls.
// The run is bounded and repeatable: FUZZ_RUNS requests per operation (default 120) from FUZZ_SEED (fixed
// by default; the seed is printed, so a failure can be replayed with it).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { CALLBACK, connectAccount } from '../helpers/connect.ts';
import { publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { approveConsent } from '../helpers/platform.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { deleteADraft, eventually, listDeliveries, saveSettings } from '../helpers/webhooks.ts';
import { EVENT_NAMES } from '../../src/events/catalog.ts';
import type { Platform } from '../../src/platforms/registry.ts';
import { arbitraryFor, invalidFor, type Schema } from './schema-arbitrary.ts';

const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false, allErrors: false }));

interface Operation {
  method: string;
  path: string;
  params: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  body: Schema | null;
  responses: Map<number, ValidateFunction>;
}

let w: World;
let doc: { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };
const real: { postIds: string[]; mediaIds: string[]; accounts: { platform: string; accountId: string }[]; deliveryIds: string[] } = { postIds: [], mediaIds: [], accounts: [], deliveryIds: [] };
/** Receives the webhooks of the key's settings, which every /v1/webhooks operation starts from. */
let receiver: Receiver;
/** The events the fixture's settings subscribe to (few, so that the run's posts do not flood the receiver). */
const FIXTURE_EVENTS = ['post.deleted', 'account.connected'];
// A 1×1 PNG: what uploads send, besides whatever the generators make.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let sent = 0;
const statuses = new Map<string, number>();
/** 2xx answers per operation, to show that the generators reach each route's success path. */
const successes = new Map<string, number>();

/** What must never be in an answer: a stack frame, a source file with its line, Node's internals, an error class name. */
const LEAKS = [/(?:^|\\n|\n)\s*at\s+[\w$.<>]+\s*\(/, /\.(?:ts|js|mjs|cjs):\d+(?::\d+)?/, /node:internal/, /\b(?:TypeError|ReferenceError|RangeError):/, /\/work\/|\/src\/\w+\/[\w-]+\.ts/];

function assertNoLeak(text: string, where: string) {
  for (const leak of LEAKS) assert.ok(!leak.test(text), `${where}: the answer leaks ${leak}: ${text.slice(0, 500)}`);
}

/** The schema with every reference to a named component replaced by the component, at any depth. */
function deref(schema: Schema): Schema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as Schema;
    if (typeof $ref === 'string') {
      const target = doc.components?.schemas?.[$ref.split('/').pop()!];
      assert.ok(target, `the document names ${$ref}`);
      return { ...(walk(target) as Schema), ...(walk(rest) as Schema) };
    }
    return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]));
  };
  return walk(schema) as Schema;
}

function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!path.startsWith('/v1/')) continue;
      const responses = new Map<number, ValidateFunction>();
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const schema = (r as { content?: Record<string, { schema: Schema }> }).content?.['application/json']?.schema;
        if (schema && /^2\d\d$/.test(status)) responses.set(Number(status), ajv.compile(deref(schema)));
      }
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p: any) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: deref(p.schema ?? {}) })),
        body: op.requestBody?.content?.['application/json']?.schema ? deref(op.requestBody.content['application/json'].schema) : null,
        responses,
      });
    }
  }
  return ops;
}

/** A lone surrogate cannot be put in a URL (encodeURIComponent throws): it becomes U+FFFD, as a browser makes it. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const FRESH_DRAFT = '<a draft created for this request>';
const FRESH_PUBLISHED = '<a post published for this request>';
const FRESH_FAILED = '<a post with a failed target, made for this request>';
const SAME_POST = '<the post the previous request of this operation made>';
const FRESH_MEDIA = '<a media item uploaded for this request>';
const FRESH_ACCOUNT = '<an account connected for this request>';
/** A code and its state from the platform's consent page, for this request (POST /v1/connect/{platform}). */
const FRESH_CODE = '<a code from the consent page>';
const FRESH_STATE = '<the state of that code>';
/**
 * The platforms whose consent the fuzzer plays (OAuth, Mastodon on the emulator's instance): their grants
 * are made per request. Not Bluesky: it connects with an app password on a real PDS (test/e2e/bluesky.test.ts),
 * too heavy to start here; its POST is fuzzed for refusals only.
 */
const CONSENTS: Record<string, Record<string, string>> = { twitter: {}, threads: {}, facebook: { sandbox_pages: '1' }, linkedin: { sandbox_pages: '1' }, mastodon: {} };
/** The instance Mastodon accounts are connected on (the emulator's). */
const instance = () => w.server.rootOf('mastodon');

/** The post a request of the operation at `path` acts on: published for unpublish and edit, failed for retry, else a draft. */
const freshPostFor = (path: string) => (path.endsWith('/unpublish') || path.endsWith('/edit') ? FRESH_PUBLISHED : path.endsWith('/retry') ? FRESH_FAILED : FRESH_DRAFT);

/** Path parameters: mostly real ids, so successes are exercised too, sometimes made up ones. */
function pathValue(name: string, schema: Schema, op: Operation): fc.Arbitrary<string> {
  if (op.path.startsWith('/v1/media/') && name === 'id') {
    // DELETE removes an item (or finds it in use): mostly one uploaded for it, so that it has one to remove.
    const own = op.method === 'DELETE' ? [{ weight: 4, arbitrary: fc.constant(FRESH_MEDIA) }] : [];
    return fc.oneof(...own, { weight: 4, arbitrary: fc.constantFrom(...real.mediaIds) }, { weight: 1, arbitrary: fc.constantFrom('med_nope', 'x'.repeat(100), '...') });
  }
  if (op.path.startsWith('/v1/webhooks/deliveries/') && name === 'id') {
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real.deliveryIds) }, { weight: 1, arbitrary: fc.constantFrom('whd_nope', 'x'.repeat(100), '...') });
  }
  if (op.path.startsWith('/v1/connect/') && name === 'platform') {
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...Object.keys(CONSENTS)) }, { weight: 1, arbitrary: arbitraryFor(schema).map(String) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) });
  }
  if (name === 'postId') {
    const fresh = freshPostFor(op.path);
    // Now and then the post this operation acted on last: a second edit (up to X's limit of five), a retry
    // with nothing left to retry, an unpublish of what is already down.
    const again = fresh === FRESH_DRAFT ? [] : [{ weight: 2, arbitrary: fc.constant(SAME_POST) }];
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(fresh) },
      ...again,
      { weight: 1, arbitrary: fc.constantFrom(...real.postIds) },
      // Not '..': URLs resolve it (even as %2E%2E) and PATCH /v1/posts/.. is PATCH /v1/, another route.
      { weight: 1, arbitrary: fc.constantFrom('post_nope', 'x'.repeat(100), '%20', '...') },
    );
  }
  if (name === 'accountId') {
    // DELETE disconnects: mostly an account connected for it (path's platform set to match).
    const own = op.method === 'DELETE' ? [{ weight: 2, arbitrary: fc.constant(FRESH_ACCOUNT) }] : [];
    return fc.oneof(...own, { weight: 1, arbitrary: fc.constantFrom(...real.accounts.map((a) => a.accountId)) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) });
  }
  return fc.oneof(arbitraryFor(schema).map(String), fc.string({ minLength: 1, maxLength: 12 }));
}

const someTarget = () => fc.constantFrom(...real.accounts).map((a) => ({ platform: a.platform, accountId: a.accountId }));
const future = () => fc.integer({ min: 60, max: 86_400 }).map((s) => new Date(Date.now() + s * 1000).toISOString());

/** Bodies that can really create posts, besides whatever the schema allows. */
function postBodies(): fc.Arbitrary<Record<string, unknown>> {
  const content = fc.string({ minLength: 1, maxLength: 60 });
  const media = fc.array(fc.oneof(fc.constantFrom(...real.mediaIds).map((mediaId) => ({ mediaId })), fc.constant({ type: 'image', url: 'https://example.com/a.jpg' })), { maxLength: 2 });
  return fc.oneof(
    fc.record({ content, isDraft: fc.constant(true), mediaItems: media }, { requiredKeys: ['content', 'isDraft'] }),
    fc.record({ content, scheduledFor: future(), platforms: fc.array(someTarget(), { minLength: 1, maxLength: 2 }), timezone: fc.constantFrom('UTC', 'Europe/Paris', 'Asia/Tokyo', 'Nowhere/Land') }),
    fc.record({ content, publishNow: fc.constant(true), platforms: fc.array(someTarget(), { minLength: 1, maxLength: 2 }) }),
    fc.record({ content, queue: fc.constant(true), platforms: fc.array(someTarget(), { minLength: 1, maxLength: 1 }) }),
  );
}

/** PATCH bodies: a field or a mode changed, as an editor would. */
function patchBodies(): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.record({ content: fc.string({ minLength: 1, maxLength: 60 }) }),
    fc.record({ scheduledFor: future(), platforms: fc.array(someTarget(), { minLength: 1, maxLength: 2 }) }),
    fc.record({ tags: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), isDraft: fc.constant(true) }),
    fc.record({ queue: fc.constant(true), platforms: fc.array(someTarget(), { minLength: 1, maxLength: 1 }) }),
    fc.record({ mediaItems: fc.array(fc.constantFrom(...real.mediaIds).map((mediaId) => ({ mediaId })), { maxLength: 2 }) }),
  );
}

/** CSV imports: real rows, and the ways a spreadsheet export goes wrong (quoting, columns, line ends, BOM). */
function csvBodies(): fc.Arbitrary<string> {
  const quote = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const good = fc.array(
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 30 }).map((c) => `${quote(c)},,,,,,true,`),
      fc.tuple(fc.string({ minLength: 1, maxLength: 30 }), future(), someTarget()).map(([c, at, t]) => `${quote(c)},${at},UTC,${t.platform}:${t.accountId},,a;b,,`),
      fc.tuple(fc.string({ minLength: 1, maxLength: 30 }), someTarget()).map(([c, t]) => `${quote(c)},,,${t.platform}:${t.accountId},https://example.com/a.jpg,,,true`),
    ),
    { minLength: 1, maxLength: 6 },
  );
  const header = 'content,scheduledFor,timezone,platforms,mediaUrls,tags,isDraft,queue';
  const cell = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('"unterminated', 'a"b', '"x""y"', '', 'été', '=1+1', 'true', 'maybe', 'twitter', 'twitter:', ':x', 'x;y;;'));
  const columns = fc.shuffledSubarray(['content', 'scheduledFor', 'timezone', 'platforms', 'mediaUrls', 'tags', 'isDraft', 'queue', 'colour', '', 'content'], { minLength: 1 });
  return fc.oneof(
    { weight: 3, arbitrary: good.map((rows) => `${header}\n${rows.join('\n')}\n`) },
    { weight: 1, arbitrary: fc.tuple(good, fc.constantFrom('\r\n', '\n'), fc.boolean()).map(([rows, eol, bom]) => `${bom ? '\uFEFF' : ''}${header}${eol}${rows.join(eol)}`) },
    { weight: 2, arbitrary: fc.tuple(columns, fc.array(fc.array(cell, { maxLength: 12 }), { maxLength: 5 })).map(([h, rows]) => [h.join(','), ...rows.map((r) => r.join(','))].join('\n')) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  );
}

/** multipart/form-data bodies for POST /v1/media: one file part (the good case), and the ways to get it wrong. */
function multipartBodies(): fc.Arbitrary<{ raw: Uint8Array; type: string }> {
  const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
  const part = (name: string, content: Buffer | string, filename?: string, type = 'image/png') =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? `Content-Type: ${type}\r\n` : ''}\r\n`),
      Buffer.isBuffer(content) ? content : Buffer.from(content),
      Buffer.from('\r\n'),
    ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const type = `multipart/form-data; boundary=${boundary}`;
  return fc.oneof(
    fc.string({ maxLength: 40 }).map((alt) => ({ raw: Buffer.concat([part('altText', alt), part('file', PNG, 'a.png'), end]), type })),
    fc.constant({ raw: Buffer.concat([part('file', PNG, 'a.png'), part('file', PNG, 'b.png'), end]), type }),
    fc.constant({ raw: Buffer.concat([part('altText', 'no file'), end]), type }),
    fc.constant({ raw: Buffer.concat([part('other', PNG, 'a.png'), end]), type }),
    fc.constant({ raw: Buffer.concat([part('file', PNG.subarray(0, 30), 'cut.png'), end]), type }),
    fc.constant({ raw: Buffer.concat([part('file', PNG, 'a.png')]), type }),
    fc.uint8Array({ maxLength: 300 }).map((raw) => ({ raw, type })),
    fc.constant({ raw: Buffer.concat([part('file', PNG, 'a.png'), end]), type: 'multipart/form-data' }),
  );
}

type Body = { raw?: string | Uint8Array; json?: unknown; type?: string };

/** The bodies to send to `op`; hand-made ones that reach its success path weigh three times as much. */
function bodiesFor(op: Operation): fc.WeightedArbitrary<Body>[] {
  const json = (a: fc.Arbitrary<unknown>) => a.map((j): Body => ({ json: j }));
  const out: fc.WeightedArbitrary<Body>[] = [];
  const generic: fc.Arbitrary<Body>[] = [fc.constant({})];
  const made: fc.Arbitrary<Body>[] = [];
  const route = `${op.method} ${op.path}`;
  if (route === 'POST /v1/media') {
    // The upload takes the file itself: real images (declared right or wrong), cut ones, other bytes, forms.
    made.push(fc.constant<Body>({ raw: PNG, type: 'image/png' }), multipartBodies().filter((b) => b.type.includes('boundary')));
    generic.push(
      fc.constantFrom<Body>(
        { raw: PNG, type: 'image/png' },
        { raw: PNG, type: 'image/jpeg' },
        { raw: PNG.subarray(0, 40), type: 'image/png' },
        { raw: new Uint8Array(0), type: 'image/png' },
      ),
      fc.uint8Array({ maxLength: 600 }).map((raw) => ({ raw, type: 'application/octet-stream' })),
      multipartBodies(),
    );
  }
  if (op.body) {
    generic.push(json(arbitraryFor(op.body)), json(invalidFor(op.body)));
    if (route === 'POST /v1/posts' || route === 'POST /v1/posts/validate') made.push(json(postBodies()));
    if (route === 'PATCH /v1/posts/{postId}') made.push(json(patchBodies()));
    if (route === 'POST /v1/posts/bulk') {
      const posts = fc.array(postBodies(), { minLength: 1, maxLength: 5 });
      made.push(json(fc.record({ posts, dryRun: fc.boolean() }, { requiredKeys: ['posts'] })), csvBodies().map((raw) => ({ raw, type: 'text/csv' })), csvBodies().map((raw) => ({ raw, type: 'text/csv; charset=utf-8' })));
    }
    if (route === 'PUT /v1/queue') {
      const slot = fc.record({ day: fc.constantFrom('mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'), time: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([hh, mm]) => `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}`) });
      made.push(json(fc.record({ timezone: fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York'), slots: fc.array(slot, { minLength: 1, maxLength: 8 }) })));
    }
    if (route === 'POST /v1/posts/{postId}/edit') {
      made.push(json(fc.record({ content: fc.string({ minLength: 1, maxLength: 60 }).filter((c) => c.trim() !== ''), platform: fc.constant('twitter') }, { requiredKeys: ['content'] })));
    }
    if (route === 'POST /v1/webhooks/settings') {
      // The receiver's URL (the fixture's, so a later DELETE has settings to remove), events, and a secret or not.
      const secret = fc.uint8Array({ minLength: 24, maxLength: 64 }).map((b) => `whsec_${Buffer.from(b).toString('base64')}`);
      const events = fc.shuffledSubarray([...EVENT_NAMES], { minLength: 1 });
      made.push(json(fc.record({ url: fc.constant(receiver.url), events, secret }, { requiredKeys: ['url', 'events'] })));
    }
    if (route === 'POST /v1/webhooks/test') made.push(json(fc.record({ event: fc.constantFrom(...EVENT_NAMES) })));
    if (route === 'POST /v1/connect/{platform}') made.push(json(fc.constant({ code: FRESH_CODE, state: FRESH_STATE, redirect_url: CALLBACK })), json(fc.constant({ code: FRESH_CODE, redirect_url: CALLBACK })));
    if (route === 'POST /v1/posts/{postId}/unpublish') made.push(json(fc.constant({})), json(fc.record({ platforms: fc.array(someTarget(), { maxLength: 2 }) }, { requiredKeys: [] })));
    if (route === 'POST /v1/media/import') {
      made.push(json(fc.record({ url: fc.constantFrom(w.media('sample.jpg'), w.media('sample.png'), `${w.media('sample.jpg')}?bytes=5000`, `${w.server.mediaUrl}/nothing.jpg`), altText: fc.string({ maxLength: 50 }) }, { requiredKeys: ['url'] })));
    }
    generic.push(fc.constantFrom<Body>({ raw: '{"content":', type: 'application/json' }, { raw: 'content=1', type: 'application/x-www-form-urlencoded' }, { raw: 'hello', type: 'text/plain' }));
  }
  for (const arbitrary of generic) out.push({ weight: 1, arbitrary });
  for (const arbitrary of made) out.push({ weight: 3, arbitrary });
  return out;
}

function requestFor(op: Operation) {
  const path = fc.record(Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p.name, p.schema, op)])));
  const queryParams = op.params.filter((p) => p.in === 'query');
  const validQuery = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, arbitraryFor(p.schema)])), { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) });
  // Hand-made queries that reach the success path: the consent flow's redirect URL (API.md section 6).
  const madeQuery: fc.WeightedArbitrary<Record<string, unknown>>[] = [];
  if (op.method === 'GET' && op.path === '/v1/connect/{platform}') {
    madeQuery.push({ weight: 8, arbitrary: fc.record({ redirect_url: fc.constantFrom(CALLBACK, 'http://localhost:3000/callback', 'https://app.example.com/cb?from=fuzz') }) });
    // Mastodon's needs the instance (the other platforms refuse one).
    madeQuery.push({ weight: 2, arbitrary: fc.constant({ redirect_url: CALLBACK, instance: instance() }) });
  }
  // Lists: a first page (a made-up cursor is refused, rightly; only the API's own cursors are valid).
  if (op.method === 'GET' && queryParams.some((p) => p.name === 'cursor')) {
    madeQuery.push({ weight: 4, arbitrary: validQuery.map(({ cursor: _, ...q }) => q) });
  }
  const query =
    queryParams.length === 0
      ? fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ surprise: '1' }) })
      : fc.oneof(
          ...madeQuery,
          { weight: 4, arbitrary: validQuery },
          { weight: 1, arbitrary: validQuery.map((q) => ({ ...q, surprise: 'x' })) },
          { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...queryParams.map((p) => p.name)), fc.string({ maxLength: 10 })) },
        );
  // Header parameters the document lists (If-Match, Idempotency-Window), valid or not; Idempotency-Key apart.
  // Only what a header can carry (fetch refuses anything else before sending).
  const headerParams = op.params.filter((p) => p.in === 'header' && p.name !== 'idempotency-key');
  const headers = fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.record(
        Object.fromEntries(headerParams.map((p) => [p.name, fc.oneof(arbitraryFor(p.schema).map(String).filter((v) => /^[\t\x20-\x7e]*$/.test(v)), fc.constantFrom('"1"', '1', 'W/"2"', '*', '', '-5', 'x'.repeat(300)))])),
        { requiredKeys: [] },
      ),
    },
  );
  const auth = fc.oneof(
    { weight: 14, arbitrary: fc.constant('good' as const) },
    { weight: 1, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constant('bad' as const) },
  );
  // A DELETE of a one-per-key thing removes it: most runs save the fixture's first, so that it has something to remove.
  const prepare = PREPARE[`${op.method} ${op.path}`] ? fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) : fc.constant(false);
  return fc.record({ path, query, headers, body: fc.oneof(...bodiesFor(op)), auth, idempotencyKey: fc.option(fc.uuid(), { freq: 3 }), prepare });
}

function checkError(op: Operation, status: number, body: any, text: string, reached = true) {
  const where = `${op.method} ${op.path} → ${status}: ${text.slice(0, 300)}`;
  assert.equal(typeof body, 'object', where);
  assert.equal(typeof body.error, 'string', where);
  assert.ok(body.error.length > 0, where);
  // Shape B: every error of POST /v1/posts but 404, 429 and 500; the create checks' errors of PATCH. Only
  // when the request reached that route (a path a URL parser rewrites goes elsewhere).
  const shapeB =
    reached &&
    ((op.method === 'POST' && op.path === '/v1/posts' && status !== 429 && status !== 500 && status !== 404) ||
      (op.method === 'PATCH' && op.path === '/v1/posts/{postId}' && [400, 413, 415, 422].includes(status)));
  if (shapeB) {
    assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'param', 'type'], where);
    assert.match(body.code, /^[a-z_]+$/, where);
    assert.ok(['invalid_request_error', 'authentication_error', 'idempotency_error'].includes(body.type), where);
    assert.ok(body.param === null || typeof body.param === 'string', where);
  } else {
    for (const k of Object.keys(body)) assert.ok(['error', 'code', 'param', 'details'].includes(k), `${where} (unexpected ${k})`);
    assert.match(body.code, /^[A-Z_]+$/, where);
    if ('param' in body) assert.equal(typeof body.param, 'string', where);
  }
}

/**
 * Accounts that take turns, the next one connected after `per` posts, so that any FUZZ_RUNS stays within
 * what one account may do: X allows 100 posts (edits included) and 50 deletes in 15 minutes, LinkedIn 150
 * posts a day.
 */
function accountsInTurn(platform: Platform, name: string, per: number, consent: Record<string, string> = {}) {
  const accounts: Promise<{ platform: string; accountId: string }>[] = [];
  let used = 0;
  return () => {
    const i = Math.floor(used++ / per);
    accounts[i] ??= connectAccount(w.h, platform, { ...consent, sandbox_user: `${name}${i}` }).then((c) => ({ platform, accountId: c.accountId }));
    return accounts[i];
  };
}
/** Paid X accounts publishing the posts made for unpublish and edit (paid, so that they may edit: API.md section 5). */
const publisher = accountsInTurn('twitter', 'fuzz_publisher_', 25, { sandbox_subscription: 'Premium' });
/** LinkedIn accounts no other request publishes to: the emulator's next post refusal is this request's. */
const failing = accountsInTurn('linkedin', 'Fuzz Failing ', 100);

async function freshPostId(kind: string): Promise<string> {
  if (kind === FRESH_PUBLISHED) {
    // Published, not still publishing (publishNow answers after HERALD_PUBLISH_WAIT_MS), whatever the machine's load.
    const post = await publishNow(w.h, { content: `fuzz published ${Math.random()}`, platforms: [await publisher()] });
    return post.status === 'publishing' ? (await waitFinal(w.h, post.id)).id : post.id;
  }
  if (kind === FRESH_FAILED) {
    // Refused once (not retried: a rejection is final), so that the retry publishes it.
    const account = await failing();
    w.emu('linkedin').faults.add({ kind: 'validation', method: 'POST', path: '/rest/posts', count: 1 });
    // publishNow answers after HERALD_PUBLISH_WAIT_MS, finished or not: on a busy machine the refusal comes later.
    const post = await waitFinal(w.h, (await publishNow(w.h, { content: `fuzz failed ${Math.random()}`, platforms: [account] })).id);
    assert.equal(post.status, 'failed', JSON.stringify(post));
    return post.id;
  }
  const fresh = await w.h.request('POST', '/v1/posts', { body: { content: 'fuzz target', isDraft: true } });
  return fresh.body.id;
}

before(async () => {
  w = await startWorld({ env: { HERALD_RATE_LIMIT_PER_MINUTE: '1000000', HERALD_AUTH_FAILURES_PER_MINUTE: '1000000', HERALD_PUBLISH_WAIT_MS: '300' } });
  for (const p of ['twitter', 'threads', 'facebook'] as const) {
    const c = await connectAccount(w.h, p, { sandbox_pages: '1' });
    real.accounts.push({ platform: p, accountId: c.accountId });
  }
  for (let i = 0; i < 4; i++) {
    const up = await fetch(`${w.h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${w.h.key}`, 'content-type': 'image/png' }, body: PNG });
    real.mediaIds.push(((await up.json()) as { id: string }).id);
  }
  for (let i = 0; i < 3; i++) {
    const post = await w.h.request('POST', '/v1/posts', { body: { content: `seed ${i}`, isDraft: true } });
    real.postIds.push(post.body.id);
  }
  // Webhook settings pointing at a receiver, and settled deliveries for the delivery routes.
  receiver = await startReceiver();
  await restoreSettings();
  for (let i = 0; i < 3; i++) await deleteADraft(w.h);
  const settled = await eventually(async () => {
    const list = await listDeliveries(w.h);
    return list.length >= 3 && list.every((d) => d.status !== 'pending') ? list : undefined;
  }, undefined, 'the fixture deliveries to settle');
  real.deliveryIds.push(...settled.map((d) => d.id));
  doc = (await w.h.request('GET', '/openapi.json', { key: null })).body;
});
after(async () => {
  await w.close();
  await receiver.close();
});

/** What a run of these DELETEs may do first: save the thing they remove. */
const PREPARE: Record<string, () => Promise<void>> = {
  'DELETE /v1/webhooks/settings': () => restoreSettings(),
  'DELETE /v1/queue': async () => {
    const res = await w.h.request('PUT', '/v1/queue', { body: { timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }] } });
    assert.equal(res.status, 200, res.text);
  },
};

async function freshMediaId(): Promise<string> {
  const up = await fetch(`${w.h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${w.h.key}`, 'content-type': 'image/png' }, body: PNG });
  assert.equal(up.status, 201);
  return ((await up.json()) as { id: string }).id;
}

let connected = 0;
/** A twitter account of its own (no post uses it), to be disconnected. */
async function freshAccount(): Promise<{ platform: string; accountId: string }> {
  return { platform: 'twitter', accountId: (await connectAccount(w.h, 'twitter', { sandbox_user: `fuzz_leaving_${connected++}` })).accountId };
}

/** The fixture's webhook settings, saved again (a run may have changed or removed them). */
async function restoreSettings() {
  await saveSettings(w.h, { url: receiver.url, events: FIXTURE_EVENTS });
}

/** A code and state from the consent page of `platform` (GET /v1/connect, then the user's approval), for one POST /v1/connect. */
async function freshGrant(platform: string): Promise<{ code: string; state: string }> {
  const server = platform === 'mastodon' ? `&instance=${encodeURIComponent(instance())}` : '';
  const start = await w.h.request('GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(CALLBACK)}${server}`);
  assert.equal(start.status, 200, start.text);
  const { code } = await approveConsent(start.body.authUrl, CONSENTS[platform]);
  return { code, state: start.body.state };
}

test(`every operation of /openapi.json survives ${RUNS_PER_OPERATION} generated requests (seed ${SEED})`, { timeout: 900_000 }, async (t) => {
  const ops = operations();
  assert.ok(ops.length >= 30, `operations found: ${ops.map((o) => `${o.method} ${o.path}`).join(', ')}`);
  for (const [index, op] of ops.entries()) {
    // Every webhooks operation starts from the fixture's settings (POST may have replaced them, DELETE removed them).
    if (op.path.startsWith('/v1/webhooks/')) await restoreSettings();
    let lastPost: string | undefined;
    await fc.assert(
      fc.asyncProperty(requestFor(op), async (r) => {
        const ids = r.path as Record<string, string>;
        if (ids.postId === SAME_POST) ids.postId = lastPost ?? freshPostFor(op.path);
        if (ids.postId === FRESH_DRAFT || ids.postId === FRESH_PUBLISHED || ids.postId === FRESH_FAILED) ids.postId = lastPost = await freshPostId(ids.postId);
        if (r.prepare) await PREPARE[`${op.method} ${op.path}`]!();
        if (ids.id === FRESH_MEDIA) ids.id = await freshMediaId();
        if (ids.accountId === FRESH_ACCOUNT) Object.assign(ids, await freshAccount());
        const grant = r.body.json as Record<string, unknown> | undefined;
        if (grant?.code === FRESH_CODE) {
          // A real code (and its state) of the path's platform; another platform's code where it has no consent page here.
          const fresh = await freshGrant(Object.hasOwn(CONSENTS, ids.platform!) ? ids.platform! : 'twitter');
          r.body = { json: { ...grant, code: fresh.code, ...(grant.state === FRESH_STATE ? { state: fresh.state } : {}) } };
        }
        // Dots encoded too: fetch would resolve a ".." segment and send the request to another route.
        const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(wellFormed(ids[name] ?? 'x')).replace(/\./g, '%2E'));
        const qs = new URLSearchParams(Object.entries(r.query as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)])).toString();
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers as Record<string, string>)) if (v !== '') headers[k] = v;
        if (r.auth === 'good') headers.authorization = `Bearer ${w.h.key}`;
        if (r.auth === 'bad') headers.authorization = 'Bearer hk_not_a_real_key_at_all_0000000000000000000';
        if (r.idempotencyKey) headers['idempotency-key'] = r.idempotencyKey;
        let payload: string | Uint8Array | undefined;
        if (r.body.json !== undefined) {
          payload = JSON.stringify(r.body.json);
          headers['content-type'] = 'application/json';
        } else if (r.body.raw !== undefined) {
          payload = r.body.raw;
          headers['content-type'] = r.body.type!;
        }
        const res = await fetch(`${w.h.url}${path}${qs ? `?${qs}` : ''}`, { method: op.method, headers, body: op.method === 'GET' ? undefined : payload });
        sent++;
        statuses.set(`${res.status}`, (statuses.get(`${res.status}`) ?? 0) + 1);
        const text = await res.text();
        const where = `${op.method} ${path}${qs ? `?${qs}` : ''} → ${res.status}`;
        assert.ok(res.headers.get('x-request-id'), 'X-Request-Id on every answer');
        assert.ok(res.status < 500, `${where}: ${text.slice(0, 500)}`);
        assertNoLeak(text, where);
        const body = text ? JSON.parse(text) : undefined;
        const reached = new URL(`${w.h.url}${path}`).pathname === path;
        if (process.env.FUZZ_DEBUG && res.status >= 400) console.log('REFUSED', op.method, op.path, res.status, body?.code, body?.param, String(body?.error).slice(0, 90));
        if (res.status >= 400) return checkError(op, res.status, body, text, reached);
        successes.set(`${op.method} ${op.path}`, (successes.get(`${op.method} ${op.path}`) ?? 0) + 1);
        const validate = op.responses.get(res.status);
        assert.ok(validate, `${op.method} ${op.path} answered ${res.status}, which its schema does not list`);
        assert.ok(validate(body), `${where} body does not match its schema: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`);
      }),
      { numRuns: RUNS_PER_OPERATION, seed: SEED + index, endOnFailure: true, includeErrorInReport: true },
    );
  }
  const summary = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}×${n}`).join(' ');
  t.diagnostic(`${sent} requests over ${ops.length} operations (FUZZ_SEED=${SEED}): ${summary}`);
  t.diagnostic(`2xx per operation: ${ops.map((o) => `${o.method} ${o.path} ${successes.get(`${o.method} ${o.path}`) ?? 0}`).join(', ')}`);
  assert.ok(sent >= 2000 || RUNS_PER_OPERATION < 120, `sent ${sent} requests`);
  const ok = [...statuses].filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  assert.ok(ok >= sent / 10, `only ${ok} of ${sent} answers were successes; the fuzzer must reach the success paths too`);
  if (RUNS_PER_OPERATION >= 120) {
    // Every operation's success path was reached, not only its refusals.
    for (const route of ops.map((o) => `${o.method} ${o.path}`)) assert.ok((successes.get(route) ?? 0) > 0, `${route} never answered 2xx`);
  }
});

// ---------------------------------------------------------------------------------------------------
// POST /mcp: JSON-RPC bodies and tool arguments.

/** The REST operation each tool calls: a successful result's structured content is that route's answer. */
const TOOL_ROUTES: Record<string, string> = {
  list_accounts: 'GET /v1/accounts',
  accounts_health: 'GET /v1/accounts/health',
  create_post: 'POST /v1/posts',
  validate_post: 'POST /v1/posts/validate',
  update_post: 'PATCH /v1/posts/{postId}',
  list_posts: 'GET /v1/posts',
  get_post: 'GET /v1/posts/{postId}',
  delete_post: 'DELETE /v1/posts/{postId}',
  retry_post: 'POST /v1/posts/{postId}/retry',
  unpublish_post: 'POST /v1/posts/{postId}/unpublish',
  import_media: 'POST /v1/media/import',
  list_media: 'GET /v1/media',
  get_queue: 'GET /v1/queue',
};

interface ToolInfo {
  name: string;
  inputSchema: Schema;
}

function toolArguments(tool: ToolInfo): fc.Arbitrary<unknown> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Schema>;
  const ways: fc.WeightedArbitrary<unknown>[] = [
    { weight: 2, arbitrary: arbitraryFor(tool.inputSchema) },
    { weight: 1, arbitrary: invalidFor(tool.inputSchema) },
  ];
  // Arguments a model would send, so that tools succeed too.
  if ('postId' in props) {
    const fresh = freshPostFor(TOOL_ROUTES[tool.name]!.replace(/^\w+ /, ''));
    const id = fc.oneof({ weight: 3, arbitrary: fc.constant(fresh) }, { weight: 1, arbitrary: fc.constantFrom(...real.postIds) }, { weight: 1, arbitrary: fc.constantFrom('post_nope', '', '../v1/posts') });
    ways.push({ weight: 3, arbitrary: fc.tuple(id, patchBodies()).map(([postId, body]) => (tool.name === 'update_post' ? { postId, ...body } : { postId })) });
  }
  // A list's first page (a made-up cursor is refused).
  if ('cursor' in props) ways.push({ weight: 2, arbitrary: arbitraryFor(tool.inputSchema).map((a) => { const { cursor: _, ...rest } = a as Record<string, unknown>; return rest; }) });
  if (tool.name === 'create_post' || tool.name === 'validate_post') ways.push({ weight: 3, arbitrary: fc.oneof(postBodies(), postBodies().map((b) => ({ ...b, idempotencyKey: crypto.randomUUID() }))) });
  if (tool.name === 'import_media') ways.push({ weight: 3, arbitrary: fc.record({ url: fc.constantFrom(w.media('sample.jpg'), w.media('sample.png'), 'http://127.0.0.1:1/x.jpg', 'not a url') }) });
  return fc.oneof(...ways);
}

function rpcBodies(tools: ToolInfo[]): fc.Arbitrary<{ body: string; accept?: string; contentType?: string; auth: boolean }> {
  // JSON-RPC ids are numbers or strings; a null id (refused) now and then.
  const id = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0 }) }, { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) }, { weight: 1, arbitrary: fc.constant(null) });
  const call = fc.constantFrom(...tools).chain((tool) => fc.tuple(id, toolArguments(tool)).map(([i, args]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: tool.name, arguments: args } })));
  const message = fc.oneof(
    { weight: 8, arbitrary: call },
    { weight: 1, arbitrary: id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })) },
    { weight: 1, arbitrary: id.map((i) => ({ jsonrpc: '2.0', id: i, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } })) },
    { weight: 1, arbitrary: fc.record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id, method: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('tools/call', 'resources/list', 'prompts/get', 'notifications/initialized', 'ping')), params: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.tuple(id, fc.oneof(fc.string({ maxLength: 20 }), fc.constant('no_such_tool'))).map(([i, name]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: {} } })) },
    { weight: 1, arbitrary: fc.tuple(id, fc.constantFrom(...tools), fc.jsonValue({ maxDepth: 2 })).map(([i, tool, args]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: tool.name, arguments: args } })) },
  );
  return fc.oneof(
    { weight: 10, arbitrary: message.map((m) => ({ body: JSON.stringify(m), auth: true })) },
    { weight: 1, arbitrary: fc.array(message, { minLength: 1, maxLength: 3 }).map((batch) => ({ body: JSON.stringify(batch), auth: true })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ body: JSON.stringify(v) ?? 'null', auth: true })) },
    { weight: 1, arbitrary: fc.constantFrom('{"jsonrpc":"2.0",', '', 'not json', '[]', '{}').map((body) => ({ body, auth: true })) },
    { weight: 1, arbitrary: message.map((m) => ({ body: JSON.stringify(m), accept: 'application/json', auth: true })) },
    { weight: 1, arbitrary: message.map((m) => ({ body: JSON.stringify(m), accept: 'text/html', auth: true })) },
    { weight: 1, arbitrary: message.map((m) => ({ body: JSON.stringify(m), contentType: 'text/plain', auth: true })) },
    { weight: 1, arbitrary: message.map((m) => ({ body: JSON.stringify(m), auth: false })) },
  );
}

test(`POST /mcp survives ${RUNS_PER_OPERATION * 10} generated JSON-RPC bodies (seed ${SEED}); a tool's result is its route's answer`, { timeout: 900_000 }, async (t) => {
  const listed = await fetch(`${w.h.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.h.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const tools = ((await listed.json()) as { result: { tools: ToolInfo[] } }).result.tools;
  assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOL_ROUTES).sort(), 'every tool has its route here');
  const ops = new Map(operations().map((o) => [`${o.method} ${o.path}`, o]));
  // Part one may have ended with the queue deleted: get_queue has one to read.
  await PREPARE['DELETE /v1/queue']!();
  const counts = { http: new Map<number, number>(), toolOk: 0, toolError: 0, rpcError: 0, okByTool: new Map<string, number>() };
  await fc.assert(
    fc.asyncProperty(rpcBodies(tools), async (r) => {
      // A FRESH_* postId is a post made for this call (so changes, deletes, retries and unpublishing have something to act on).
      let body = r.body;
      for (const kind of [FRESH_DRAFT, FRESH_PUBLISHED, FRESH_FAILED]) if (body.includes(kind)) body = body.replaceAll(kind, await freshPostId(kind));
      const headers: Record<string, string> = { 'content-type': r.contentType ?? 'application/json', accept: r.accept ?? 'application/json, text/event-stream' };
      if (r.auth) headers.authorization = `Bearer ${w.h.key}`;
      const res = await fetch(`${w.h.url}/mcp`, { method: 'POST', headers, body });
      counts.http.set(res.status, (counts.http.get(res.status) ?? 0) + 1);
      const text = await res.text();
      if (process.env.FUZZ_DEBUG && res.status === 400) console.log('MCP400', body.slice(0, 150), '→', text.slice(0, 200));
      const where = `POST /mcp ${body.slice(0, 200)} → ${res.status}`;
      assert.ok(res.status < 500, `${where}: ${text.slice(0, 500)}`);
      assertNoLeak(text, where);
      if (!text) return;
      const answer = JSON.parse(text);
      if (res.status >= 400 && !('jsonrpc' in answer) && !Array.isArray(answer)) return checkError({ method: 'POST', path: '/mcp' } as Operation, res.status, answer, text);
      for (const message of Array.isArray(answer) ? answer : [answer]) {
        if (message.error) {
          counts.rpcError++;
          if (process.env.FUZZ_DEBUG) console.log('RPCERR', message.error.code, JSON.stringify(message.error.message.slice(0, 300)), '←', body.slice(0, 120));
          assert.equal(typeof message.error.code, 'number', where);
          assert.equal(typeof message.error.message, 'string', where);
          continue;
        }
        const result = message.result;
        if (!result?.content) continue;
        const sentCall = (Array.isArray(JSON.parse(body)) ? JSON.parse(body) : [JSON.parse(body)]).find((m: any) => m?.id === message.id && m?.method === 'tools/call');
        const name = sentCall?.params?.name as string | undefined;
        assert.ok(Array.isArray(result.content) && result.content[0]?.type === 'text', where);
        if (result.isError) {
          counts.toolError++;
          assert.match(result.content[0].text, /^[A-Za-z_]+: /, `${where}: a tool error starts with its code`);
          assert.equal(typeof result.structuredContent?.code, 'string', where);
          continue;
        }
        counts.toolOk++;
        if (name) counts.okByTool.set(name, (counts.okByTool.get(name) ?? 0) + 1);
        const parsed = JSON.parse(result.content[0].text);
        const asObject = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : { result: parsed };
        assert.deepEqual(asObject, result.structuredContent, `${where}: the text is the structured content`);
        const op = name ? ops.get(TOOL_ROUTES[name]!) : undefined;
        if (op) {
          const matches = [...op.responses.values()].some((validate) => validate(result.structuredContent));
          assert.ok(matches, `${where}: ${name}'s result is not an answer of ${TOOL_ROUTES[name!]}: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
        }
      }
    }),
    { numRuns: RUNS_PER_OPERATION * 10, seed: SEED, endOnFailure: true, includeErrorInReport: true },
  );
  t.diagnostic(`POST /mcp: HTTP ${[...counts.http].map(([s, n]) => `${s}×${n}`).join(' ')}; tool results ${counts.toolOk} ok, ${counts.toolError} tool errors; ${counts.rpcError} JSON-RPC errors`);
  t.diagnostic(`POST /mcp: successful results per tool: ${Object.keys(TOOL_ROUTES).map((name) => `${name} ${counts.okByTool.get(name) ?? 0}`).join(', ')}`);
  if (RUNS_PER_OPERATION >= 120) {
    assert.ok(counts.toolOk >= RUNS_PER_OPERATION, `only ${counts.toolOk} tool calls succeeded`);
    for (const name of Object.keys(TOOL_ROUTES)) assert.ok((counts.okByTool.get(name) ?? 0) > 0, `the tool ${name} never succeeded`);
  }
});

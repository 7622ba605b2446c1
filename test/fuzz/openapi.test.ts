// Fuzzing from the OpenAPI document: for every operation it lists, fast-check generates valid and
// invalid requests (from the route's own schemas) and the answers are checked: never a 5xx, every error
// in API.md's shape (B on POST /v1/posts, A elsewhere), every 2xx body valid against its response schema.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { arbitraryFor, invalidFor, type Schema } from './schema-arbitrary.ts';

const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 120);
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
const real: { postIds: string[]; mediaIds: string[]; accounts: { platform: string; accountId: string }[] } = { postIds: [], mediaIds: [], accounts: [] };
// A 1×1 PNG: what uploads send, besides whatever the generators make.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
let sent = 0;
const statuses = new Map<string, number>();

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

const FRESH_POST = '<a post created for this request>';

/** Path parameters: mostly real ids, so successes are exercised too, sometimes made up ones. */
function pathValue(name: string, schema: Schema, path: string): fc.Arbitrary<string> {
  if (path.startsWith('/v1/media/') && name === 'id') {
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real.mediaIds) }, { weight: 1, arbitrary: fc.constantFrom('med_nope', 'x'.repeat(100), '...') });
  }
  if (name === 'postId') {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(FRESH_POST) },
      { weight: 1, arbitrary: fc.constantFrom(...real.postIds) },
      // Not '..': the URL parser resolves it away, and PATCH /v1/posts/.. is PATCH /v1/, another route.
      { weight: 1, arbitrary: fc.constantFrom('post_nope', 'x'.repeat(100), '%20', '...') },
    );
  }
  if (name === 'accountId') return fc.oneof(fc.constantFrom(...real.accounts.map((a) => a.accountId)), fc.string({ minLength: 1, maxLength: 20 }));
  return fc.oneof(arbitraryFor(schema).map(String), fc.string({ minLength: 1, maxLength: 12 }));
}

/** Bodies that can really create posts, besides whatever the schema allows. */
function postBodies(): fc.Arbitrary<unknown> {
  const target = fc.constantFrom(...real.accounts).map((a) => ({ platform: a.platform, accountId: a.accountId }));
  return fc.oneof(
    fc.record({ content: fc.string({ minLength: 1, maxLength: 60 }), isDraft: fc.constant(true) }),
    fc.record({
      content: fc.string({ minLength: 1, maxLength: 60 }),
      scheduledFor: fc.integer({ min: 60, max: 86_400 }).map((s) => new Date(Date.now() + s * 1000).toISOString()),
      platforms: fc.array(target, { minLength: 1, maxLength: 2 }),
      timezone: fc.constantFrom('UTC', 'Europe/Paris', 'Asia/Tokyo', 'Nowhere/Land'),
    }),
    fc.record({ content: fc.string({ minLength: 1, maxLength: 60 }), publishNow: fc.constant(true), platforms: fc.array(target, { minLength: 1, maxLength: 2 }) }),
  );
}

function requestFor(op: Operation) {
  const path = fc.record(Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p.name, p.schema, op.path)])));
  const queryParams = op.params.filter((p) => p.in === 'query');
  const validQuery = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, arbitraryFor(p.schema)])), { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) });
  const query =
    queryParams.length === 0
      ? fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ surprise: '1' }) })
      : fc.oneof(
          { weight: 4, arbitrary: validQuery },
          { weight: 1, arbitrary: validQuery.map((q) => ({ ...q, surprise: 'x' })) },
          { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...queryParams.map((p) => p.name)), fc.string({ maxLength: 10 })) },
        );
  const bodies: fc.Arbitrary<{ raw?: string | Uint8Array; json?: unknown; type?: string }>[] = [fc.constant({})];
  if (op.method === 'POST' && op.path === '/v1/media') {
    // The upload takes the file itself: real images (declared right or wrong), cut ones, and other bytes.
    bodies.push(
      fc.constantFrom<{ raw: Uint8Array; type: string }>(
        { raw: PNG, type: 'image/png' },
        { raw: PNG, type: 'image/jpeg' },
        { raw: PNG.subarray(0, 40), type: 'image/png' },
        { raw: new Uint8Array(0), type: 'image/png' },
      ),
      fc.uint8Array({ maxLength: 600 }).map((raw) => ({ raw, type: 'application/octet-stream' })),
    );
  }
  if (op.body) {
    bodies.push(arbitraryFor(op.body).map((json) => ({ json })), invalidFor(op.body).map((json) => ({ json })));
    if (op.path === '/v1/posts' && op.method === 'POST') bodies.push(postBodies().map((json) => ({ json })), postBodies().map((json) => ({ json })));
    bodies.push(fc.constantFrom({ raw: '{"content":', type: 'application/json' }, { raw: 'content=1', type: 'application/x-www-form-urlencoded' }, { raw: 'hello', type: 'text/plain' }));
  }
  const auth = fc.oneof(
    { weight: 14, arbitrary: fc.constant('good' as const) },
    { weight: 1, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constant('bad' as const) },
  );
  return fc.record({ path, query, body: fc.oneof(...bodies), auth, idempotencyKey: fc.option(fc.uuid(), { freq: 3 }) });
}

function checkError(op: Operation, status: number, body: any, text: string, reached: boolean) {
  const where = `${op.method} ${op.path} → ${status}: ${text.slice(0, 300)}`;
  assert.equal(typeof body, 'object', where);
  assert.equal(typeof body.error, 'string', where);
  assert.ok(body.error.length > 0, where);
  // Shape B: every error of POST /v1/posts but 404, 429 and 500; the create checks' errors of PATCH. Only
  // when the request reached that route: an id of ".." takes it elsewhere (the URL drops the segment).
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
  doc = (await w.h.request('GET', '/openapi.json', { key: null })).body;
});
after(() => w.close());

test(`every operation of /openapi.json survives ${RUNS_PER_OPERATION} generated requests`, { timeout: 600_000 }, async (t) => {
  const ops = operations();
  assert.ok(ops.length >= 11, `operations found: ${ops.map((o) => `${o.method} ${o.path}`).join(', ')}`);
  for (const op of ops) {
    await fc.assert(
      fc.asyncProperty(requestFor(op), async (r) => {
        const ids = r.path as Record<string, string>;
        if (ids.postId === FRESH_POST) {
          const fresh = await w.h.request('POST', '/v1/posts', { body: { content: 'fuzz target', isDraft: true } });
          ids.postId = fresh.body.id;
        }
        // Dots encoded too: fetch would resolve a ".." segment and send the request to another route.
        const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'x').replace(/\./g, '%2E'));
        const qs = new URLSearchParams(Object.entries(r.query as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)])).toString();
        const headers: Record<string, string> = {};
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
        const bucket = `${res.status}`;
        statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
        const text = await res.text();
        assert.ok(res.headers.get('x-request-id'), 'X-Request-Id on every answer');
        assert.ok(res.status < 500, `${op.method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
        const body = text ? JSON.parse(text) : undefined;
        // fetch resolves dot segments ("/v1/posts/.." is "/v1/"): such a request never reached this route.
        const reached = new URL(`${w.h.url}${path}`).pathname === path;
        if (res.status >= 400) return checkError(op, res.status, body, text, reached);
        const validate = op.responses.get(res.status);
        assert.ok(validate, `${op.method} ${op.path} answered ${res.status}, which its schema does not list`);
        assert.ok(validate(body), `${op.method} ${op.path} → ${res.status} body does not match its schema: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`);
      }),
      { numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
  }
  const summary = [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}×${n}`).join(' ');
  t.diagnostic(`${sent} requests over ${ops.length} operations: ${summary}`);
  assert.ok(sent >= 2000 || RUNS_PER_OPERATION < 120, `sent ${sent} requests`);
  const ok = [...statuses].filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
  assert.ok(ok >= sent / 10, `only ${ok} of ${sent} answers were successes; the fuzzer must reach the success paths too`);
});

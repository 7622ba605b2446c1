// MCP (API.md section 14), with the MCP SDK's own client, over both transports: `herald mcp` on stdio
// (spawned with the pinned Node, a client of a running Herald) and POST /mcp (Streamable HTTP, stateless).
// Tools listed with their derived input schemas; a draft created, validated, listed and read; errors as
// tool errors with the API's code; the same create_post twice, over either transport, is one post; a bad
// key is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { HERALD_MAIN } from '../helpers/process.ts';

const TOOL_NAMES = [
  'list_accounts', 'accounts_health', 'create_post', 'validate_post', 'update_post', 'list_posts', 'get_post',
  'delete_post', 'retry_post', 'unpublish_post', 'import_media', 'list_media', 'get_queue',
].sort();

let w: World;
let accountId: string;
const clients: Client[] = [];

async function stdioClient(key: string): Promise<Client> {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  const env = { ...(process.env as Record<string, string>), HERALD_URL: w.h.url, HERALD_API_KEY: key };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [HERALD_MAIN, 'mcp'], env, stderr: 'pipe' }));
  clients.push(client);
  return client;
}

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${w.h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

type ToolAnswer = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as ToolAnswer;

before(async () => {
  w = await startWorld();
  accountId = (await connectAccount(w.h, 'twitter')).accountId;
});
after(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await w.close();
});

for (const transport of ['stdio', 'http'] as const) {
  describe(`MCP over ${transport}`, () => {
    let c: Client;
    before(async () => {
      c = transport === 'stdio' ? await stdioClient(w.h.key) : await httpClient(w.h.key);
    });

    test('lists the thirteen tools, input schemas derived from the routes', async () => {
      const { tools } = await c.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
      const create = tools.find((t) => t.name === 'create_post')!;
      const props = create.inputSchema.properties as Record<string, any>;
      for (const field of ['content', 'mediaItems', 'platforms', 'publishNow', 'scheduledFor', 'isDraft', 'queue', 'timezone', 'tags', 'tiktokSettings', 'idempotencyKey']) {
        assert.ok(props[field], `create_post takes ${field}`);
      }
      assert.equal(props.platforms.items.properties.accountId.type, 'string', 'references are inlined');
      assert.ok(!JSON.stringify(create.inputSchema).includes('$ref'));
      const list = tools.find((t) => t.name === 'list_posts')!;
      assert.deepEqual(Object.keys(list.inputSchema.properties ?? {}).sort(), ['cursor', 'fromDate', 'limit', 'platform', 'status', 'toDate']);
      const update = tools.find((t) => t.name === 'update_post')!;
      assert.deepEqual(update.inputSchema.required, ['postId']);
    });

    test('a draft: validate, create, list, get; results are the REST answer as structured content and as text', async () => {
      const content = `an MCP draft over ${transport}`;
      const checked = await call(c, 'validate_post', { content, publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
      assert.equal(checked.isError, undefined);
      assert.equal(checked.structuredContent.valid, true);
      const bad = await call(c, 'validate_post', { content: 'x'.repeat(300), publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
      assert.equal(bad.structuredContent.valid, false);
      assert.equal(bad.structuredContent.targets[0].characters.used, 300);

      const created = await call(c, 'create_post', { content, isDraft: true, platforms: [{ platform: 'twitter', accountId }] });
      assert.equal(created.isError, undefined, JSON.stringify(created));
      assert.match(created.structuredContent.id, /^post_/);
      assert.equal(created.structuredContent.status, 'draft');
      assert.deepEqual(JSON.parse(created.content[0]!.text!), created.structuredContent);

      const listed = await call(c, 'list_posts', { status: 'draft', limit: 100 });
      assert.ok(listed.structuredContent.posts.some((p: { id: string }) => p.id === created.structuredContent.id));
      const got = await call(c, 'get_post', { postId: created.structuredContent.id });
      assert.deepEqual(got.structuredContent, (await w.h.request('GET', `/v1/posts/${created.structuredContent.id}`)).body);
      const updated = await call(c, 'update_post', { postId: created.structuredContent.id, content: `${content}, changed` });
      assert.equal(updated.structuredContent.content, `${content}, changed`);
      const accounts = await call(c, 'list_accounts', { platform: 'twitter' });
      assert.equal(accounts.structuredContent.accounts[0].accountId, accountId);
      assert.equal((await w.h.request('PUT', '/v1/queue', { body: { timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }] } })).status, 200);
      const queue = await call(c, 'get_queue');
      assert.equal(queue.structuredContent.upcoming.length, 10, JSON.stringify(queue));
      const deleted = await call(c, 'delete_post', { postId: created.structuredContent.id });
      assert.deepEqual(deleted.structuredContent, { id: created.structuredContent.id, deleted: true });
    });

    test("the API's refusals are tool errors with its code, message and param", async () => {
      const missing = await call(c, 'get_post', { postId: 'post_nope' });
      assert.equal(missing.isError, true);
      assert.equal(missing.structuredContent.code, 'NOT_FOUND');
      assert.match(missing.content[0]!.text!, /^NOT_FOUND: /);
      const invalid = await call(c, 'create_post', { content: 'no mode' });
      assert.equal(invalid.isError, true);
      assert.equal(invalid.structuredContent.code, 'missing_required_field');
      assert.equal(invalid.structuredContent.param, 'publishNow');
      assert.equal(invalid.structuredContent.status, 400);
      const typo = await call(c, 'list_posts', { limitt: 5 });
      assert.equal(typo.structuredContent.code, 'VALIDATION_ERROR');
    });
  });
}

describe('create_post is idempotent by default', () => {
  test('the same arguments twice, over stdio then HTTP, within 10 minutes: one post', async () => {
    const args = { content: 'posted once, whatever the agent repeats', publishNow: true, platforms: [{ platform: 'twitter', accountId }] };
    const first = await call(await stdioClient(w.h.key), 'create_post', args);
    assert.equal(first.structuredContent.status, 'published', JSON.stringify(first));
    const again = await call(await httpClient(w.h.key), 'create_post', { platforms: args.platforms, publishNow: true, content: args.content });
    assert.equal(again.structuredContent.id, first.structuredContent.id);
    const published = w.emu('twitter').ledger.list({ accountId }).filter((e) => e.text === args.content);
    assert.equal(published.length, 1, 'X received it once');
    // With an idempotencyKey of its own the caller decides: another key is another post.
    const own = await call(await httpClient(w.h.key), 'create_post', { ...args, isDraft: true, publishNow: undefined, idempotencyKey: crypto.randomUUID() });
    assert.notEqual(own.structuredContent.id, first.structuredContent.id);
  });

  test('another API key with the same arguments gets its own post', async () => {
    const other = await w.h.newKey('second agent');
    const args = { content: 'same words, two keys', isDraft: true };
    const a = await call(await httpClient(w.h.key), 'create_post', args);
    const b = await call(await httpClient(other.key), 'create_post', args);
    assert.notEqual(a.structuredContent.id, b.structuredContent.id);
  });
});

describe('the rate limit', () => {
  test('a tool call over POST /mcp counts once against the key, not once more for the /v1 call it makes inside', async () => {
    const { key } = await w.h.newKey();
    const counted = async (res: Response) => ({ remaining: Number(res.headers.get('x-ratelimit-remaining')), reset: res.headers.get('x-ratelimit-reset') });
    const rest = (headers: Record<string, string> = {}) => fetch(`${w.h.url}/v1/posts`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    const mcp = () =>
      fetch(`${w.h.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_posts', arguments: {} } }),
      });
    // A window may end between two requests; then the whole sequence is measured again in the next one.
    for (;;) {
      const first = await counted(await rest());
      const viaMcp = await mcp();
      assert.equal(viaMcp.status, 200);
      assert.equal(((await viaMcp.json()) as any).result.isError, undefined);
      const afterMcp = await counted(await rest());
      // A caller cannot claim to be the in-process call: a made-up token is counted as usual.
      const claimed = await counted(await rest({ 'x-herald-in-process': 'a'.repeat(43) }));
      if (new Set([first.reset, afterMcp.reset, claimed.reset]).size !== 1) continue;
      assert.equal(afterMcp.remaining, first.remaining - 2, 'the /mcp request once, the REST request once');
      assert.equal(claimed.remaining, first.remaining - 3);
      return;
    }
  });
});

describe('a bad key', () => {
  test('is refused over HTTP (401) and makes every stdio tool call an AUTH_INVALID_KEY error', async () => {
    const res = await fetch(`${w.h.url}/mcp`, {
      method: 'POST',
      headers: { authorization: 'Bearer hk_not_a_real_key_0000000000000000000000000000', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'AUTH_INVALID_KEY');
    await assert.rejects(httpClient('hk_not_a_real_key_0000000000000000000000000000'));
    const stdio = await stdioClient('hk_not_a_real_key_0000000000000000000000000000');
    const answer = await call(stdio, 'list_posts');
    assert.equal(answer.isError, true);
    assert.equal(answer.structuredContent.code, 'AUTH_INVALID_KEY');
  });
});

describe('a dashboard session', () => {
  test('POST /mcp with the session (cookie, Origin, CSRF token) writes as with the key: the token reaches the tool\'s route', async () => {
    const signIn = await fetch(`${w.h.url}/app/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: w.h.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ key: w.h.key }),
    });
    assert.equal(signIn.status, 200);
    const csrf = ((await signIn.json()) as { csrfToken: string }).csrfToken;
    const headers = { cookie: signIn.headers.get('set-cookie')!.split(';')[0]!, origin: w.h.url, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const callTool = async (name: string, args: Record<string, unknown>, csrfHeader: Record<string, string>) => {
      const res = await fetch(`${w.h.url}/mcp`, { method: 'POST', headers: { ...headers, ...csrfHeader }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const created = await callTool('create_post', { content: 'a draft from the dashboard session', isDraft: true }, { 'x-herald-csrf': csrf });
    assert.equal(created.status, 200);
    assert.equal(created.body.result.isError, undefined, JSON.stringify(created.body));
    assert.equal(created.body.result.structuredContent.status, 'draft');
    // Without the token the session's request is refused at /mcp itself, before any tool runs.
    const forged = await callTool('create_post', { content: 'forged', isDraft: true }, {});
    assert.equal(forged.status, 403);
    assert.equal(forged.body.code, 'CSRF_REJECTED');
  });
});

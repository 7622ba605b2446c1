// The API commands of `herald` as a user runs them against a running Herald: posts list|get|create,
// accounts list|health, media upload; tables and --json; the API's message and code on a refusal (exit
// 1), a wrong command line (exit 2), an unreachable Herald (exit 1).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { HERALD_MAIN } from '../helpers/process.ts';

let w: World;
let accountId: string;
let dir: string;

before(async () => {
  w = await startWorld();
  accountId = (await connectAccount(w.h, 'twitter')).accountId;
  dir = mkdtempSync(join(tmpdir(), 'herald-cli-'));
});
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  await w.close();
});

/** Runs `herald …` as a user does (asynchronously: the Herald it talks to lives in this process). */
function herald(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [HERALD_MAIN, ...args], {
    env: { ...(process.env as Record<string, string>), HERALD_URL: w.h.url, HERALD_API_KEY: w.h.key, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('herald posts', () => {
  test('create (draft, now, from a JSON file), get, list: tables and --json', async () => {
    const draft = await herald(['posts', 'create', '--content', 'a draft from the shell', '--draft', '--tag', 'cli', '--json']);
    assert.equal(draft.code, 0, draft.stderr);
    const post = JSON.parse(draft.stdout);
    assert.equal(post.status, 'draft');
    assert.deepEqual(post.tags, ['cli']);

    const now = await herald(['posts', 'create', '--content', 'published from the shell', '--now', '--target', `twitter:${accountId}`]);
    assert.equal(now.code, 0, now.stderr);
    assert.match(now.stdout, /^post_\S+ {2}published/);
    assert.match(now.stdout, new RegExp(`twitter:${accountId} {2}published {2}https://`));

    const file = join(dir, 'post.json');
    writeFileSync(file, JSON.stringify({ content: 'from a file', isDraft: true }));
    const fromFile = await herald(['posts', 'create', '--body', file, '--json']);
    assert.equal(JSON.parse(fromFile.stdout).content, 'from a file');

    const got = await herald(['posts', 'get', post.id]);
    assert.equal(got.code, 0);
    assert.match(got.stdout, new RegExp(`^${post.id} {2}draft`));
    assert.deepEqual(JSON.parse((await herald(['posts', 'get', post.id, '--json'])).stdout), post);

    const table = await herald(['posts', 'list', '--status', 'draft']);
    assert.match(table.stdout, /^ID +STATUS +CREATED +TARGETS +CONTENT/);
    assert.match(table.stdout, /a draft from the shell/);
    const all = JSON.parse((await herald(['posts', 'list', '--all', '--limit', '1', '--json'])).stdout).posts;
    assert.equal(all.length, 3, 'every page, one post a page');
  });

  test("a refusal prints the API's message and code and exits 1; a wrong command line exits 2", async () => {
    const refused = await herald(['posts', 'create', '--content', 'x'.repeat(300), '--now', '--target', `twitter:${accountId}`]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^herald: platforms\[0\] \(twitter\): X counts 300 characters.* \(422 invalid_field_value; param content, request \S+\)/);
    const missing = await herald(['posts', 'get', 'post_nope']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /\(404 NOT_FOUND; request \S+\)/);
    const badKey = await herald(['accounts', 'list'], { HERALD_API_KEY: 'hk_not_a_real_key_0000000000000000000000000000' });
    assert.equal(badKey.code, 1);
    assert.match(badKey.stderr, /401 AUTH_INVALID_KEY/);

    for (const args of [['posts'], ['posts', 'frob'], ['posts', 'create', '--content', 'two modes', '--draft', '--now'], ['posts', 'list', '--limit', 'ten'], ['posts', 'get'], ['media', 'upload']]) {
      const r = await herald(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /Exit codes: 0 done/);
    }
    assert.equal((await herald(['accounts', 'list'], { HERALD_API_KEY: '' })).code, 2);
    const down = await herald(['accounts', 'list'], { HERALD_URL: 'http://127.0.0.1:9' });
    assert.equal(down.code, 1);
    assert.match(down.stderr, /cannot reach Herald/);
  });
});

describe('herald accounts', () => {
  test('list and health', async () => {
    const list = await herald(['accounts', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`twitter +${accountId} +\\S+ +active`));
    const health = JSON.parse((await herald(['accounts', 'health', '--json'])).stdout);
    assert.equal(health.accounts[0].health, 'healthy');
    assert.match((await herald(['accounts', 'health'])).stdout, /twitter .* healthy/);
  });
});

describe('herald media upload', () => {
  test('a file that is not there is a usage error; the upload itself is tested where the media routes exist', async () => {
    assert.equal((await herald(['media', 'upload', join(dir, 'nope.jpg')])).code, 2);
    const doc = (await w.h.request('GET', '/openapi.json', { key: null })).body;
    if (!doc.paths['/v1/media']) return; // the media library is built on another branch (API.md section 10)
    const file = join(dir, 'sample.jpg');
    writeFileSync(file, Buffer.from(await (await fetch(w.media('sample.jpg'))).arrayBuffer()));
    const up = await herald(['media', 'upload', file, '--alt-text', 'a sample', '--json']);
    assert.equal(up.code, 0, up.stderr);
    assert.match(JSON.parse(up.stdout).id, /^med_/);
  });
});

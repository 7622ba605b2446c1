// The OpenAPI document and the SDK generated from it: the committed document (packages/sdk/openapi.json),
// types (packages/sdk/src/schema.ts) and build (packages/sdk/dist) are what the app's current routes
// produce, and the document passes Redocly's lint (redocly.yaml: recommended-strict). A stale file fails
// with the command that fixes it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SDK_DIR, build, generatedFiles } from '../../packages/sdk/scripts/generate.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const FIX = 'run `npm run sdk:generate` and commit what it changes';

test('the committed document and SDK types are generated from the current routes', async () => {
  for (const [path, content] of Object.entries(await generatedFiles())) {
    assert.ok(readFileSync(join(SDK_DIR, path), 'utf8') === content, `packages/sdk/${path} is stale: ${FIX}`);
  }
});

test('the committed SDK build is what tsc makes of its sources', () => {
  const out = mkdtempSync(join(tmpdir(), 'herald-sdk-build-'));
  try {
    build(out);
    const built = readdirSync(out).sort();
    assert.deepEqual(readdirSync(join(SDK_DIR, 'dist')).sort(), built, `packages/sdk/dist has other files than the build: ${FIX}`);
    for (const file of built) {
      assert.ok(readFileSync(join(out, file), 'utf8') === readFileSync(join(SDK_DIR, 'dist', file), 'utf8'), `packages/sdk/dist/${file} is stale: ${FIX}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the document passes Redocly lint (recommended-strict)', () => {
  const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
  const r = spawnSync(process.execPath, [cli, 'lint', 'packages/sdk/openapi.json', '--format=stylish'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  assert.equal(r.status, 0, `redocly lint failed:\n${r.stdout}\n${r.stderr}`);
});

test('every operation has a camelCase operationId, unique, and no sandbox route is documented', () => {
  const doc = JSON.parse(readFileSync(join(SDK_DIR, 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const ids: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    assert.ok(!path.startsWith('/sandbox'), `${path} is in the document`);
    for (const [method, op] of Object.entries(methods)) {
      assert.match(op.operationId ?? '', /^[a-z][A-Za-z]+$/, `${method.toUpperCase()} ${path}`);
      ids.push(op.operationId!);
    }
  }
  assert.equal(new Set(ids).size, ids.length);
});

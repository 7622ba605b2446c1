// The examples of packages/sdk/README.md run as written, against a real Herald with a connected X
// account: each ```js block is a module importing @herald/sdk, run by the pinned Node.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';

const SDK = new URL('../../packages/sdk/', import.meta.url);
const blocks = [...readFileSync(new URL('README.md', SDK), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
let w: World;

before(async () => {
  w = await startWorld();
  await connectAccount(w.h, 'twitter');
});
after(() => w.close());

function run(file: URL): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [file.pathname], { env: { ...process.env, HERALD_URL: w.h.url, HERALD_API_KEY: w.h.key }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

test('the README has its examples', () => assert.ok(blocks.length >= 4));

for (const [i, code] of blocks.entries()) {
  test(`README example ${i + 1}: ${code.split('\n').find((l) => l.startsWith('//'))?.slice(3) ?? code.split('\n')[2]}`, async () => {
    // Inside the package, so that `@herald/sdk` resolves as it does for a user.
    const file = new URL(`.readme-example-${process.pid}-${i}.mjs`, SDK);
    writeFileSync(file, code);
    try {
      const { code: exit, out } = await run(file);
      assert.equal(exit, 0, out);
    } finally {
      rmSync(file, { force: true });
    }
  });
}

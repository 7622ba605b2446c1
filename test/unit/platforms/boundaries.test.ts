// Adding a platform touches its own folders and one registry line: no other source file names a
// platform in code. Comments may (they explain), migrations may (they are history), docs and tests may.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { PLATFORM_DESCRIPTORS } from '../../../src/platforms/registry.ts';

const ROOT = join(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The code of a TypeScript file without its comments (strings and template literals kept). */
export function codeOf(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

test('codeOf keeps strings and drops comments', () => {
  assert.equal(codeOf("a // x\nb /* y */ c 'http://z' `//w`"), "a \nb  c 'http://z' `//w`");
});

for (const d of PLATFORM_DESCRIPTORS) {
  test(`only ${d.name}'s own folders and the registry name ${d.name} in code`, () => {
    const own = [join('src', 'platforms', d.name), join('src', 'sandbox', d.sandbox.mount), join('src', 'platforms', d.sandbox.mount)].map((p) => p + sep);
    const allowed = (file: string) =>
      own.some((p) => file.startsWith(p)) || file === join('src', 'platforms', 'registry.ts') || file.startsWith(join('src', 'db', 'migrations') + sep);
    const word = new RegExp(`\\b${d.name}\\b`, 'i');
    const offenders = sourceFiles(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f))
      .filter((f) => !allowed(f) && word.test(codeOf(readFileSync(join(ROOT, f), 'utf8'))));
    assert.deepEqual(offenders, [], `${d.name} is named outside its folders in: ${offenders.join(', ')}`);
  });
}

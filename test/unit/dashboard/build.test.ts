// The dashboard's committed build (src/dashboard/dist) is what web/ builds to today, and its first page
// stays small:
//   esbuild over web/ now                  → byte for byte the committed files (else: npm run build:dashboard)
//   JavaScript the first page loads         → at most 150 KB gzipped (API.md section 13's budget)
//   the page                                → no inline script or style, every asset named by its content hash
//   calendar arithmetic in a zone with DST  → whole weeks from Monday, one cell per local day, posts in their local day
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { OUT_DIR, buildDashboard } from '../../../scripts/build-dashboard.ts';

function committed(): Map<string, Buffer> {
  const files = new Map<string, Buffer>([['index.html', readFileSync(join(OUT_DIR, 'index.html'))]]);
  for (const name of readdirSync(join(OUT_DIR, 'assets'))) files.set(`assets/${name}`, readFileSync(join(OUT_DIR, 'assets', name)));
  return files;
}

test('the committed build is what web/ builds to now (run `npm run build:dashboard` after changing web/)', async () => {
  const fresh = await buildDashboard();
  const now = committed();
  assert.deepEqual([...now.keys()].sort(), [...fresh.keys()].sort(), 'the same files');
  for (const [name, body] of fresh) assert.ok(now.get(name)!.equals(body), `${name} is stale`);
});

test('the first page loads at most 150 KB of gzipped JavaScript, and nothing inline', () => {
  const html = readFileSync(join(OUT_DIR, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]*src="\/app\/assets\/([^"]+)"/g)].map((m) => m[1]!);
  assert.equal(scripts.length, 1);
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  assert.doesNotMatch(html, /<style|style="/, 'no inline style');
  // The bundle imports nothing else: everything the first page runs is in it.
  const js = readFileSync(join(OUT_DIR, 'assets', scripts[0]!));
  assert.doesNotMatch(js.toString(), /\bimport\s*\(|\bfrom\s*"\.\//, 'no further chunks');
  const gz = gzipSync(js, { level: 9 }).length;
  assert.ok(gz <= 150 * 1024, `${gz} bytes gzipped`);
  for (const name of readdirSync(join(OUT_DIR, 'assets'))) assert.match(name, /^[a-z]+-[A-Z0-9]{8}\.(js|css)$/, name);
});

test('calendar arithmetic in a zone with a DST change: whole weeks from Monday, one cell per local day', async () => {
  const before = process.env.TZ;
  process.env.TZ = 'Europe/Paris';
  try {
    const { range, byDay, dayKey, step } = await import('../../../web/src/calendar-math.ts');
    const march = range('month', new Date(2026, 2, 15));
    assert.equal(dayKey(march.start), '2026-02-23', 'the Monday before March 1st');
    assert.equal(march.days.length, 42);
    const keys = march.days.map(dayKey);
    assert.equal(new Set(keys).size, keys.length, 'no day twice, none skipped, across the change on March 29');
    assert.ok(keys.includes('2026-03-29') && keys.includes('2026-03-30'));
    assert.equal(dayKey(march.end), '2026-04-06');
    const week = range('week', new Date(2026, 2, 29, 12));
    assert.deepEqual(week.days.map(dayKey), ['2026-03-23', '2026-03-24', '2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29']);
    assert.equal(dayKey(step('week', new Date(2026, 2, 29), 1)), '2026-04-05');
    // 23:30 UTC on March 28 is 00:30 on the 29th in Paris.
    assert.deepEqual([...byDay([{ at: '2026-03-28T23:30:00.000Z' }]).keys()], ['2026-03-29']);
  } finally {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  }
});

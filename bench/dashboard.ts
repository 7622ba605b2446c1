// The dashboard's calendar with a month of 1,000 posts, rendered in Debian's Chromium (API.md section 13:
// under 500 ms). The page measures itself: the `calendar:render` performance measure runs from the
// answer's arrival to the posts laid out in the DOM (style and layout included). Herald runs in its own
// process on the embedded database; the posts are scheduled across next month, so the calendar opens on
// this month and "Next" shows them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { OUT_DIR } from '../scripts/build-dashboard.ts';
import { browserMissing, launchChromium, newContext, signInThroughForm } from '../test/helpers/browser.ts';
import { api, benchDatabase, connect, createKey, percentile, startHerald } from './lib.ts';

export interface CalendarFigures {
  posts: number;
  runsMs: number[];
  p50Ms: number;
  maxMs: number;
  firstPageJsGzipBytes: number;
}

const RUNS = 7;

export function firstPageJsGzipBytes(): number {
  const html = readFileSync(join(OUT_DIR, 'index.html'), 'utf8');
  const names = [...html.matchAll(/src="\/app\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  return names.reduce((n, name) => n + gzipSync(readFileSync(join(OUT_DIR, 'assets', name)), { level: 9 }).length, 0);
}

export async function benchCalendar(posts = 1_000): Promise<CalendarFigures | { skipped: string }> {
  const missing = browserMissing();
  if (missing) return { skipped: missing };
  const db = await benchDatabase();
  const key = createKey(db.env);
  const herald = await startHerald(db.env);
  try {
    const [accountId] = await connect(herald.url, key, 'twitter');
    const now = new Date();
    const firstOfNext = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    for (let start = 0; start < posts; start += 500) {
      const batch = Array.from({ length: Math.min(500, posts - start) }, (_, j) => {
        const i = start + j;
        const at = new Date(firstOfNext + (i % 28) * 86_400_000 + ((i * 37) % 1440) * 60_000);
        return { content: `Calendar post ${i}: a line of text as a post would have it`, scheduledFor: at.toISOString(), platforms: [{ platform: 'twitter', accountId }] };
      });
      const res = await api(herald.url, key, 'POST', '/v1/posts/bulk', { posts: batch });
      if (res.status !== 200 || res.body.created !== batch.length) throw new Error(`bulk create: ${JSON.stringify(res.body).slice(0, 300)}`);
    }

    const browser = await launchChromium();
    try {
      const context = await newContext(browser, { timezoneId: 'UTC' });
      const page = await context.newPage();
      await signInThroughForm(page, herald.url, key);
      const runsMs: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.getByRole('button', { name: 'Next' }).click();
        await page.waitForFunction((n) => (globalThis as any).document.documentElement.dataset.calendarRendered === String(n), posts, { timeout: 60_000 });
        const ms = await page.evaluate(() => {
          const all = (globalThis as any).performance.getEntriesByName('calendar:render');
          return all[all.length - 1].duration as number;
        });
        runsMs.push(Math.round(ms * 10) / 10);
        await page.getByRole('button', { name: 'Previous' }).click();
        // This month's grid shows the first days of next month too: anything but the full count will do.
        await page.waitForFunction((n) => (globalThis as any).document.documentElement.dataset.calendarRendered !== String(n), posts, { timeout: 60_000 });
      }
      return { posts, runsMs, p50Ms: percentile(runsMs, 50), maxMs: Math.max(...runsMs), firstPageJsGzipBytes: firstPageJsGzipBytes() };
    } finally {
      await browser.close();
    }
  } finally {
    await herald.stop();
    await db.drop();
  }
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  console.log(JSON.stringify(await benchCalendar(), null, 2));
}

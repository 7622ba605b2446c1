// npm run bench: every benchmark, each beside its baseline in the same run, written to bench/RESULTS.md.
//   BENCH_SECONDS       duration of each API load (default 10)
//   BENCH_LOAD_SECONDS  duration of the mixed load / soak (default 90)
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { benchApi } from './api.ts';
import { benchCalendar } from './dashboard.ts';
import { machine } from './lib.ts';
import { benchLoad } from './load.ts';
import { benchMedia } from './media.ts';
import { benchMcp } from './mcp.ts';
import { benchDueInOneMinute, benchFanOut } from './publishing.ts';
import { benchWebhooks } from './webhooks.ts';

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => (Math.round(n * 10) / 10).toString();
const f2 = (n: number) => n.toFixed(2);
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

function log(step: string) {
  process.stderr.write(`[bench] ${new Date().toISOString()} ${step}\n`);
}

log('API: baseline, create, list');
const apiFigures = await benchApi();
log('MCP list_posts against REST');
const mcpFigures = await benchMcp();
log('publishNow fan-out');
const fanOut = await benchFanOut();
log('10,000 posts due in one minute');
const due = await benchDueInOneMinute();
log('webhooks');
const webhooks = await benchWebhooks();
log('media library');
const media = await benchMedia();
log('dashboard: a month of 1,000 posts in Chromium');
const calendar = await benchCalendar();
log('mixed load');
const loadFigures = await benchLoad({ seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 90) });

const commit = (() => {
  try {
    return execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const { baseline, create, list } = apiFigures;
const share = apiFigures.createShareOfBaseline;

const lines = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} at commit \`${commit}\`.`,
  `Machine: ${machine()}. Everything on loopback; Herald runs in its own process on the embedded SQLite`,
  'database, load comes from autocannon or plain fetch in the benchmark process, platforms are the built-in emulators.',
  '',
  '## API (issue 2)',
  '',
  '| | requests/s | p50 | p99 | non-2xx |',
  '|---|---|---|---|---|',
  `| baseline: bare Fastify + one INSERT (better-sqlite3, same file) | ${f0(baseline.requestsPerSecond)} | ${baseline.p50Ms} ms | ${baseline.p99Ms} ms | ${baseline.non2xx} |`,
  `| \`POST /v1/posts\` scheduled, 3 targets, Idempotency-Key | ${f0(create.requestsPerSecond)} | ${create.p50Ms} ms | ${create.p99Ms} ms | ${create.non2xx} |`,
  `| \`GET /v1/posts?limit=20\` over ${f0(apiFigures.storedPosts)} posts, 8 connections | ${f0(list.connections8.requestsPerSecond)} | ${list.connections8.p50Ms} ms | ${list.connections8.p99Ms} ms | ${list.connections8.non2xx} |`,
  `| \`GET /v1/posts?limit=20\` over ${f0(apiFigures.storedPosts)} posts, 16 connections | ${f0(list.connections16.requestsPerSecond)} | ${list.connections16.p50Ms} ms | ${list.connections16.p99Ms} ms | ${list.connections16.non2xx} |`,
  '',
  `- Create at ${f1(share * 100)} % of the baseline; target at least 40 %: ${verdict(share >= 0.4)}.`,
  `- List p99 ${list.connections8.p99Ms} ms at 8 connections, ${list.connections16.p99Ms} ms at 16; target under 15 ms: ${verdict(list.connections8.p99Ms < 15)} at 8, ${verdict(list.connections16.p99Ms < 15)} at 16.`,
  '',
  '## MCP (issue 17)',
  '',
  `One connection, one request at a time, ${f0(mcpFigures.calls)} calls of each, interleaved:`,
  '',
  '| | p50 | p99 |',
  '|---|---|---|',
  `| REST \`GET /v1/posts?limit=20\` (the baseline) | ${f2(mcpFigures.rest.p50Ms)} ms | ${f2(mcpFigures.rest.p99Ms)} ms |`,
  `| MCP \`tools/call list_posts {limit: 20}\` on \`POST /mcp\` | ${f2(mcpFigures.mcp.p50Ms)} ms | ${f2(mcpFigures.mcp.p99Ms)} ms |`,
  '',
  `- MCP costs ${f2(mcpFigures.overheadMs)} ms more than the REST call it wraps (medians); target at most 2 ms: ${verdict(mcpFigures.overheadMs <= 2)}.`,
  '',
  '## Publishing (issue 4)',
  '',
  'publishNow, emulators answering every call after 100 ms (median of 5 posts each):',
  '',
  '| target(s) | response time |',
  '|---|---|',
  ...Object.entries(fanOut.singleMs).map(([p, ms]) => `| ${p} alone | ${f0(ms)} ms |`),
  `| all five at once | ${f0(fanOut.allFiveMs)} ms |`,
  '',
  `- All five take ${f2(fanOut.ratio)}× the slowest single target; target at most 1.3×: ${verdict(fanOut.ratio <= 1.3)}.`,
  '',
  `${f0(due.posts)} posts due within one minute (emulators answering at once):`,
  '',
  `- All published ${f1(due.drainSeconds)} s after the first was due (the last was due at 60 s).`,
  `- Lateness (attempt start − scheduledFor): p50 ${f0(due.latenessP50Ms)} ms, p99 ${f0(due.latenessP99Ms)} ms, max ${f0(due.latenessMaxMs)} ms; target p99 under 2 s: ${verdict(due.latenessP99Ms < 2000)}.`,
  `- Worker memory every 5 s (resident MB / V8 heap in use MB): ${due.memory.map((m) => `${m.atSeconds}s ${m.rssMb}/${m.heapUsedMb}`).join(', ')}.`,
  '',
  '## Webhooks (issue 5)',
  '',
  '```json',
  JSON.stringify(webhooks, null, 2),
  '```',
  '',
  '## Media library (issue 13)',
  '',
  `- Upload of ${f0(media.upload.bytes / 2 ** 20)} MiB through \`POST /v1/media\` (HTTP, SHA-256, fsynced disk store, probe): ${f0(media.upload.uploadMBps)} MB/s against ${f0(media.upload.plainMBps)} MB/s for a plain \`fs.createWriteStream\` of the same chunks (${f0(media.upload.plainSyncMBps)} MB/s with fsync, which the store does before it commits), ${f1(media.upload.share * 100)} % (${f1(media.upload.shareSync * 100)} % of the fsynced write), best of 3 each, interleaved; target at least 50 %: ${verdict(media.upload.share >= 0.5)}. Herald's RSS ${f0(media.upload.rssBeforeMb)} MB before, ${f0(media.upload.rssPeakMb)} MB at most during the upload (+${f1(media.upload.rssRiseMb)} MB); target under 64 MB: ${verdict(media.upload.rssRiseMb < 64)}.`,
  `- A 12-megapixel JPEG (6000×2000) to its Instagram rendition (cropped to 1.91:1, 1440 px): sharp alone ${f0(media.rendition.sharpMs)} ms (${f0(media.rendition.sharpCpuMs)} ms CPU, one libvips thread); in the publishNow request that makes it, ${f0(media.rendition.addedMs)} ms more than the same request reusing the rendition (${f0(media.rendition.requestMs)} ms against ${f0(media.rendition.reusedRequestMs)} ms, medians, Instagram's status polls included in both); target under 150 ms: ${verdict(media.rendition.sharpMs < 150)} (sharp), ${verdict(media.rendition.addedMs < 150)} (request).`,
  `- \`POST /v1/posts\` scheduled, 3 targets, 4 library images: ${f0(media.create.libraryMedia.requestsPerSecond)} requests/s (p99 ${media.create.libraryMedia.p99Ms} ms) against ${f0(media.create.urlMedia.requestsPerSecond)} with 4 URL media (p99 ${media.create.urlMedia.p99Ms} ms), ${f1(media.create.share * 100)} %; target at least 90 %: ${verdict(media.create.share >= 0.9)}.`,
  '',
  `## Mixed load (issue 6): ${loadFigures.clients} clients for ${loadFigures.seconds} s`,
  '',
  `${f0(loadFigures.requestsPerSecond)} requests/s overall; ${loadFigures.unexpected.count} answers other than the expected success or a 429; ${loadFigures.rateLimited} answers 429; ${f0(loadFigures.published)} posts published on the emulators; ${f0(loadFigures.webhooksReceived)} webhooks received.`,
  '',
  '| route | requests | p50 | p99 | unexpected |',
  '|---|---|---|---|---|',
  ...Object.entries(loadFigures.routes).map(([route, r]) => `| \`${route}\` | ${f0(r.requests)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.unexpected} |`),
  '',
  ...(loadFigures.unexpected.samples.length > 0 ? ['Unexpected answers (samples):', '', ...loadFigures.unexpected.samples.map((s) => `- ${s}`), ''] : []),
  `Memory every 5 s (resident MB / V8 heap in use MB): ${loadFigures.memory.map((m) => `${m.atSeconds}s ${m.rssMb}/${m.heapUsedMb}`).join(', ')}.`,
  '',
  '## Dashboard (issue 18)',
  '',
  ...('skipped' in calendar
    ? [`Not measured: ${calendar.skipped}.`]
    : [
        `A month of ${f0(calendar.posts)} posts in Debian's Chromium (headless), measured in the page from the answer's arrival to the posts laid out (\`calendar:render\`), ${calendar.runsMs.length} runs: ${calendar.runsMs.map((ms) => `${ms} ms`).join(', ')}.`,
        '',
        `- p50 ${calendar.p50Ms} ms, slowest ${calendar.maxMs} ms; target under 500 ms: ${verdict(calendar.maxMs < 500)}.`,
        `- JavaScript of the first page: ${f0(calendar.firstPageJsGzipBytes)} bytes gzipped; target at most 150 KB: ${verdict(calendar.firstPageJsGzipBytes <= 150 * 1024)}.`,
      ]),
  '',
];
writeFileSync(new URL('./RESULTS.md', import.meta.url), lines.join('\n'));
log('written bench/RESULTS.md');
console.log(lines.join('\n'));

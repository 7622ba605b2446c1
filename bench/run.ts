// npm run bench: every benchmark on both databases, each figure beside its baseline from the same run,
// written to bench/RESULTS.md. PostgreSQL is started by the benchmark as .ci/run starts it (or
// BENCH_DATABASE_URL names a server to use).
//   BENCH_SECONDS         duration of each API load (default 10)
//   BENCH_LOAD_SECONDS    duration of the mixed-load soak on each database (default 600)
//   BENCH_STORED_POSTS    posts stored for the list figures (default 1,000,000)
//   BENCH_ONLY            a comma-separated subset: api, mcp, fanout, bulk, due, throughput, scale, webhooks, media,
//                         dashboard, load
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { benchApi, type ApiFigures } from './api.ts';
import { benchBulk, type BulkFigures } from './bulk.ts';
import { benchCalendar } from './dashboard.ts';
import { load1, machine } from './lib.ts';
import { benchLoad, type LoadFigures } from './load.ts';
import { benchMcp } from './mcp.ts';
import { benchMedia } from './media.ts';
import { startPostgres } from './postgres.ts';
import { benchDue, benchFanOut, type DueFigures, type FanOutFigures } from './publishing.ts';
import { benchCrash, benchIdle, type CrashFigures, type IdleFigures } from './scale.ts';
import { benchWebhooks, type WebhookBenchResult } from './webhooks.ts';

const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const wanted = (step: string) => !only || only.has(step);
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => (Math.round(n * 10) / 10).toLocaleString('en-US');
const f2 = (n: number) => n.toFixed(2);
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
const errors: string[] = [];

function log(step: string) {
  process.stderr.write(`[bench] ${new Date().toISOString()} load ${load1()} ${step}\n`);
}

/** Runs one benchmark; a failure is reported in the results instead of ending the run. */
async function step<T>(name: string, run: () => Promise<T>): Promise<T | null> {
  log(name);
  try {
    return await run();
  } catch (err) {
    errors.push(`${name}: ${(err as Error).stack ?? String(err)}`);
    log(`${name} FAILED: ${(err as Error).message}`);
    return null;
  }
}

const postgres = await startPostgres();
const api: Partial<Record<'sqlite' | 'postgres', ApiFigures | null>> = {};
let fanOut: FanOutFigures | null = null;
let bulk: BulkFigures | null = null;
const due: DueFigures[] = [];
const throughput: DueFigures[] = [];
const ioBound: DueFigures[] = [];
let idle: IdleFigures | null = null;
let crash: CrashFigures | null = null;
const webhooks: WebhookBenchResult[] = [];
const loads: LoadFigures[] = [];
let mcp: Awaited<ReturnType<typeof benchMcp>> | null = null;
let media: Awaited<ReturnType<typeof benchMedia>> | null = null;
let calendar: Awaited<ReturnType<typeof benchCalendar>> | null = null;
const storedPosts = Number(process.env.BENCH_STORED_POSTS ?? 1_000_000);
try {
  if (wanted('api')) {
    api.sqlite = await step('API on SQLite: baseline, create, list', () => benchApi({ storedPosts }));
    api.postgres = await step('API on PostgreSQL: baseline, create, list', () => benchApi({ postgres, storedPosts }));
  }
  if (wanted('mcp')) mcp = await step('MCP list_posts against REST', () => benchMcp());
  if (wanted('fanout')) fanOut = await step('publishNow fan-out', () => benchFanOut());
  if (wanted('bulk')) bulk = await step('bulk import against single creates', () => benchBulk());
  if (wanted('due')) {
    const sqlite = await step('10,000 posts due in one minute, SQLite', () => benchDue({ targets: 10_000, spreadMs: 60_000, platformLatencyMs: 100 }));
    if (sqlite) due.push(sqlite);
    for (const workers of [1, 2, 4]) {
      const r = await step(`10,000 posts due in one minute, PostgreSQL, ${workers} worker(s)`, () => benchDue({ postgres, workers, targets: 10_000, spreadMs: 60_000, platformLatencyMs: 100 }));
      if (r) due.push(r);
    }
  }
  if (wanted('throughput')) {
    for (const workers of [1, 2, 4]) {
      const r = await step(`4,000 targets due at once, PostgreSQL, ${workers} worker(s)`, () => benchDue({ postgres, workers, targets: 4_000, spreadMs: 0, platformLatencyMs: 100 }));
      if (r) throughput.push(r);
    }
    // Workers that wait on platforms rather than on the machine: 8 attempts at once each.
    for (const workers of [1, 2, 4]) {
      const r = await step(`2,000 targets due at once, PostgreSQL, ${workers} worker(s) of 8 attempts`, () =>
        benchDue({ postgres, workers, targets: 2_000, spreadMs: 0, platformLatencyMs: 100, workerEnv: { HERALD_WORKER_CONCURRENCY: '8' } }),
      );
      if (r) ioBound.push(r);
    }
  }
  if (wanted('scale')) {
    idle = await step('idle processes', () => benchIdle(postgres));
    crash = await step('kill -9 of a worker and of an API process', () => benchCrash(postgres));
  }
  if (wanted('webhooks')) {
    const s = await step('webhooks, SQLite', () => benchWebhooks());
    if (s) webhooks.push(s);
    const p = await step('webhooks, PostgreSQL', async () => {
      const db = await postgres.createDatabase('herald_bench_webhooks');
      try {
        return await benchWebhooks({ databaseUrl: db.url });
      } finally {
        await db.drop();
      }
    });
    if (p) webhooks.push(p);
  }
  if (wanted('media')) media = await step('media library', () => benchMedia());
  if (wanted('dashboard')) calendar = await step('dashboard: a month of 1,000 posts in Chromium', () => benchCalendar());
  if (wanted('load')) {
    const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 600);
    const s = await step(`mixed load for ${seconds} s, SQLite`, () => benchLoad({ seconds }));
    if (s) loads.push(s);
    const p = await step(`mixed load for ${seconds} s, PostgreSQL, with kills`, () => benchLoad({ postgres, seconds }));
    if (p) loads.push(p);
  }
} finally {
  await postgres.stop();
}

const commit = (() => {
  try {
    return execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();

function apiSection(a: ApiFigures): string[] {
  const createTarget = a.database === 'sqlite' ? 0.6 : 0.5;
  const db = a.database === 'sqlite' ? 'SQLite (better-sqlite3, same file)' : 'PostgreSQL (pg pool of 10, same database)';
  return [
    `### ${a.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
    '',
    '| | requests/s | p50 | p99 | non-2xx | CPU per request (server process) | load average |',
    '|---|---|---|---|---|---|---|',
    `| baseline: bare Fastify + one INSERT, ${db} | ${f0(a.baseline.requestsPerSecond)} | ${a.baseline.p50Ms} ms | ${a.baseline.p99Ms} ms | ${a.baseline.non2xx} | ${a.baseline.cpuMsPerRequest} ms | ${a.baseline.load} |`,
    `| \`POST /v1/posts\` scheduled, 3 targets, Idempotency-Key, 16 connections | ${f0(a.create.requestsPerSecond)} | ${a.create.p50Ms} ms | ${a.create.p99Ms} ms | ${a.create.non2xx} | ${a.create.cpuMsPerRequest} ms | ${a.create.load} |`,
    `| \`GET /v1/posts?limit=20\` over ${f0(a.storedPosts)} posts, 8 connections | ${f0(a.list.connections8.requestsPerSecond)} | ${a.list.connections8.p50Ms} ms | ${a.list.connections8.p99Ms} ms | ${a.list.connections8.non2xx} | ${a.list.connections8.cpuMsPerRequest} ms | ${a.list.connections8.load} |`,
    `| \`GET /v1/posts?limit=20\` over ${f0(a.storedPosts)} posts, 16 connections | ${f0(a.list.connections16.requestsPerSecond)} | ${a.list.connections16.p50Ms} ms | ${a.list.connections16.p99Ms} ms | ${a.list.connections16.non2xx} | ${a.list.connections16.cpuMsPerRequest} ms | ${a.list.connections16.load} |`,
    '',
    `- Create at ${f1(a.createShareOfBaseline * 100)} % of the baseline's requests per second; target at least ${createTarget * 100} %: ${verdict(a.createShareOfBaseline >= createTarget)}. Its CPU per request is ${f2(a.createCpuRatio)}× the baseline's.`,
    `- List p99 ${a.list.connections8.p99Ms} ms at 8 connections over ${f0(a.storedPosts)} posts; target under 10 ms: ${verdict(a.list.connections8.p99Ms < 10)}.`,
    `- Seeding ${f0(a.storedPosts)} posts took ${f1(a.seedSeconds)} s (one statement per table).`,
    '',
  ];
}

function dueRow(d: DueFigures): string {
  const who = d.database === 'sqlite' ? 'SQLite, 1 process' : `PostgreSQL, ${d.workers} worker${d.workers > 1 ? 's' : ''} × ${d.concurrency}`;
  return `| ${who} | ${f0(d.targets)} | ${f1(d.targetsPerSecond)} | ${f1(d.drainSeconds)} s | ${f0(d.latenessP50Ms)} ms | ${f0(d.latenessP99Ms)} ms | ${f0(d.latenessMaxMs)} ms | ${f2(d.heraldCpuPer1000)} s | ${d.databaseCpuPer1000 === null ? '–' : `${f2(d.databaseCpuPer1000)} s`} | ${d.statementsPerTarget === null ? '–' : f1(d.statementsPerTarget)} | ${d.workerRssMb} MB | ${d.load.before} → ${d.load.after} |`;
}
const DUE_HEADER = [
  '| processes | targets | targets/s | last published after | lateness p50 | p99 | max | Herald CPU per 1,000 | PostgreSQL CPU per 1,000 | statements per target | worker RSS | load average |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];

const lines: string[] = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} at commit \`${commit}\`.`,
  `Machine: ${machine()}, shared with other work: the 1-minute load average is printed beside every figure.`,
  'Everything runs on loopback. Herald runs as `herald start` processes; PostgreSQL 15+ is started by the benchmark',
  '(fsync off, as in CI); the platform emulators run in a process of their own (as `herald sandbox` does); load comes',
  'from autocannon or fetch in the benchmark process. Figures that depend on a quiet machine (requests per second,',
  'latencies) sit beside ones that mostly do not (CPU time per request or per target, statements per target).',
  '',
];

if (api.sqlite || api.postgres) {
  lines.push('## API', '');
  if (api.sqlite) lines.push(...apiSection(api.sqlite));
  if (api.postgres) lines.push(...apiSection(api.postgres));
}

if (mcp) {
  lines.push(
    '## MCP',
    '',
    `One connection, one request at a time, ${f0(mcp.calls)} calls of each, interleaved (SQLite):`,
    '',
    '| | p50 | p99 |',
    '|---|---|---|',
    `| REST \`GET /v1/posts?limit=20\` (the baseline) | ${f2(mcp.rest.p50Ms)} ms | ${f2(mcp.rest.p99Ms)} ms |`,
    `| MCP \`tools/call list_posts {limit: 20}\` on \`POST /mcp\` | ${f2(mcp.mcp.p50Ms)} ms | ${f2(mcp.mcp.p99Ms)} ms |`,
    '',
    `- MCP costs ${f2(mcp.overheadMs)} ms more than the REST call it wraps (medians); target at most 2 ms: ${verdict(mcp.overheadMs <= 2)}.`,
    '',
  );
}

if (fanOut) {
  const f = fanOut;
  const sumCalls = Object.values(f.singleCalls).reduce((a, b) => a + b, 0);
  lines.push(
    `## publishNow fan-out to all ${f.platforms.length} platforms (SQLite)`,
    '',
    `One video (YouTube publishes nothing else), the emulators answering every call after 100 ms; each platform alone and then all at once, in 5 interleaved rounds, medians; TikTok one account per post (its cap of 6 a minute) (load ${f.load}):`,
    '',
    '| target(s) | response time | platform calls | Herald CPU |',
    '|---|---|---|---|',
    ...Object.entries(f.singleMs).map(([p, ms]) => `| ${p} alone | ${f0(ms)} ms | ${f.singleCalls[p]} | ${f0(f.singleCpuMs[p]!)} ms |`),
    `| all ${f.platforms.length} at once | ${f0(f.allMs)} ms (runs: ${f.allRunsMs.map(f0).join(', ')}) | ${f.allCalls} (${sumCalls} alone) | ${f0(f.allCpuMs)} ms |`,
    '',
    `- All ${f.platforms.length} take ${f.ratio.toFixed(3)}× the slowest single target (${f.slowest}); target at most 1.1×: ${verdict(f.ratio <= 1.1)}.`,
    '',
  );
}

if (bulk) {
  const b = bulk;
  const row = (what: string, k: BulkFigures['bulkJson']) => `| ${what} | ${f0(k.ms)} ms | ${k.roundsMs.map(f0).join(', ')} ms | ${f2(k.cpuMsPerPost)} ms |`;
  const jsonRatio = b.bulkJson.ms / b.singleSequential.ms;
  const csvRatio = b.bulkCsv.ms / b.singleSequential.ms;
  lines.push(
    `## Bulk import: ${f0(b.rows)} posts at once against ${f0(b.rows)} single creates (SQLite)`,
    '',
    `The same kind of post (scheduled, ${b.targetsPerPost} targets, Idempotency-Key on every request), ${b.rounds} rounds of each after one not counted, interleaved; median round (load ${b.load.before} → ${b.load.after}):`,
    '',
    `| ${f0(b.rows)} posts as | time | rounds | Herald CPU per post |`,
    '|---|---|---|---|',
    row(`${f0(b.rows)} \`POST /v1/posts\`, one client, one at a time`, b.singleSequential),
    row(`${f0(b.rows)} \`POST /v1/posts\`, ${b.concurrency} clients at once`, b.singleConcurrent),
    row('one `POST /v1/posts/bulk`, JSON', b.bulkJson),
    row('one `POST /v1/posts/bulk`, CSV', b.bulkCsv),
    '',
    `- Bulk JSON takes ${f2(jsonRatio)}× the time of the single creates one at a time (${f2(b.bulkJson.ms / b.singleConcurrent.ms)}× that of ${b.concurrency} clients); CSV ${f2(csvRatio)}× (${f2(b.bulkCsv.ms / b.singleConcurrent.ms)}×). Target "well under", read as at most 0.5× the single creates one at a time: ${verdict(Math.max(jsonRatio, csvRatio) <= 0.5)}.`,
    '',
  );
}

if (due.length > 0) {
  lines.push(
    '## 10,000 posts due in one minute',
    '',
    'One Facebook Page target each, due evenly over 60 s, the emulators answering every call after 100 ms. The posts are',
    'seeded first (one created through the API, cloned in the database far ahead) and then timed from the end of the',
    'seeding, so a slow machine cannot make them due before the run starts. Lateness is attempt start − scheduledFor.',
    '',
    ...DUE_HEADER,
    ...due.map(dueRow),
    '',
    ...due.filter((d) => d.database === 'postgres').map((d) => `- PostgreSQL, ${d.workers} worker(s): lateness p99 ${f0(d.latenessP99Ms)} ms; target under 1 s: ${verdict(d.latenessP99Ms < 1000)}.`),
    '',
  );
}

if (throughput.length > 0) {
  const one = throughput.find((t) => t.workers === 1);
  const two = throughput.find((t) => t.workers === 2);
  lines.push(
    '## Throughput: 4,000 targets due at the same moment (PostgreSQL)',
    '',
    'The emulators answer every call after 100 ms; targets per second from the due time to the last publish.',
    '',
    ...DUE_HEADER,
    ...throughput.map(dueRow),
    '',
    ...(one && two ? [`- 2 workers publish ${f2(two.targetsPerSecond / one.targetsPerSecond)}× what 1 does; target at least 1.7×: ${verdict(two.targetsPerSecond / one.targetsPerSecond >= 1.7)}.`, ''] : []),
  );
}

if (ioBound.length > 0) {
  const one = ioBound.find((t) => t.workers === 1);
  const two = ioBound.find((t) => t.workers === 2);
  lines.push(
    '## Throughput when workers wait on the platforms: 2,000 targets due at once, 8 attempts per worker (PostgreSQL)',
    '',
    'The same run with `HERALD_WORKER_CONCURRENCY=8`, so that each worker, not the machine, is what limits the pace:',
    'what adding a worker adds when the machine has room.',
    '',
    ...DUE_HEADER,
    ...ioBound.map(dueRow),
    '',
    ...(one && two ? [`- 2 workers publish ${f2(two.targetsPerSecond / one.targetsPerSecond)}× what 1 does.`, ''] : []),
  );
}

if (idle || crash) {
  lines.push('## Scale-out on PostgreSQL: idle, and kill -9', '');
  if (idle) {
    lines.push(
      `One API process and two workers with nothing to do, over ${idle.seconds} s (load ${idle.load}): ${idle.statementsPerSecond} statements per second in all; target under 5: ${verdict(idle.statementsPerSecond < 5)}.`,
      '',
      '| calls | statement |',
      '|---|---|',
      ...idle.top.map((t) => `| ${t.calls} | \`${t.query.replace(/\|/g, '\\|')}\` |`),
      '',
    );
  }
  if (crash) {
    lines.push(
      `Leases last ${crash.leaseMs / 1000} s and are renewed every third of that (load ${crash.load}).`,
      '',
      `- A worker killed with ${crash.worker.held} attempts in flight (calls taking 4 s): each was claimed again after ${f1(crash.worker.pickupP50Seconds)} s (p50), ${f1(crash.worker.pickupMaxSeconds)} s at most; target within 15 s: ${verdict(crash.worker.pickupMaxSeconds <= 15)}. ${crash.worker.published} posts published, ${crash.worker.duplicates} twice.`,
      `- An API process killed with ${crash.api.requests} publishNow requests in flight: replays of the same requests (same Idempotency-Key) to the other API process answered 409 until the dead claims' leases ran out, then 201 with the post the cut-off request had created: ${f1(crash.api.answeredP50Seconds)} s after the kill (p50), ${f1(crash.api.answeredMaxSeconds)} s at most; target within 15 s: ${verdict(crash.api.answeredMaxSeconds <= 15)}. ${crash.api.sameIds} of ${crash.api.requests} answers named the original post; ${crash.api.duplicates} posts twice.`,
      '',
    );
  }
}

if (webhooks.length > 0) {
  lines.push(
    '## Webhooks',
    '',
    '| database | events/s (2,000 at once) | delay p50 at 100/s | p99 |',
    '|---|---|---|---|',
    ...webhooks.map((w) => `| ${w.database} | ${f0(w.eventsPerSecond)} | ${w.p50DelayMs} ms | ${w.p99DelayMs} ms |`),
    '',
  );
}

if (media) {
  const m = media;
  lines.push(
    '## Media library (SQLite, disk store)',
    '',
    `- Upload of ${f0(m.upload.bytes / 2 ** 20)} MiB through \`POST /v1/media\` (HTTP, SHA-256, fsynced disk store, probe): ${f0(m.upload.uploadMBps)} MB/s against ${f0(m.upload.plainMBps)} MB/s for a plain \`fs.createWriteStream\` of the same chunks (${f0(m.upload.plainSyncMBps)} MB/s with fsync, which the store does before it commits), ${f1(m.upload.share * 100)} % (${f1(m.upload.shareSync * 100)} % of the fsynced write), best of 3 each, interleaved; target at least 50 %: ${verdict(m.upload.share >= 0.5)}. Herald's RSS ${f0(m.upload.rssBeforeMb)} MB before, ${f0(m.upload.rssPeakMb)} MB at most during the upload (+${f1(m.upload.rssRiseMb)} MB); target under 64 MB: ${verdict(m.upload.rssRiseMb < 64)}.`,
    `- A 12-megapixel JPEG (6000×2000) to its Instagram rendition (cropped to 1.91:1, 1440 px): sharp alone ${f0(m.rendition.sharpMs)} ms (${f0(m.rendition.sharpCpuMs)} ms CPU, one libvips thread); in the publishNow request that makes it, ${f0(m.rendition.addedMs)} ms more than the same request reusing the rendition (${f0(m.rendition.requestMs)} ms against ${f0(m.rendition.reusedRequestMs)} ms, medians, Instagram's status polls included in both); target under 150 ms: ${verdict(m.rendition.sharpMs < 150)} (sharp), ${verdict(m.rendition.addedMs < 150)} (request).`,
    `- \`POST /v1/posts\` scheduled, 3 targets, 4 library images: ${f0(m.create.libraryMedia.requestsPerSecond)} requests/s (p99 at most ${m.create.libraryMedia.p99Ms} ms, Herald CPU ${f0(m.create.libraryMedia.cpuUs)} µs per request) against ${f0(m.create.urlMedia.requestsPerSecond)} with 4 URL media (p99 at most ${m.create.urlMedia.p99Ms} ms, ${f0(m.create.urlMedia.cpuUs)} µs), ${f1(m.create.share * 100)} % (CPU per request ×${m.create.cpuRatio.toFixed(2)}), ${m.create.rounds} interleaved turns of ${m.create.seconds} s each, load ${m.create.load.before} → ${m.create.load.after}; target at least 90 %: ${verdict(m.create.share >= 0.9)}.`,
    '',
  );
}

if (calendar) {
  lines.push(
    '## Dashboard',
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
  );
}

for (const l of loads) {
  const growth = Object.entries(l.memoryGrowth).map(([n, g]) => `${n} ${f2(g)}×`).join(', ');
  const grown = Math.max(...Object.values(l.memoryGrowth));
  lines.push(
    `## Mixed load and soak on ${l.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${l.clients} clients for ${l.seconds} s`,
    '',
    `${l.processes}. ${f0(l.requestsPerSecond)} requests/s overall; ${l.unexpected.count} answers other than the expected ones; ${l.rateLimited} answers 429; ${f0(l.published)} posts published on the emulators; ${f0(l.webhooksReceived)} webhooks received. Load ${l.load.before} → ${l.load.after}.`,
    ...(l.kills.length > 0 ? ['', `Killed with SIGKILL and started again: ${l.kills.join(', ')}; ${l.resent} requests cut off by a kill were sent again to the other API process.`] : []),
    '',
    `End state: ${f0(l.check.created)} posts created, ${l.check.missing} missing; ${l.check.open} targets not final two minutes after the load (${l.check.waitingForCap} more waiting for a platform's cap, as promised); ${l.check.duplicates} posts made twice on a platform.`,
    '',
    '| route | requests | p50 | p99 | unexpected |',
    '|---|---|---|---|---|',
    ...Object.entries(l.routes).map(([route, r]) => `| \`${route}\` | ${f0(r.requests)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.unexpected} |`),
    '',
    ...(l.unexpected.samples.length > 0 ? ['Unexpected answers (samples):', '', ...l.unexpected.samples.map((s) => `- ${s.replace(/\n/g, ' ')}`), ''] : []),
    `Resident memory at the end over minute 2: ${growth}; target within 1.2×: ${verdict(grown <= 1.2)}.`,
    '',
    `Resident MB every 5 s: ${l.memory.map((m) => `${m.atSeconds}s ${Object.values(m.rssMb).join('/')}`).join(', ')}.`,
    '',
  );
}

if (errors.length > 0) lines.push('## Benchmarks that failed in this run', '', ...errors.map((e) => `\`\`\`\n${e}\n\`\`\``), '');

if (!only) {
  // The soak's section (npm run soak, bench/load.ts) is written by hand from its own run: kept as it is.
  const previous = existsSync(new URL('./RESULTS.md', import.meta.url)) ? readFileSync(new URL('./RESULTS.md', import.meta.url), 'utf8') : '';
  const soakAt = previous.indexOf('\n## Soak (issue 19)');
  if (soakAt >= 0) lines.push(previous.slice(soakAt + 1).split(/\n(?=## (?!Soak \(issue 19\)))/)[0]!.trimEnd(), '');
  writeFileSync(new URL('./RESULTS.md', import.meta.url), lines.join('\n'));
  log('written bench/RESULTS.md');
}
console.log(lines.join('\n'));

// Profiles the create path: a Herald process under --cpu-prof takes POST /v1/posts (scheduled, 3 targets,
// Idempotency-Key) from 16 connections for BENCH_SECONDS, and the profile is summarised (self time by area
// and by function). `node bench/profile-create.ts [postgres]`; the .cpuprofile stays in BENCH_PROFILE (or a
// temporary directory) for a flame graph (Chrome DevTools, speedscope).
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds, load, startCreateBench } from './lib.ts';
import { summarise } from './profile-summary.ts';
import { startPostgres } from './postgres.ts';

const dir = process.env.BENCH_PROFILE ?? mkdtempSync(join(tmpdir(), 'herald-profile-'));
process.env.BENCH_PROFILE = dir;
const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
const { herald, setup, stop } = await startCreateBench(postgres);
let requests = 0;
let cpu = 0;
try {
  const cpu0 = cpuSeconds(herald.child.pid!);
  const r = await load({ url: `${herald.url}/v1/posts`, duration: Number(process.env.BENCH_SECONDS ?? 10), requests: [{ method: 'POST', setupRequest: setup }] });
  cpu = cpuSeconds(herald.child.pid!) - cpu0;
  requests = r.requests;
  console.log(`${requests} creates, ${Math.round(r.requestsPerSecond)}/s, p99 ${r.p99Ms} ms, CPU ${((cpu / requests) * 1000).toFixed(3)} ms per request`);
} finally {
  await stop();
}
// CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: thread 0 is the main thread (the checkpointer is another).
const file = readdirSync(dir)
  .filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))
  .map((f) => join(dir, f))
  .sort()
  .at(-1)!;
const s = summarise(file, 30);
console.log(`profile ${file}: busy ${Math.round(s.totalMs)} ms (start-up included)`);
for (const a of s.byArea) console.log(`  ${String(a.share).padStart(5)} %  ${a.area}`);
console.log('');
for (const f of s.topSelf) console.log(`  ${String(f.share).padStart(5)} %  ${f.fn}`);
console.log('\ninclusive:');
for (const f of s.topInclusive) console.log(`  ${String(f.share).padStart(5)} %  ${f.fn}`);

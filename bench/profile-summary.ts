// Summarises a V8 CPU profile (.cpuprofile, from `node --cpu-prof`, which the benchmark's Herald processes
// write when BENCH_PROFILE names a directory): self time by function and by where the code lives, and
// inclusive time of chosen frames. Usage: node bench/profile-summary.ts FILE [--top N] [--grep NAME]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  byArea: { area: string; ms: number; share: number }[];
  topSelf: { fn: string; ms: number; share: number }[];
  /** Time with the function anywhere on the stack (a recursive function counted once per sample). */
  topInclusive: { fn: string; ms: number; share: number }[];
}

/** Where a frame's code lives: a package, a folder of src/, Node itself, or V8 (GC, idle, program). */
function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/(src\/[^/]+|bench|test)\//.exec(url);
  if (src) return src[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  return url;
}

export function summarise(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const nameOf = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const inclusive = new Map<string, number>();
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let total = 0;
  const area = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)') continue;
    total += us;
    const a = areaOf(n.callFrame.url, n.callFrame.functionName);
    area.set(a, (area.get(a) ?? 0) + us);
    const key = nameOf(n);
    fns.set(key, (fns.get(key) ?? 0) + us);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) onStack.add(nameOf(byId.get(at)!));
    for (const k of onStack) inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: total / 1000,
    byArea: sorted(area).slice(0, top).map(([a, us]) => ({ area: a, ms: Math.round(us / 1000), share: Math.round((us / total) * 1000) / 10 })),
    topSelf: sorted(fns).slice(0, top).map(([fn, us]) => ({ fn, ms: Math.round(us / 1000), share: Math.round((us / total) * 1000) / 10 })),
    topInclusive: sorted(inclusive)
      .filter(([fn]) => !fn.startsWith('(root)'))
      .slice(0, top)
      .map(([fn, us]) => ({ fn, ms: Math.round(us / 1000), share: Math.round((us / total) * 1000) / 10 })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2]!;
  const topIdx = process.argv.indexOf('--top');
  const s = summarise(file, topIdx > 0 ? Number(process.argv[topIdx + 1]) : 25);
  console.log(`busy ${Math.round(s.totalMs)} ms`);
  console.log('\nby area (self time):');
  for (const a of s.byArea) console.log(`  ${String(a.share).padStart(5)} %  ${String(a.ms).padStart(6)} ms  ${a.area}`);
  console.log('\nfunctions (self time):');
  for (const f of s.topSelf) console.log(`  ${String(f.share).padStart(5)} %  ${String(f.ms).padStart(6)} ms  ${f.fn}`);
  console.log('\nfunctions (inclusive time):');
  for (const f of s.topInclusive) console.log(`  ${String(f.share).padStart(5)} %  ${String(f.ms).padStart(6)} ms  ${f.fn}`);
}

import { readFileSync, readdirSync } from 'node:fs';
const [dir, reqs, ...names] = process.argv.slice(2);
const f = readdirSync(dir!).filter((n) => n.endsWith('.001.cpuprofile'))[0]!;
const p = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
const dt = (p.endTime - p.startTime) / p.samples.length / 1000;
const parent = new Map<number, number>(); const byId = new Map<number, any>();
for (const n of p.nodes) { byId.set(n.id, n); for (const c of n.children ?? []) parent.set(c, n.id); }
const tot = new Map<string, number>();
for (const s of p.samples) {
  const seen = new Set<string>();
  for (let id: number | undefined = s; id !== undefined; id = parent.get(id)) { const fn = byId.get(id).callFrame.functionName; if (names.includes(fn)) seen.add(fn); }
  for (const fn of seen) tot.set(fn, (tot.get(fn) ?? 0) + dt);
}
for (const n of names) console.log(`${n.padEnd(28)} ${(((tot.get(n) ?? 0) / Number(reqs)) * 1000).toFixed(2)} µs/request`);

// herald start: run the service until SIGTERM/SIGINT, then shut down gracefully.
import { setFlagsFromString } from 'node:v8';
import type { Config } from '../config.ts';
import { createRuntime, ensureFirstKey, type Role } from '../runtime.ts';

/** What an operator should change when the API cannot listen; null for other failures. */
export function listenProblem(err: unknown, config: Pick<Config, 'host' | 'port'>): string | null {
  const e = err as { code?: string; syscall?: string } | null;
  if (e?.syscall !== 'listen') return null;
  const where = `${config.host}:${config.port}`;
  switch (e.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is already in use by another process. Stop that process, or set PORT to a free port (or HOST to another address) and start again.`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: ${config.host} is not an address of this machine. Set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all) and start again.`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges). Set PORT to 1024 or above and start again.`;
    default:
      return `cannot listen on ${where} (${e.code ?? String(err)}). Check PORT and HOST.`;
  }
}

/**
 * How much V8 lets the old generation grow past what survived the last full GC before it collects again.
 * Left to itself V8 picks up to 4× on a machine with gigabytes of memory; under steady load Herald's old
 * generation then fills with garbage promoted from in-flight requests (60–70 MB live, peaks of 150–250 MB)
 * and the pages freed after each peak stay resident (V8 keeps them pooled for reuse, and gives them back only once the
 * process goes idle), so resident memory climbs in steps to the highest peak so far. 1.3× keeps the peaks
 * near the live size, at the cost of more frequent (mostly concurrent) full GCs: measured in
 * bench/RESULTS.md. Read by V8 at every GC, so setting it here, before the first request, applies to the
 * whole life of the process. `node --heap-growing-percent=N` on the command line takes precedence.
 */
export const HEAP_GROWING_PERCENT = 30;

export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => /^--heap[-_]growing[-_]percent/.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}

export async function startCommand(config: Config, role: Role): Promise<number> {
  limitHeapGrowth();
  const runtime = await createRuntime(config, { role });
  let first;
  try {
    await runtime.start();
    // Only once Herald listens: a key created by a start that then failed would never be shown, and
    // the next start would not make another (the database is no longer empty).
    first = role === 'worker' ? null : await ensureFirstKey(runtime.db, runtime.keys);
  } catch (err) {
    await runtime.stop().catch(() => {});
    const problem = listenProblem(err, config);
    if (problem) {
      console.error(`herald: ${problem}`);
      return 1;
    }
    throw err;
  }
  if (first) {
    console.log(
      `\nFirst start: created API key ${first.id}. It is shown only this once; keep it somewhere safe:\n\n  ${first.key}\n\n` +
        `Try it:  curl -H "Authorization: Bearer ${first.key}" ${runtime.publicUrl()}/v1/posts\n`,
    );
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    runtime.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        runtime.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return -1; // keeps running
}

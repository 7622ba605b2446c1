// herald start: run the service until SIGTERM/SIGINT, then shut down gracefully.
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

export async function startCommand(config: Config, role: Role): Promise<number> {
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

// herald start: run the service until SIGTERM/SIGINT, then shut down gracefully.
import type { Config } from '../config.ts';
import { createRuntime, ensureFirstKey, type Role } from '../runtime.ts';

export async function startCommand(config: Config, role: Role): Promise<number> {
  const runtime = await createRuntime(config, { role });
  let first;
  try {
    first = role === 'worker' ? null : await ensureFirstKey(runtime.db, runtime.keys);
    await runtime.start();
  } catch (err) {
    await runtime.stop().catch(() => {});
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

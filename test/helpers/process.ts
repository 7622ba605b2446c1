// Real `herald start` processes, as an operator runs them, for tests that kill them (SIGKILL: no
// graceful stop, nothing flushed) and start Herald again on the same database.
import { spawn, type ChildProcess } from 'node:child_process';
import type { TestDatabase } from './herald.ts';

export const HERALD_MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

export interface HeraldProcess {
  child: ChildProcess;
  /** Where its API listens (from its "Herald is running" log line). */
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL, resolved once it is gone. */
  kill(): Promise<void>;
}

/** The environment of a Herald process on `database`: this process's own, the database, then `extra`. */
export function processEnv(database: TestDatabase, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    HERALD_DATA_DIR: database.dataDir,
    HERALD_ENCRYPTION_KEY: database.encryptionKey,
    LOG_LEVEL: 'info',
    PORT: '0',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...extra,
  };
}

/** Starts `herald start --role <role>` and resolves once it is running (LOG_LEVEL must be info or lower). */
export function startHeraldProcess(env: Record<string, string>, role: 'all' | 'api' | 'worker' = 'all'): Promise<HeraldProcess> {
  const child = spawn(process.execPath, [HERALD_MAIN, 'start', '--role', role], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`${role} did not start:\n${log}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"Herald is running"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, output: () => log, kill });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!/Herald is running/.test(log)) reject(new Error(`${role} exited with ${code}:\n${log}`));
    });
  });
}

// Real Herald processes (`herald start --role <role>`) for crash tests, and SIGKILL for them: the way a
// machine dies, with no shutdown hook, no drain and no lease released.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import type { EmulatorServer } from '../../src/sandbox/server.ts';
import { emulatorEnv, type TestDatabase } from './herald.ts';

export const HERALD_MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

export interface HeraldProcess {
  child: ChildProcess;
  /** Where its HTTP server listens (a worker serves only health, metrics and docs). */
  url: string;
}

/** The environment of a Herald process on a test database, with every platform pointed at `server`. */
export function processEnv(database: TestDatabase, server: EmulatorServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    ...emulatorEnv(server),
    HERALD_DATA_DIR: database.dataDir,
    HERALD_ENCRYPTION_KEY: database.encryptionKey,
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'info',
    PORT: '0',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...extra,
  };
}

/** `herald keys create --json` in that environment; returns the new API key. */
export function createKeyWithCli(env: Record<string, string>, name = 'test'): string {
  const created = spawnSync(process.execPath, [HERALD_MAIN, 'keys', 'create', '--name', name, '--json'], { env, encoding: 'utf8' });
  assert.equal(created.status, 0, created.stderr);
  return JSON.parse(created.stdout).key;
}

/** Starts `herald start --role <role>` and resolves once it logs that it is running. */
export function startHeraldProcess(role: 'all' | 'api' | 'worker', env: Record<string, string>): Promise<HeraldProcess> {
  const child = spawn(process.execPath, [HERALD_MAIN, 'start', '--role', role], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${role} did not start:\n${log}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      log += d.toString();
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"Herald is running"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
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

/** SIGKILL, resolved once the process is gone. */
export function killProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

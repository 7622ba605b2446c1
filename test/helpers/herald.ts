// Starts a real Herald (the same runtime `herald start` builds) on 127.0.0.1 with a random port, on a
// fresh SQLite file, or on a fresh PostgreSQL database when DATABASE_URL is set (CI runs both).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import type { Clock } from '../../src/lib/clock.ts';
import type { PublishTiming } from '../../src/platforms/deps.ts';
import type { RetryPolicy } from '../../src/publishing/policy.ts';
import { createRuntime, type Role, type Runtime } from '../../src/runtime.ts';
import { sandboxEnv } from '../../src/sandbox/index.ts';
import type { EmulatorServer } from '../../src/sandbox/server.ts';

export const usingPostgres = Boolean(process.env.DATABASE_URL);

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestHerald {
  runtime: Runtime;
  url: string;
  /** A fresh API key created for the test. */
  key: string;
  keyId: string;
  request<T = any>(method: string, path: string, options?: { body?: unknown; key?: string | null; headers?: Record<string, string>; raw?: string }): Promise<HttpResult<T>>;
  newKey(name?: string): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

export interface StartOptions {
  role?: Role;
  /** Platform emulators to point every platform at (instead of the built-in sandbox). */
  emulators?: EmulatorServer;
  env?: Record<string, string>;
  clock?: Clock;
  retryPolicy?: RetryPolicy;
  leaseMs?: number;
  timing?: PublishTiming;
  sweepIntervalMs?: number;
  /** Reuse a database (restart tests); by default each Herald gets its own. */
  database?: TestDatabase;
  /** Where Herald's logs go (the runtime's own logger, redaction included); default nowhere. */
  logTo?: { level: string; write(line: string): void };
  /** How long webhook receivers have to answer (default 10 s). */
  webhookTimeoutMs?: number;
}

export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | null;
  encryptionKey: string;
  drop(): Promise<void>;
}

/** A fresh, empty database (SQLite directory or PostgreSQL database). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-test-'));
  const encryptionKey = randomBytes(32).toString('base64');
  const base = process.env.DATABASE_URL;
  if (!base) {
    return { dataDir, databaseUrl: null, encryptionKey, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `herald_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    encryptionKey,
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** HERALD_* settings pointing every platform at emulators served by `server`. */
export function emulatorEnv(server: EmulatorServer): Record<string, string> {
  return sandboxEnv(server.url);
}

export const FAST_RETRY: RetryPolicy = { delaysMs: [100, 200, 300], maxAttempts: 4, reconcileDelaysMs: [100, 200, 300], maxWaitMs: 60_000 };

export async function startHerald(options: StartOptions = {}): Promise<TestHerald> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase());
  const env: Record<string, string> = {
    PORT: '0',
    HOST: '127.0.0.1',
    HERALD_DATA_DIR: database.dataDir,
    HERALD_ENCRYPTION_KEY: database.encryptionKey,
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_PLATFORM_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'silent',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...(options.emulators ? emulatorEnv(options.emulators) : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const log = options.logTo
    ? createLogger({ level: options.logTo.level, destination: { write: (line: string) => options.logTo!.write(line) } })
    : pino({ level: process.env.HERALD_TEST_LOG ?? 'silent' });
  const runtime = await createRuntime(config, {
    role: options.role ?? 'all',
    log,
    clock: options.clock,
    retryPolicy: options.retryPolicy ?? FAST_RETRY,
    leaseMs: options.leaseMs ?? 5_000,
    timing: options.timing ?? { pollIntervalMs: 20, maxProcessingMs: 3_000 },
    sweepIntervalMs: options.sweepIntervalMs ?? 500,
    queuePollMs: 50,
    webhookTimeoutMs: options.webhookTimeoutMs,
  });
  await runtime.start();
  const url = runtime.url();
  const created = await runtime.keys.create('test');

  async function request(method: string, path: string, opts: { body?: unknown; key?: string | null; headers?: Record<string, string>; raw?: string } = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? created.key : opts.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  }

  return {
    runtime,
    url,
    key: created.key,
    keyId: created.id,
    request,
    async newKey(name = 'other') {
      const k = await runtime.keys.create(name);
      return { key: k.key, id: k.id };
    },
    async close() {
      await runtime.stop();
      if (ownDatabase) await database.drop();
    },
  };
}

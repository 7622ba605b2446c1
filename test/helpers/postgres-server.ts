// A PostgreSQL server of the test's own, so that a test can stop and start it (a restart mid-flight)
// without touching the server DATABASE_URL names, which other tests share. Started as CI starts one: the
// newest server binaries under /usr/lib/postgresql (or PG_BIN), a fresh data directory, loopback only,
// fsync off, run as `postgres` when the tests run as root. The port stays the same across restarts, as a
// production server's does.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestDatabase } from './herald.ts';

export interface PostgresServer {
  url: string;
  /** A fresh database on this server, in the shape startHerald takes. */
  createDatabase(): Promise<TestDatabase>;
  /** Stops the server: `immediate` cuts every connection at once, as a crash or a failover does. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  close(): Promise<void>;
}

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(a) - Number(b));
  if (versions.length === 0) throw new Error('no PostgreSQL under /usr/lib/postgresql (set PG_BIN)');
  return join(root, versions.at(-1)!, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `settings` are server settings beside the defaults (or instead of them): the bench loads pg_stat_statements. */
export async function startPostgresServer(options: { settings?: Record<string, string>; prefix?: string } = {}): Promise<PostgresServer> {
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), options.prefix ?? 'herald-test-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  const run = (cmd: string, args: string[]) => {
    const r = asRoot
      ? spawnSync('su', ['postgres', '-s', '/bin/sh', '-c', [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')], { encoding: 'utf8' })
      : spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}${r.stdout}`);
  };
  const port = await freePort();
  const data = join(dir, 'data');
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust']);
  const settings = { listen_addresses: '127.0.0.1', max_connections: '200', fsync: 'off', ...options.settings };
  const serverOptions = [`-p ${port} -k ${dir}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
  const start = () => run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-o', serverOptions, 'start']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = true;
  return {
    url,
    async createDatabase() {
      const name = `herald_t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const dataDir = mkdtempSync(join(tmpdir(), 'herald-test-'));
      return { dataDir, databaseUrl: `postgres://postgres@127.0.0.1:${port}/${name}`, encryptionKey: randomBytes(32).toString('base64'), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
    },
    stop(mode = 'immediate') {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    async close() {
      try {
        if (running) run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

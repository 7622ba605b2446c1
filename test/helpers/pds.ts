// The real Bluesky PDS (@atproto/pds) with its own PLC directory (@did-plc/server), on 127.0.0.1, for tests of
// what Herald's Bluesky adapter sends and gets back. docs/internal/bluesky-pds.md records what it answers.
//
// One PDS per test file that asks for one, in a child process (test/helpers/pds-server.ts):
//   - a child because the PDS brings ~500 packages, OpenTelemetry hooks and a SQLite database of its own
//     that should not share a process with the code under test, and a crash or a hang in it must fail the
//     test that used it, not take the test runner down;
//   - per file because node:test runs every file in its own process, so nothing started in one file outlives
//     it unless it is left running for the others; a PDS shared by all files would need a lock, a reference
//     count and a reaper for files that die, to save ~1.5 s of start per file (docs/internal/bluesky-pds.md).
// Within a file, `usePds()` starts one in `before` and stops it in `after`; tests make the accounts they need.
//
// Nothing waits on a clock: start resolves when the child reports its ports and `/xrpc/_health` answers 200,
// or rejects as soon as the child exits.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before } from 'node:test';
import { fetch } from 'undici';
import type { PdsReadyMessage, PdsServerOptions } from './pds-server.ts';

const SERVER = new URL('./pds-server.ts', import.meta.url).pathname;

/** @atproto/pds's default for PDS_BLOB_UPLOAD_LIMIT (its config: `5 * 1024 * 1024`). */
export const PDS_DEFAULT_BLOB_UPLOAD_LIMIT = 5 * 1024 * 1024;

export interface PdsOptions {
  /** Bytes `com.atproto.repo.uploadBlob` accepts (above: 413 PayloadTooLarge). Default: the PDS's own,
   *  5 MiB (5,242,880). Not the 2,000,000 of an image in a post: that is the lexicon's, checked on the record. */
  blobUploadLimit?: number;
  /** Suffix of the handles the PDS hands out. Default `.test`. */
  handleDomain?: string;
}

export interface PdsAccount {
  did: string;
  handle: string;
  email: string;
  /** The account's main password (an app password is what Herald stores; see createAppPassword). */
  password: string;
  accessJwt: string;
  refreshJwt: string;
}

export interface PdsAppPassword {
  name: string;
  password: string;
  privileged: boolean;
}

export interface TestPds {
  /** Where to send requests: http://127.0.0.1:<port>. */
  url: string;
  /** The URL the PDS believes it has (http://localhost:<port>); its service DID is did:web:localhost. */
  publicUrl: string;
  plcUrl: string;
  handleDomain: string;
  blobUploadLimit: number;
  /** For `Basic admin:<password>` on com.atproto.admin.* calls. */
  adminPassword: string;
  pid: number;
  /** Its SQLite databases and blobs; removed by stop(). */
  dataDir: string;
  /** Milliseconds from fork to `/xrpc/_health` answering 200. */
  startMs: number;
  /** A new account (no invite needed): handle `<random><handleDomain>` unless given. */
  createAccount(options?: { handle?: string; password?: string; email?: string }): Promise<PdsAccount>;
  /** `com.atproto.server.createAppPassword` for the account, with its main session. */
  createAppPassword(account: PdsAccount, options?: { name?: string; privileged?: boolean }): Promise<PdsAppPassword>;
  /** Resident memory of the PDS process now and at its peak, from /proc (Linux). */
  memory(): { rssBytes: number; peakRssBytes: number };
  /** What the PDS process printed (its log is off unless LOG_ENABLED=true is in the environment). */
  output(): string;
  /** Stops the PDS and the PLC and removes their data directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts a PLC directory and a PDS in a child process; resolves once the PDS's `/xrpc/_health` answers 200. */
export async function startPds(options: PdsOptions = {}): Promise<TestPds> {
  const serverOptions: PdsServerOptions = {
    blobUploadLimit: options.blobUploadLimit ?? PDS_DEFAULT_BLOB_UPLOAD_LIMIT,
    handleDomain: options.handleDomain ?? '.test',
  };
  const started = performance.now();
  const child: ChildProcess = fork(SERVER, [], {
    execArgv: [], // not the test runner's flags
    env: { ...process.env, HERALD_PDS_OPTIONS: JSON.stringify(serverOptions) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let log = '';
  const keep = (d: Buffer) => {
    log = (log + d.toString()).slice(-64 * 1024);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(`the PDS process exited (${signal ?? code}):\n${log}`)),
  );

  const ready = await Promise.race([
    new Promise<PdsReadyMessage>((resolve) => child.once('message', (m) => resolve(m as PdsReadyMessage))),
    exited.then((why) => Promise.reject(new Error(why))),
  ]);
  let gone: string | undefined;
  void exited.then((why) => (gone = why));
  for (;;) {
    if (gone) throw new Error(gone);
    const healthy = await fetch(`${ready.pdsUrl}/xrpc/_health`).then(
      async (r) => (await r.arrayBuffer(), r.status === 200),
      () => false,
    );
    if (healthy) break;
    await sleep(50);
  }
  const startMs = performance.now() - started;
  // From here the test file's own work keeps its process alive; the child must not, and it stops by
  // itself when the IPC channel closes with this process.
  child.unref();
  child.channel?.unref();
  (child.stdout as unknown as { unref(): void }).unref();
  (child.stderr as unknown as { unref(): void }).unref();

  let stopping: Promise<void> | undefined;
  const xrpc = async <T>(method: string, body: unknown, token?: string): Promise<T> => {
    const res = await fetch(`${ready.pdsUrl}/xrpc/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  return {
    url: ready.pdsUrl,
    publicUrl: ready.publicUrl,
    plcUrl: ready.plcUrl,
    handleDomain: serverOptions.handleDomain,
    blobUploadLimit: serverOptions.blobUploadLimit,
    adminPassword: ready.adminPassword,
    pid: child.pid!,
    dataDir: ready.dataDir,
    startMs,
    async createAccount({ handle, password, email } = {}) {
      const name = `u${randomBytes(5).toString('hex')}`; // the part before the domain: 3 to 18 characters
      const account = {
        handle: handle ?? `${name}${serverOptions.handleDomain}`,
        password: password ?? randomBytes(12).toString('hex'),
        email: email ?? `${name}@example.com`,
      };
      const made = await xrpc<{ did: string; handle: string; accessJwt: string; refreshJwt: string }>(
        'com.atproto.server.createAccount',
        account,
      );
      return { ...account, did: made.did, handle: made.handle, accessJwt: made.accessJwt, refreshJwt: made.refreshJwt };
    },
    async createAppPassword(account, { name, privileged = false } = {}) {
      return xrpc<PdsAppPassword>(
        'com.atproto.server.createAppPassword',
        { name: name ?? `herald-${randomBytes(4).toString('hex')}`, privileged },
        account.accessJwt,
      );
    },
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssBytes: kb('VmRSS') * 1024, peakRssBytes: kb('VmHWM') * 1024 };
    },
    output: () => log,
    stop() {
      return (stopping ??= (async () => {
        if (!gone) {
          child.send({ type: 'stop' }, () => {}); // it removes its data directory, then exits
          // A PDS that does not finish stopping must not hold the test file open: kill it.
          const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(killer);
        }
        await rm(ready.dataDir, { recursive: true, force: true }); // already gone unless it was killed
      })());
    },
  };
}

/** What usePds() returns: the PDS, inside tests; `ready` for the file's own `before` hooks. */
export interface UsedPds {
  (): TestPds;
  /** Resolves once the PDS is up. A file's other top-level `before` hooks must await it: node:test (22) starts
   *  top-level hooks as they are registered, side by side, not one after the other. */
  ready: Promise<TestPds>;
}

/** One PDS for the calling test file: started in `before`, stopped in `after`. */
export function usePds(options: PdsOptions = {}): UsedPds {
  let pds: TestPds | undefined;
  let settle!: { resolve: (p: TestPds) => void; reject: (e: unknown) => void };
  const ready = new Promise<TestPds>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => {}); // the failing `before` reports it
  before(async () => {
    try {
      pds = await startPds(options);
      settle.resolve(pds);
    } catch (err) {
      settle.reject(err);
      throw err;
    }
  });
  after(async () => {
    await pds?.stop();
  });
  const get = () => {
    if (!pds) throw new Error('usePds(): the PDS is not started yet (use it inside a test, or await .ready)');
    return pds;
  };
  return Object.assign(get, { ready });
}

/**
 * The id (`jti`) of a session token. An old refresh token used again within the grace period answers the
 * same pair, but the real PDS signs it again with the time of that call, so the two strings differ when
 * the calls fall in different seconds; the id is what stays the same.
 */
export function tokenId(jwt: string | undefined): unknown {
  const payload = jwt?.split('.')[1];
  return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { jti?: unknown }).jti : undefined;
}

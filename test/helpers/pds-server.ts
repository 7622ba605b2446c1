// The child process behind test/helpers/pds.ts: a real PLC directory (@did-plc/server, in memory) and a real
// Bluesky PDS (@atproto/pds, SQLite and blobs in a temporary directory), both on 127.0.0.1. It tells its parent
// where they listen over the IPC channel and stops (removing its directory) when the parent says `stop`,
// disconnects or dies, so a crashed test file leaves no PDS behind.
//
// Run only through `fork` from pds.ts: it needs the IPC channel.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDS } from '@atproto/pds';
import { Database as PlcDatabase, PlcServer } from '@did-plc/server';

/** What the parent sends in `HERALD_PDS_OPTIONS` (JSON). */
export interface PdsServerOptions {
  blobUploadLimit: number;
  handleDomain: string;
}

/** The one message the child sends once both servers listen. */
export interface PdsReadyMessage {
  type: 'ready';
  /** Where to send requests: http://127.0.0.1:<port>. */
  pdsUrl: string;
  /** The URL the PDS believes it has (http://localhost:<port>), as in its DID document and tokens. */
  publicUrl: string;
  plcUrl: string;
  adminPassword: string;
  dataDir: string;
}

/** Express's `app.listen(port)` binds every interface; both servers here bind loopback only. */
function listenOnLoopback(app: { listen: (...args: any[]) => unknown }): void {
  const listen = app.listen.bind(app);
  app.listen = (port: number, ...rest: unknown[]) => listen(port, '127.0.0.1', ...rest);
}

/** A port free on 127.0.0.1 right now (the PDS must know its port before it starts: it is in its public URL). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe: Server = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh secp256k1 private key as 64 hex digits: the PDS's PLC rotation key. */
function k256PrivateKeyHex(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const d = privateKey.export({ format: 'jwk' }).d!;
  return Buffer.from(d, 'base64url').toString('hex').padStart(64, '0');
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('pds-server.ts must be started with fork() (it reports over IPC)');
  const options = JSON.parse(process.env.HERALD_PDS_OPTIONS ?? '{}') as PdsServerOptions;
  const dataDir = await mkdtemp(join(tmpdir(), 'herald-pds-'));
  const blobDir = join(dataDir, 'blobs');
  await mkdir(blobDir);

  let plc: PlcServer | undefined;
  let pds: PDS | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      await pds?.destroy().catch(() => {});
      await plc?.destroy().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
      process.exit(code);
    })());
  process.on('disconnect', () => void stop(0));
  process.on('message', (m: { type?: string }) => m?.type === 'stop' && void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));

  try {
    plc = PlcServer.create({ db: PlcDatabase.mock(), port: 0 });
    listenOnLoopback(plc.app);
    const plcHttp = await plc.start();
    const plcUrl = `http://127.0.0.1:${(plcHttp.address() as { port: number }).port}`;

    const adminPassword = randomBytes(16).toString('hex');
    // A port taken between freePort() and listen (another process on a loaded machine) fails the start with
    // EADDRINUSE: try again on a new port, a PDS built anew.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      pds = await PDS.fromEnv({
        port,
        hostname: 'localhost', // public URL http://localhost:<port>, service DID did:web:localhost
        devMode: true,
        version: 'herald-test',
        dataDirectory: dataDir,
        blobstoreDiskLocation: blobDir,
        didPlcUrl: plcUrl,
        serviceHandleDomains: [options.handleDomain],
        inviteRequired: false,
        rateLimitsEnabled: false,
        blobUploadLimit: options.blobUploadLimit,
        jwtSecret: randomBytes(16).toString('hex'),
        adminPassword,
        plcRotationKeyK256PrivateKeyHex: k256PrivateKeyHex(),
      });
      listenOnLoopback(pds.app);
      try {
        await pds.start();
      } catch (err) {
        await pds.destroy().catch(() => {});
        pds = undefined;
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
        throw err;
      }
      const ready: PdsReadyMessage = {
        type: 'ready',
        pdsUrl: `http://127.0.0.1:${port}`,
        publicUrl: `http://localhost:${port}`,
        plcUrl,
        adminPassword,
        dataDir,
      };
      process.send(ready);
      return;
    }
  } catch (err) {
    console.error(err);
    await stop(1);
  }
}

await main();

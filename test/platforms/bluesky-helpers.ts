// Shared by the Bluesky tests: small real media files, a file server for them on 127.0.0.1, XRPC calls
// over raw HTTP, adapter dependencies for a PDS, and the accounts the tests sign in with.
import { createServer, type Server } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';
import { createBlueskyAdapter } from '../../src/platforms/bluesky/adapter.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type { AccountCredentials, Checkpoint, PlatformAdapter, PublishRequest } from '../../src/platforms/types.ts';
import { adapterDeps } from '../helpers/platform.ts';

export const POST = 'app.bsky.feed.post';

/** A valid PNG of `width`×`height` pixels; `size` pads it to exactly that many bytes (a tEXt chunk). */
export function png(size?: number, width = 4, height = 3): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(crc32(typed), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const head = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(height * (1 + width * 3))))]);
  const end = chunk('IEND', Buffer.alloc(0));
  if (size === undefined) return Buffer.concat([head, end]);
  const pad = size - head.length - end.length - 12 - 'pad\0'.length;
  if (pad < 0) throw new Error(`a PNG cannot be ${size} bytes`);
  return Buffer.concat([head, chunk('tEXt', Buffer.concat([Buffer.from('pad\0'), Buffer.alloc(pad, 0x61)])), end]);
}

/** An MP4 the PDS sniffs as video/mp4: ftyp, then a moov with one track header of `width`×`height`, then padding. */
export function mp4(size = 4096, width = 1280, height = 720): Buffer {
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + body.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, body]);
  };
  const tkhd = Buffer.alloc(84); // version 0: flags, times, track id, duration, layers, matrix, then width and height
  tkhd.writeUInt32BE(width * 65536, 76);
  tkhd.writeUInt32BE(height * 65536, 80);
  const file = Buffer.concat([box('ftyp', Buffer.from('mp42\0\0\0\0isommp42', 'latin1')), box('moov', box('trak', box('tkhd', tkhd)))]);
  return Buffer.concat([file, Buffer.alloc(Math.max(0, size - file.length))]);
}

export interface FileServer {
  url: string;
  /** Serves `body` at `path` (with a query string ignored). */
  put(path: string, body: Buffer | string, contentType: string): string;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, { body: Buffer; contentType: string }>();
  const server: Server = createServer((req, res) => {
    const file = files.get((req.url ?? '').split('?')[0]!);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.body.length) }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    put(path, body, contentType) {
      files.set(path, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), contentType });
      return `${url}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** Raw XRPC against a PDS (real or emulated). */
export function xrpcClient(base: () => string) {
  const answer = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body, text, headers: res.headers };
  };
  return {
    call: async (nsid: string, body?: unknown, token?: string, contentType = 'application/json'): Promise<Answer> =>
      answer(
        await fetch(`${base()}/xrpc/${nsid}`, {
          method: 'POST',
          headers: { ...(body === undefined ? {} : { 'content-type': contentType }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        }),
      ),
    query: async (nsid: string, params: Record<string, string>, token?: string, method = 'GET'): Promise<Answer> =>
      answer(await fetch(`${base()}/xrpc/${nsid}?${new URLSearchParams(params)}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} })),
    upload: async (bytes: Uint8Array, contentType: string | undefined, token: string): Promise<Answer> =>
      answer(
        await fetch(`${base()}/xrpc/com.atproto.repo.uploadBlob`, {
          method: 'POST',
          headers: { ...(contentType ? { 'content-type': contentType } : {}), authorization: `Bearer ${token}` },
          body: bytes as Uint8Array<ArrayBuffer>,
        }),
      ),
  };
}

/** A JWT's header and claims, unverified. */
export function jwt(token: string): { header: any; claims: any } {
  const [header, claims] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part!, 'base64url').toString()));
  return { header, claims };
}

/** Adapter dependencies for a PDS at `serverUrl` (every call goes through serverHttp). */
export function blueskyDeps(serverUrl: string, overrides: Partial<AdapterDeps> = {}): AdapterDeps {
  return adapterDeps({ apiUrl: serverUrl, authUrl: '' }, overrides);
}

export function connectedCredentials(account: { accountId: string; username: string; grant: { accessToken: string; refreshToken?: string; expiresAt: number | null; scopes: string[] }; meta: Record<string, unknown> }): AccountCredentials {
  return {
    accountId: account.accountId,
    username: account.username,
    accessToken: account.grant.accessToken,
    refreshToken: account.grant.refreshToken ?? null,
    expiresAt: account.grant.expiresAt,
    scopes: account.grant.scopes,
    meta: account.meta,
  };
}

/** Signs in through the adapter and returns the credentials Herald would store. */
export async function signIn(adapter: PlatformAdapter, input: { identifier: string; password: string; serverUrl: string }): Promise<AccountCredentials> {
  const connected = await adapter.connectWithPassword!(input);
  if (!connected.ok) throw new Error(`sign-in failed: ${connected.message}`);
  return connectedCredentials(connected.accounts[0]!);
}

/** A publish request whose checkpoint lives in the returned holder, as the engine keeps it. */
export function publishRequest(
  account: AccountCredentials,
  content: string,
  options: { media?: PublishRequest['media']; settings?: Record<string, unknown>; checkpoint?: Checkpoint | null } = {},
): PublishRequest & { saved: Checkpoint[] } {
  const saved: Checkpoint[] = [];
  const request: PublishRequest & { saved: Checkpoint[] } = {
    account,
    content,
    media: options.media ?? [],
    settings: options.settings ?? {},
    checkpoint: options.checkpoint ?? null,
    saved,
    async saveCheckpoint(cp) {
      saved.push(cp);
      request.checkpoint = cp;
    },
    attemptStartedAt: Date.now(),
  };
  return request;
}

export { createBlueskyAdapter };

// Shared set-up for the Pinterest adapter and emulator tests: an emulator on 127.0.0.1 (image URLs on
// loopback allowed, since the sample media lives there), an adapter pointed at it, and helpers to
// connect sandbox users and build publish requests.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createPinterestAdapter, type PinterestAdapterOptions } from '../../src/platforms/pinterest/adapter.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type { AccountCredentials, ConnectedAccount, MediaItem, PlatformAdapter } from '../../src/platforms/types.ts';
import { createPinterestEmulator, type PinterestEmulator } from '../../src/sandbox/pinterest/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent, credentialsOf, retryRequest, testPublishRequest, type TestRequest } from '../helpers/platform.ts';

export const REDIRECT = 'https://herald.example/v1/connect/pinterest/callback';

export interface Harness {
  server: EmulatorServer;
  emu: PinterestEmulator;
  root: string;
  deps: AdapterDeps;
  adapter: PlatformAdapter;
  adapterWith(deps: Partial<AdapterDeps>, options?: PinterestAdapterOptions): PlatformAdapter;
  close(): Promise<void>;
}

export async function startHarness(options: PinterestAdapterOptions = { video: { uploadTimeoutMs: 800 } }): Promise<Harness> {
  const emu = createPinterestEmulator({ processingMs: 30, allowPrivateImageUrls: true });
  const server = await startEmulatorServer([emu]);
  const root = server.rootOf('pinterest');
  const base = adapterDeps({ apiUrl: root, authUrl: `${root}/oauth/` }, { http: createPlatformHttp({ timeoutMs: 800 }) });
  const adapterWith = (deps: Partial<AdapterDeps>, extra: PinterestAdapterOptions = {}) => createPinterestAdapter({ ...base, ...deps }, { ...options, ...extra });
  return { server, emu, root, deps: base, adapter: adapterWith({}), adapterWith, close: () => server.close() };
}

export const credentials = credentialsOf;

export interface Connected {
  account: ConnectedAccount;
  creds: AccountCredentials;
  /** The user's first public board. */
  boardId: string;
}

export async function connectAccount(h: Pick<Harness, 'adapter'>, user: string, extra: Record<string, string> = {}): Promise<Connected> {
  const authUrl = h.adapter.authorizeUrl({ state: `state-${user}`, redirectUri: REDIRECT });
  const { code, state } = await approveConsent(authUrl, { sandbox_user: user, ...extra });
  assert.equal(state, `state-${user}`);
  const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(r.ok, r.ok ? '' : r.message);
  const account = r.accounts[0]!;
  const boards = (account.meta.boards ?? []) as { id: string }[];
  return { account, creds: credentials(account), boardId: boards[0]?.id ?? '' };
}

export type { TestRequest };

export function publishRequest(account: AccountCredentials, media: MediaItem[], settings: Record<string, unknown>, content = 'A Pin from Herald'): TestRequest {
  return testPublishRequest({ account, content, media, settings });
}

/** The same target again, carrying what the earlier attempt saved (and possibly new credentials). */
export function retryOf(req: TestRequest, account: AccountCredentials = req.account): TestRequest {
  return retryRequest(req, account);
}

export function image(h: Pick<Harness, 'server'>, name = 'sample.jpg', n = 0, altText?: string): MediaItem {
  return { type: 'image', url: `${h.server.mediaUrl}/${name}?n=${n}`, ...(altText ? { altText } : {}) };
}

export function video(h: Pick<Harness, 'server'>, bytes = 5000): MediaItem {
  return { type: 'video', url: `${h.server.mediaUrl}/sample.mp4?bytes=${bytes}` };
}

/** A tiny server of files the sandbox's sample media lacks (GIF, a text file posing as an image). */
export async function fileServer(files: Record<string, { type: string; body: Buffer }>): Promise<{ url: (name: string) => string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const file = files[(req.url ?? '').slice(1).split('?')[0]!];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: (name) => `http://127.0.0.1:${port}/${name}`, close: () => new Promise((r) => server.close(() => r())) };
}

export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// Shared set-up for the TikTok adapter tests: an emulator on 127.0.0.1 with small chunk rules, an
// adapter pointed at it, and helpers to connect sandbox users and build publish requests.
import assert from 'node:assert/strict';
import { createTikTokAdapter, type TikTokAdapterOptions } from '../../src/platforms/tiktok/adapter.ts';
import type { ChunkRules } from '../../src/platforms/tiktok/info.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type { AccountCredentials, ConnectedAccount, MediaItem, PlatformAdapter } from '../../src/platforms/types.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { createTikTokEmulator, type TikTokEmulator } from '../../src/sandbox/tiktok/emulator.ts';
import { adapterDeps, approveConsent, credentialsOf, retryRequest, testPublishRequest, type TestRequest } from '../helpers/platform.ts';

/** TikTok's rules scaled down 20x so multi-chunk uploads stay well under a few MB. */
export const SMALL_CHUNKS: ChunkRules = { minChunkBytes: 256 * 1024, maxChunkBytes: 512 * 1024, maxFinalChunkBytes: 1024 * 1024, maxChunks: 1000 };
export const REDIRECT = 'https://herald.example/v1/connect/tiktok/callback';

export interface Harness {
  server: EmulatorServer;
  emu: TikTokEmulator;
  root: string;
  deps: AdapterDeps;
  adapter: PlatformAdapter;
  /** An adapter with other deps/options against the same emulator. */
  adapterWith(deps: Partial<AdapterDeps>, options?: TikTokAdapterOptions): PlatformAdapter;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const emu = createTikTokEmulator({ processingMs: 30, chunkRules: SMALL_CHUNKS });
  const server = await startEmulatorServer([emu]);
  const root = server.rootOf('tiktok');
  const options: TikTokAdapterOptions = { chunkRules: SMALL_CHUNKS, preferredChunkBytes: SMALL_CHUNKS.minChunkBytes, chunkTimeoutMs: 2_000 };
  const base = adapterDeps({ apiUrl: root, authUrl: `${root}/v2/auth/authorize/` }, { http: createPlatformHttp({ timeoutMs: 2_000 }) });
  const adapterWith = (deps: Partial<AdapterDeps>, extra: TikTokAdapterOptions = {}) => createTikTokAdapter({ ...base, ...deps }, { ...options, ...extra });
  return { server, emu, root, deps: base, adapter: adapterWith({}), adapterWith, close: () => server.close() };
}

export const credentials = credentialsOf;

export async function connectAccount(h: Pick<Harness, 'adapter'>, user: string, extra: Record<string, string> = {}): Promise<{ account: ConnectedAccount; creds: AccountCredentials }> {
  const authUrl = h.adapter.authorizeUrl({ state: `state-${user}`, redirectUri: REDIRECT });
  const { code, state } = await approveConsent(authUrl, { sandbox_user: user, ...extra });
  assert.equal(state, `state-${user}`);
  const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(r.ok, r.ok ? '' : r.message);
  const account = r.accounts[0]!;
  return { account, creds: credentials(account) };
}

export type { TestRequest };

export function publishRequest(
  account: AccountCredentials,
  media: MediaItem[],
  settings: Record<string, unknown> = { privacyLevel: 'PUBLIC_TO_EVERYONE' },
  content = 'Hello from Herald #sandbox',
): TestRequest {
  return testPublishRequest({ account, content, media, settings });
}

/** The same target again, carrying what the earlier attempt saved. */
export function retryOf(req: TestRequest, account: AccountCredentials = req.account): TestRequest {
  return retryRequest(req, account);
}

export function video(h: Harness, bytes: number): MediaItem {
  return { type: 'video', url: `${h.server.mediaUrl}/sample.mp4?bytes=${bytes}` };
}

export function image(h: Harness, name = 'sample.jpg', n = 0): MediaItem {
  return { type: 'image', url: `${h.server.mediaUrl}/${name}?n=${n}` };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// Shared set-up for the YouTube adapter tests: an emulator on 127.0.0.1, an adapter pointed at it with
// 256 KiB chunks (Google's granule), and helpers to connect sandbox users and build publish requests.
import assert from 'node:assert/strict';
import { pkceChallenge } from '../../src/lib/crypto.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type { AccountCredentials, ConnectedAccount, MediaItem, PlatformAdapter } from '../../src/platforms/types.ts';
import { createYouTubeAdapter, type YouTubeAdapterOptions } from '../../src/platforms/youtube/adapter.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { createYouTubeEmulator, type YouTubeEmulator, type YouTubeEmulatorOptions } from '../../src/sandbox/youtube/emulator.ts';
import { adapterDeps, approveConsent, credentialsOf, retryRequest, testCommentRequest, testPublishRequest, type TestComment, type TestRequest } from '../helpers/platform.ts';

export const GRANULE = 256 * 1024;
export const REDIRECT = 'https://herald.example/v1/connect/youtube/callback';

export interface Harness {
  server: EmulatorServer;
  emu: YouTubeEmulator;
  root: string;
  deps: AdapterDeps;
  adapter: PlatformAdapter;
  adapterWith(deps: Partial<AdapterDeps>, options?: YouTubeAdapterOptions): PlatformAdapter;
  close(): Promise<void>;
}

export async function startHarness(options: YouTubeEmulatorOptions = {}): Promise<Harness> {
  const emu = createYouTubeEmulator({ processingMs: 30, ...options });
  const server = await startEmulatorServer([emu]);
  const root = server.rootOf('youtube');
  const upload: YouTubeAdapterOptions = { chunkBytes: GRANULE, chunkTimeoutMs: 800 };
  const base = adapterDeps(
    { apiUrl: root, authUrl: `${root}/o/oauth2/v2/auth`, tokenUrl: root },
    { http: createPlatformHttp({ timeoutMs: 800 }), timing: { pollIntervalMs: 10, maxProcessingMs: 2000 } },
  );
  const adapterWith = (deps: Partial<AdapterDeps>, extra: YouTubeAdapterOptions = {}) => createYouTubeAdapter({ ...base, ...deps }, { ...upload, ...extra });
  return { server, emu, root, deps: base, adapter: adapterWith({}), adapterWith, close: () => server.close() };
}

export const credentials = credentialsOf;

/** Runs the consent round trip for a sandbox user (with PKCE, as Herald does) and connects the account. */
export async function connectAccount(h: Pick<Harness, 'adapter'>, user: string, extra: Record<string, string> = {}): Promise<{ account: ConnectedAccount; creds: AccountCredentials }> {
  const verifier = `verifier-${user}-0123456789012345678901234567890123456789`;
  const authUrl = h.adapter.authorizeUrl({ state: `state-${user}`, redirectUri: REDIRECT, codeChallenge: pkceChallenge(verifier) });
  const { code, state } = await approveConsent(authUrl, { sandbox_user: user, ...extra });
  assert.equal(state, `state-${user}`);
  const r = await h.adapter.connect({ code, redirectUri: REDIRECT, codeVerifier: verifier });
  assert.ok(r.ok, r.ok ? '' : r.message);
  const account = r.accounts[0]!;
  return { account, creds: credentials(account) };
}

export type { TestRequest };

export const SETTINGS = { title: 'Herald sandbox video', madeForKids: false, privacyStatus: 'public' };

/** A publish request whose saveCheckpoint behaves as the engine's: it records and updates request.checkpoint. */
export function publishRequest(account: AccountCredentials, media: MediaItem[], settings: Record<string, unknown> = SETTINGS, content = 'Hello from Herald #sandbox'): TestRequest {
  return testPublishRequest({ account, content, media, settings });
}

/** The same target again, carrying what the earlier attempt saved. */
export function retryOf(req: TestRequest, account: AccountCredentials = req.account): TestRequest {
  return retryRequest(req, account);
}

export function commentRequest(account: AccountCredentials, videoId: string, content: string): TestComment {
  return testCommentRequest({ account, platformPostId: videoId, content });
}

export function video(h: Harness, bytes: number, n = 0): MediaItem {
  return { type: 'video', url: `${h.server.mediaUrl}/sample.mp4?bytes=${bytes}&n=${n}` };
}

export function image(h: Harness, name = 'sample.jpg'): MediaItem {
  return { type: 'image', url: `${h.server.mediaUrl}/${name}` };
}

// Shared set-up for the Mastodon adapter tests: an emulated instance on 127.0.0.1, an adapter whose
// instance calls go through serverHttp, Herald's app registered there, and helpers to connect sandbox
// users (PKCE included) and build publish, edit and comment requests.
import assert from 'node:assert/strict';
import { pkceChallenge } from '../../src/lib/crypto.ts';
import { createMastodonAdapter } from '../../src/platforms/mastodon/adapter.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AdapterDeps } from '../../src/platforms/deps.ts';
import type {
  AccountCredentials,
  Checkpoint,
  ConnectedAccount,
  MediaItem,
  PlatformAdapter,
  ServerApp,
} from '../../src/platforms/types.ts';
import { createMastodonEmulator, type MastodonEmulator, type MastodonEmulatorOptions } from '../../src/sandbox/mastodon/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent, retryRequest, testCommentRequest, testPublishRequest, type TestComment, type TestRequest } from '../helpers/platform.ts';

export const REDIRECT = 'https://herald.example/v1/connect/mastodon/callback';
export const VERIFIER = 'mastodon-test-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';

export interface Harness {
  server: EmulatorServer;
  emu: MastodonEmulator;
  /** The instance URL: the emulator's root. */
  root: string;
  /** host:port, the instance's domain. */
  domain: string;
  deps: AdapterDeps;
  adapter: PlatformAdapter;
  adapterWith(deps: Partial<AdapterDeps>): PlatformAdapter;
  /** Herald's app on the instance (registered on first use). */
  app(): Promise<ServerApp>;
  close(): Promise<void>;
}

export async function startHarness(options: MastodonEmulatorOptions = {}): Promise<Harness> {
  const emu = createMastodonEmulator({ processingMs: 30, ...options });
  const server = await startEmulatorServer([emu]);
  const root = server.rootOf('mastodon');
  // The instance is user input: its calls must go through serverHttp. `http` points nowhere, so a call
  // that used it would fail the tests.
  const deps = adapterDeps(
    { apiUrl: 'http://127.0.0.1:9/not-here', authUrl: '' },
    { serverHttp: createPlatformHttp({ timeoutMs: 800 }), http: createPlatformHttp({ timeoutMs: 50 }) },
  );
  const adapterWith = (extra: Partial<AdapterDeps>) => createMastodonAdapter({ ...deps, ...extra });
  const adapter = adapterWith({});
  let app: ServerApp | undefined;
  return {
    server,
    emu,
    root,
    domain: new URL(root).host,
    deps,
    adapter,
    adapterWith,
    async app() {
      if (app) return app;
      const r = await adapter.registerApp!({ serverUrl: root, redirectUri: REDIRECT });
      assert.ok(r.ok, r.ok ? '' : r.message);
      app = { url: root, clientId: r.clientId, clientSecret: r.clientSecret };
      return app;
    },
    close: () => server.close(),
  };
}

export function credentials(a: ConnectedAccount, server: ServerApp): AccountCredentials {
  return {
    accountId: a.accountId,
    username: a.username,
    accessToken: a.grant.accessToken,
    refreshToken: a.grant.refreshToken ?? null,
    expiresAt: a.grant.expiresAt,
    scopes: a.grant.scopes,
    meta: a.meta,
    server,
  };
}

export async function connectAccount(h: Harness, user: string, extra: Record<string, string> = {}): Promise<{ account: ConnectedAccount; creds: AccountCredentials }> {
  const server = await h.app();
  const authUrl = h.adapter.authorizeUrl({ state: `state-${user}`, redirectUri: REDIRECT, codeChallenge: pkceChallenge(VERIFIER), server });
  const { code, state } = await approveConsent(authUrl, { sandbox_user: user, ...extra });
  assert.equal(state, `state-${user}`);
  const r = await h.adapter.connect({ code, redirectUri: REDIRECT, codeVerifier: VERIFIER, server });
  assert.ok(r.ok, r.ok ? '' : r.message);
  const account = r.accounts[0]!;
  return { account, creds: credentials(account, server) };
}

export type { TestComment, TestRequest };

export function publishRequest(account: AccountCredentials, content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}): TestRequest {
  return testPublishRequest({ account, content, media, settings });
}

/** The same target again, carrying what the earlier attempt saved. */
export function retryOf(req: TestRequest, account: AccountCredentials = req.account): TestRequest {
  return retryRequest(req, account);
}

export function commentRequest(account: AccountCredentials, platformPostId: string, content: string, checkpoint: Checkpoint | null = null): TestComment {
  return testCommentRequest({ account, platformPostId, content, checkpoint });
}

export function image(h: Harness, n = 0, altText?: string): MediaItem {
  return { type: 'image', url: `${h.server.mediaUrl}/sample.jpg?n=${n}`, ...(altText ? { altText } : {}) };
}

export function video(h: Harness, bytes = 4096): MediaItem {
  return { type: 'video', url: `${h.server.mediaUrl}/sample.mp4?bytes=${bytes}` };
}

/** Statuses the emulator really made (ledger kinds post and reply), optionally with this text. */
export function made(h: Harness, text?: string) {
  return h.emu.ledger.list().filter((e) => (e.kind === 'post' || e.kind === 'reply') && (text === undefined || e.text === text));
}

export function calls(h: Harness, method: string, path: RegExp): number {
  return h.emu.calls.filter((c) => c.method === method && path.test(c.path)).length;
}

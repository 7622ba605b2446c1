// Builds a platform adapter's dependencies pointing at an emulator served on 127.0.0.1.
import { systemClock } from '../../src/lib/clock.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AdapterDeps, PlatformAppConfig } from '../../src/platforms/deps.ts';
import { createOutboundClient } from '../../src/net/outbound.ts';
import { createMediaFetcher } from '../../src/net/media-fetcher.ts';
import { SANDBOX_APP } from '../../src/sandbox/kit/emulator.ts';
import type { AccountCredentials, Checkpoint, CommentRequest, ConnectedAccount, MediaItem, PublishRequest } from '../../src/platforms/types.ts';

export function adapterDeps(app: Partial<PlatformAppConfig> & Pick<PlatformAppConfig, 'apiUrl' | 'authUrl'>, overrides: Partial<AdapterDeps> = {}): AdapterDeps {
  const outbound = createOutboundClient({ allowPrivateNetworks: true, userAgent: 'herald-test' });
  return {
    app: { clientId: SANDBOX_APP.clientId, clientSecret: SANDBOX_APP.clientSecret, apiVersion: 'v21.0', tokenUrl: app.apiUrl, ...app },
    http: createPlatformHttp({ timeoutMs: 2000 }),
    serverHttp: createPlatformHttp({ timeoutMs: 2000 }),
    media: createMediaFetcher(outbound, { timeoutMs: 2000 }),
    clock: systemClock,
    timing: { pollIntervalMs: 20, maxProcessingMs: 3000 },
    ...overrides,
  };
}

/**
 * Plays the user on the emulator's consent page: follows authUrl (plus any sandbox_* query) and returns
 * the code and state the platform sends to the redirect URL.
 */
export async function approveConsent(authUrl: string, extra: Record<string, string> = {}): Promise<{ code: string; state: string | null; location: URL }> {
  const url = new URL(authUrl);
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status < 300 || res.status >= 400 || !location) {
    throw new Error(`consent page answered ${res.status} without a redirect: ${await res.text()}`);
  }
  const target = new URL(location);
  const code = target.searchParams.get('code');
  if (!code) throw new Error(`consent redirect carries no code: ${location}`);
  return { code, state: target.searchParams.get('state'), location: target };
}

/** An account as the engine hands it to an adapter, from what connect returned. */
export function credentialsOf(a: ConnectedAccount): AccountCredentials {
  return {
    accountId: a.accountId,
    username: a.username,
    accessToken: a.grant.accessToken,
    refreshToken: a.grant.refreshToken ?? null,
    expiresAt: a.grant.expiresAt,
    scopes: a.grant.scopes,
    meta: a.meta,
  };
}

/** A publish request that records what it saves, as the engine's does (and updates request.checkpoint). */
export type TestRequest = PublishRequest & { saved: Checkpoint[] };

/** A request's fields plus what the engine's requests do with checkpoints: each one saved is recorded in `saved` and becomes `checkpoint`. */
function recordingCheckpoints<T extends { checkpoint: Checkpoint | null }>(fields: T): T & { saved: Checkpoint[]; attemptStartedAt: number; saveCheckpoint(cp: Checkpoint): Promise<void> } {
  const saved: Checkpoint[] = [];
  const req = {
    ...fields,
    saved,
    attemptStartedAt: Date.now(),
    async saveCheckpoint(cp: Checkpoint) {
      saved.push(cp);
      req.checkpoint = cp;
    },
  };
  return req;
}

export function testPublishRequest(parts: { account: AccountCredentials; content: string; media: MediaItem[]; settings: Record<string, unknown> }): TestRequest {
  return recordingCheckpoints({ ...parts, checkpoint: null });
}

/** A first-comment request that records what it saves, as the engine's does (and updates request.checkpoint). */
export type TestComment = CommentRequest & { saved: Checkpoint[] };

export function testCommentRequest(parts: {
  account: AccountCredentials;
  platformPostId: string;
  content: string;
  settings?: Record<string, unknown>;
  checkpoint?: Checkpoint | null;
}): TestComment {
  return recordingCheckpoints({
    account: parts.account,
    platformPostId: parts.platformPostId,
    content: parts.content,
    settings: parts.settings ?? {},
    checkpoint: parts.checkpoint ?? null,
  });
}

/** The same target again, carrying what the earlier attempt saved (and possibly new credentials). */
export function retryRequest(req: TestRequest, account: AccountCredentials = req.account): TestRequest {
  const next = testPublishRequest({ account, content: req.content, media: req.media, settings: req.settings });
  next.checkpoint = req.saved.at(-1) ?? null;
  next.attemptStartedAt = req.attemptStartedAt;
  return next;
}

// TikTok emulator: Login Kit v2 (www.tiktok.com/v2/auth/authorize/, /v2/oauth/*) and the Content
// Posting API (open.tiktokapis.com, plus the upload host behind upload_url), at TikTok's own paths
// below the emulator's root.
import type { FastifyInstance } from 'fastify';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type EmulatorOptions } from '../kit/emulator.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { TIKTOK_CHUNK_RULES, type ChunkRules } from '../../platforms/tiktok/info.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import type { TikTokContext } from './context.ts';
import { renderFault, sendError } from './envelope.ts';
import { registerPublishRoutes } from './publish-routes.ts';
import { PublishStore, type PublishesSnapshot, type TikTokSandboxSettings } from './publishes.ts';
import type { SandboxUser } from './users.ts';

export interface TikTokEmulatorOptions extends EmulatorOptions {
  /** How long public post ids stay hidden after PUBLISH_COMPLETE (moderation); default processingMs. */
  moderationMs?: number;
  /** Behave like an unaudited app (SELF_ONLY on private accounts only, 5 users a day). */
  unaudited?: boolean;
  verifiedUrlPrefixes?: string[];
  /** TikTok's chunk rules; tests shrink them to keep uploads small. */
  chunkRules?: ChunkRules;
  initsPerMinute?: number;
  creatorInfoPerMinute?: number;
  statusFetchesPerMinute?: number;
  /**
   * Direct Posts per creator per rolling 24 hours (spam_risk_too_many_posts). TikTok does not publish the
   * number; integrators report 15–20, so the emulator holds to 15, as Herald's own limit does.
   */
  dailyPostCap?: number;
}

export interface TikTokEmulator extends Emulator {
  /** Live switches (moderation delay, audit mode, verified URLs); reset() restores the options. */
  readonly settings: TikTokSandboxSettings;
}

const MINUTE_MS = 60_000;

/** What is saved of the TikTok emulator's own state (kit/persistence.ts); the live settings are options, not state. */
interface TikTokSnapshot {
  users: SandboxUser[];
  publishes: PublishesSnapshot;
  calls: [string, number[]][];
  postingUsers: [string, number][];
}

export function createTikTokEmulator(options: TikTokEmulatorOptions = {}): TikTokEmulator {
  const now = options.now ?? Date.now;
  const initial = (): TikTokSandboxSettings => ({
    processingMs: options.processingMs ?? 50,
    moderationMs: options.moderationMs ?? options.processingMs ?? 50,
    unaudited: options.unaudited ?? false,
    verifiedUrlPrefixes: options.verifiedUrlPrefixes ?? null,
    chunkRules: options.chunkRules ?? TIKTOK_CHUNK_RULES,
    initsPerMinute: options.initsPerMinute ?? 6,
    creatorInfoPerMinute: options.creatorInfoPerMinute ?? 20,
    statusFetchesPerMinute: options.statusFetchesPerMinute ?? 30,
    dailyPostCap: options.dailyPostCap ?? 15,
  });
  const settings = initial();
  const base = createEmulatorBase();
  const oauth = new OAuthServer({
    now,
    tokenPrefix: 'tt.',
    codeTtlMs: 10 * MINUTE_MS,
    // 2026 docs: access 2 hours, refresh 180 days, refresh tokens rotate.
    accessTtlMs: 2 * 60 * MINUTE_MS,
    refreshTtlMs: 180 * 24 * 60 * MINUTE_MS,
    rotateRefresh: true,
  });
  const ctx: TikTokContext = {
    clientId: options.clientId ?? SANDBOX_APP.clientId,
    clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
    now,
    oauth,
    users: new Map(),
    publishes: new PublishStore(base.ledger, now, settings),
    settings,
    initCalls: new Map(),
    postingUsers: new Map(),
    mediaOrigins: options.mediaOrigins ?? (() => []),
  };

  const emu: TikTokEmulator = {
    name: 'tiktok',
    platforms: ['tiktok'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth,
    settings,
    async plugin(app: FastifyInstance) {
      installBodyParsers(app);
      installCommon(app, emu);
      // TikTok takes POSTs without a body (creator_info) even when they say application/json.
      app.removeContentTypeParser('application/json');
      app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
        const text = (body as string).trim();
        if (!text) return done(null, {});
        try {
          done(null, JSON.parse(text));
        } catch {
          done(Object.assign(new Error('request body is not valid JSON'), { statusCode: 400 }), undefined);
        }
      });
      app.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
        return sendError(reply, status, status === 500 ? 'internal_error' : 'invalid_params', err.message ?? 'request failed');
      });
      app.setNotFoundHandler(async (_req, reply) => sendError(reply, 404, 'invalid_params', 'The requested path does not exist.'));
      registerAuthRoutes(app, ctx, app.prefix);
      registerPublishRoutes(app, ctx, app.prefix);
    },
    errorFor: renderFault,
    snapshot(limits): TikTokSnapshot {
      const t = now();
      return {
        users: [...ctx.users.values()],
        publishes: ctx.publishes.snapshot(limits.items),
        calls: [...ctx.initCalls].map(([k, times]) => [k, times.filter((at) => t - at < MINUTE_MS)] as [string, number[]]).filter(([, times]) => times.length > 0),
        postingUsers: [...ctx.postingUsers].filter(([, at]) => t - at < 24 * 60 * MINUTE_MS),
      };
    },
    restore(saved) {
      const snap = saved as TikTokSnapshot;
      ctx.users = new Map(snap.users.map((u) => [u.openId, u]));
      ctx.publishes.restore(snap.publishes);
      ctx.initCalls = new Map(snap.calls);
      ctx.postingUsers = new Map(snap.postingUsers);
    },
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      ctx.publishes.reset();
      ctx.users.clear();
      ctx.initCalls.clear();
      ctx.postingUsers.clear();
      Object.assign(settings, initial());
    },
  };
  return emu;
}

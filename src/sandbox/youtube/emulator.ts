// YouTube emulator: Google's consent page and token endpoints (accounts.google.com/o/oauth2/v2/auth,
// oauth2.googleapis.com/{token,revoke,tokeninfo}) and the YouTube Data API v3 with its upload host
// (www.googleapis.com/youtube/v3, /upload/youtube/v3), at Google's own paths below the emulator's root.
import type { FastifyInstance } from 'fastify';
import { QUOTA } from '../../platforms/youtube/info.ts';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type EmulatorOptions } from '../kit/emulator.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { registerCommentRoutes } from './comment-routes.ts';
import type { YouTubeContext, YouTubeSandboxSettings } from './context.ts';
import { registerDataRoutes } from './data-routes.ts';
import { ERR, renderFault, sendApiError } from './google-errors.ts';
import { registerOAuthRoutes } from './oauth-routes.ts';
import { QuotaMeter } from './quota.ts';
import { YouTubeStore } from './store.ts';
import { registerUploadRoutes } from './upload-routes.ts';

export interface YouTubeEmulatorOptions extends EmulatorOptions, Partial<Omit<YouTubeSandboxSettings, 'processingMs'>> {
  /** An app in "Testing" publishing status: its refresh tokens die after 7 days. */
  testingApp?: boolean;
}

export interface YouTubeEmulator extends Emulator {
  /** Live switches (quota model, audit state, processing time…); reset() restores the options. */
  readonly settings: YouTubeSandboxSettings;
  readonly quota: QuotaMeter;
  readonly store: YouTubeStore;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export function createYouTubeEmulator(options: YouTubeEmulatorOptions = {}): YouTubeEmulator {
  const now = options.now ?? Date.now;
  const initial = (): YouTubeSandboxSettings => ({
    processingMs: options.processingMs ?? 50,
    unverifiedProject: options.unverifiedProject ?? false,
    quotaModel: options.quotaModel ?? 'buckets',
    dailyUnits: options.dailyUnits ?? QUOTA.dailyUnits,
    dailyUploads: options.dailyUploads ?? QUOTA.dailyUploads,
    dailySearches: options.dailySearches ?? 100,
    channelDailyUploads: options.channelDailyUploads ?? 50,
    completeStatus: options.completeStatus ?? 201,
    chunkGranularity: options.chunkGranularity ?? 256 * 1024,
    refreshTokenCap: options.refreshTokenCap ?? 100,
    commentsOnPrivate: options.commentsOnPrivate ?? false,
    thumbnailsPerMinute: options.thumbnailsPerMinute ?? 10,
    searchDelayMs: options.searchDelayMs ?? 0,
    sessionTtlMs: options.sessionTtlMs ?? 7 * DAY_MS,
    redirectUris: options.redirectUris ?? null,
  });
  const settings = initial();
  const limits = () => ({ model: settings.quotaModel, dailyUnits: settings.dailyUnits, dailyUploads: settings.dailyUploads, dailySearches: settings.dailySearches });
  const base = createEmulatorBase();
  const oauth = new OAuthServer({
    now,
    tokenPrefix: 'ya29.',
    codeTtlMs: 10 * MINUTE_MS,
    // §8.1: access tokens live 3,599 s; refresh tokens do not rotate and do not expire (7 days in Testing).
    accessTtlMs: 3599_000,
    refreshTtlMs: options.testingApp ? 7 * DAY_MS : null,
    rotateRefresh: false,
  });
  const quota = new QuotaMeter(now, limits);
  const store = new YouTubeStore(base.ledger, now, () => settings.processingMs);
  const ctx: YouTubeContext = {
    clientId: options.clientId ?? SANDBOX_APP.clientId,
    clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
    now,
    oauth,
    accounts: new Map(),
    store,
    quota,
    settings,
    consented: new Set(),
    grants: new Map(),
    refreshTokens: new Map(),
    codes: new Map(),
    thumbnailCalls: new Map(),
  };

  const emu: YouTubeEmulator = {
    name: 'youtube',
    platforms: ['youtube'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth,
    settings,
    quota,
    store,
    async plugin(app: FastifyInstance) {
      installBodyParsers(app);
      installCommon(app, emu);
      app.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
        if (status === 500) return sendApiError(reply, ERR.backend());
        return sendApiError(reply, { ...ERR.invalidArgument(err.message ?? 'Invalid request'), status });
      });
      app.setNotFoundHandler((_req, reply) => sendApiError(reply, ERR.notFound()));
      // The project's quota, readable and settable by tests (Google shows it in the Cloud console).
      app.get('/__sandbox/quota', async () => quota.current());
      app.post('/__sandbox/quota', async (req) => {
        const body = (req.body ?? {}) as { units?: number; uploads?: number; searches?: number };
        quota.set(body);
        return quota.current();
      });
      registerOAuthRoutes(app, ctx);
      registerUploadRoutes(app, ctx, app.prefix);
      registerDataRoutes(app, ctx, app.prefix);
      registerCommentRoutes(app, ctx, app.prefix);
    },
    errorFor: renderFault,
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      store.reset();
      ctx.accounts.clear();
      ctx.consented.clear();
      ctx.grants.clear();
      ctx.refreshTokens.clear();
      ctx.codes.clear();
      ctx.thumbnailCalls.clear();
      Object.assign(settings, initial());
      quota.reset();
    },
  };
  return emu;
}

// Mastodon emulator: one instance (its own app registrations, OAuth with PKCE, instance description,
// accounts, media processing, statuses with idempotency, edits and deletes, rate limits) at Mastodon's
// own paths below the emulator's root, so the root is a valid instance URL:
// GET /v1/connect/mastodon?instance=<root>.
import type { FastifyInstance } from 'fastify';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, type Emulator, type EmulatorOptions } from '../kit/emulator.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { registerAccountRoutes } from './account-routes.ts';
import { railsParams, type MastodonContext } from './context.ts';
import { TEXT, renderFault, sendError } from './envelope.ts';
import { registerMediaRoutes } from './media-routes.ts';
import { registerOAuthRoutes } from './oauth-routes.ts';
import { MastodonState, defaultSettings, type MastodonSandboxSettings, type RateLimits } from './state.ts';
import { registerStatusRoutes } from './status-routes.ts';
import { Counters, installThrottle } from './throttle.ts';

export interface MastodonEmulatorOptions extends EmulatorOptions {
  /** The instance's domain (handles, status URLs, accountIds); default: the host it is addressed by. */
  domain?: string;
  maxCharacters?: number;
  maxMediaAttachments?: number;
  charactersReservedPerUrl?: number;
  imageSizeLimit?: number;
  videoSizeLimit?: number;
  descriptionLimit?: number;
  rateLimits?: Partial<RateLimits>;
}

export interface MastodonEmulator extends Emulator {
  /** Live switches (limits, processing, rate limits); reset() restores the options. */
  readonly settings: MastodonSandboxSettings;
  readonly state: MastodonState;
}

export function createMastodonEmulator(options: MastodonEmulatorOptions = {}): MastodonEmulator {
  const now = options.now ?? Date.now;
  const initial = (): MastodonSandboxSettings => {
    const s = defaultSettings();
    if (options.domain) s.domain = options.domain;
    if (options.processingMs !== undefined) s.processingMs = options.processingMs;
    for (const k of ['maxCharacters', 'maxMediaAttachments', 'charactersReservedPerUrl', 'imageSizeLimit', 'videoSizeLimit', 'descriptionLimit'] as const) {
      if (options[k] !== undefined) s[k] = options[k];
    }
    s.rateLimits = { ...s.rateLimits, ...options.rateLimits };
    return s;
  };
  const settings = initial();
  const base = createEmulatorBase();
  const state = new MastodonState(now);
  const counters = new Counters();
  // Doorkeeper: codes live 10 minutes, access tokens never expire, no refresh tokens.
  const oauth = new OAuthServer({ now, tokenPrefix: '', codeTtlMs: 10 * 60_000, accessTtlMs: null, refreshTtlMs: null, rotateRefresh: false });

  const emu: MastodonEmulator = {
    name: 'mastodon',
    platforms: ['mastodon'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth,
    settings,
    state,
    async plugin(app: FastifyInstance) {
      installBodyParsers(app);
      installCommon(app, emu);
      // Rails reads `key[]` as an array; the shared form parser keeps the last value only.
      app.removeContentTypeParser('application/x-www-form-urlencoded');
      app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
        done(null, railsParams(new URLSearchParams(body as string).entries()));
      });
      app.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
        if (status === 500) return reply.code(500).send({ status: 500, error: 'Internal Server Error' });
        return sendError(reply, status, err.message ?? 'Bad request');
      });
      app.setNotFoundHandler((_req, reply) => sendError(reply, 404, TEXT.notFound));
      const ctx: MastodonContext = { state, settings, oauth, ledger: base.ledger, prefix: app.prefix };
      installThrottle(app, ctx, counters);
      registerOAuthRoutes(app, ctx);
      registerAccountRoutes(app, ctx);
      registerMediaRoutes(app, ctx);
      registerStatusRoutes(app, ctx, counters);
    },
    errorFor: renderFault,
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      state.reset();
      counters.clear();
      Object.assign(settings, initial());
    },
  };
  return emu;
}

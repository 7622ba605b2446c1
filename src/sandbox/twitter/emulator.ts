// The X emulator: consent, tokens, identity, posts (threads, reply settings, edits), media upload
// with processing, rate-limit headers and 429s, and errors in X's own formats. Paths are X's own,
// relative to wherever the emulator is mounted.
import type { FastifyInstance } from 'fastify';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type EmulatorOptions, type ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { registerMediaRoutes } from './media-routes.ts';
import { registerOAuthRoutes } from './oauth-routes.ts';
import { blankProblem, invalidRequestBody, PROBLEM_TYPE_BASE, RATE_LIMITS, rateHeaders, sendProblem, type TwitterContext } from './replies.ts';
import { TwitterState, type TwitterSnapshot } from './state.ts';
import { registerTweetRoutes } from './tweet-routes.ts';
import { registerUserRoutes } from './user-routes.ts';

const PROBLEM_JSON = { 'content-type': 'application/problem+json' };

export function createTwitterEmulator(options: EmulatorOptions = {}): Emulator {
  const now = options.now ?? (() => Date.now());
  const base = createEmulatorBase();
  const state = new TwitterState();
  const oauth = new OAuthServer({
    now,
    tokenPrefix: '',
    codeTtlMs: 30_000, // X: the code expires 30 seconds after it is issued
    accessTtlMs: 2 * 60 * 60_000,
    refreshTtlMs: 180 * 24 * 60 * 60_000,
    rotateRefresh: true,
  });
  const ctx: TwitterContext = {
    state,
    oauth,
    ledger: base.ledger,
    now,
    clientId: options.clientId ?? SANDBOX_APP.clientId,
    clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
    processingMs: options.processingMs ?? 50,
  };

  function errorFor(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
    switch (kind) {
      case 'server_error':
        return { status: 503, headers: PROBLEM_JSON, body: blankProblem(503, 'Service Unavailable', rule.message ?? 'Service Unavailable') };
      case 'rate_limited': {
        const reset = Math.ceil(now() / 1000) + (rule.resetSeconds ?? 60);
        return {
          status: 429,
          headers: { ...PROBLEM_JSON, ...rateHeaders(RATE_LIMITS['POST /2/tweets']!, 0, reset) },
          body: blankProblem(429, 'Too Many Requests', rule.message ?? 'Too Many Requests'),
        };
      }
      case 'expired_token':
        return { status: 401, headers: PROBLEM_JSON, body: blankProblem(401, 'Unauthorized', rule.message ?? 'Unauthorized') };
      case 'validation':
        return { status: 400, headers: PROBLEM_JSON, body: invalidRequestBody(rule.message ?? 'The text of your post is not allowed.', { text: [] }) };
      case 'permission':
        return {
          status: 403,
          headers: PROBLEM_JSON,
          body: {
            client_id: ctx.clientId,
            required_enrollment: 'Appropriate Level of API Access',
            registration_url: 'https://developer.x.com/en/portal/product',
            title: 'Client Forbidden',
            detail: rule.message ?? 'This request must be made using an approved developer account that is enrolled in the requested endpoint.',
            reason: 'client-not-enrolled',
            type: `${PROBLEM_TYPE_BASE}client-forbidden`,
          },
        };
    }
  }

  async function plugin(app: FastifyInstance): Promise<void> {
    installCommon(app, emu);
    installBodyParsers(app);
    // X sends x-rate-limit-* on every answer; routes that count set real values, the rest a fresh window.
    app.addHook('onSend', async (_req, reply, payload) => {
      if (!reply.hasHeader('x-rate-limit-limit')) reply.headers(rateHeaders(900, 899, Math.ceil((now() + 15 * 60_000) / 1000)));
      return payload;
    });
    // Unknown paths and bodies Fastify cannot take still answer in X's problem JSON.
    app.setNotFoundHandler(async (_req, reply) => sendProblem(reply, 404, blankProblem(404, 'Not Found', 'Sorry, that page does not exist.')));
    app.setErrorHandler(async (err: { statusCode?: number; message?: string }, _req, reply) => {
      const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
      if (status === 400) return sendProblem(reply, 400, invalidRequestBody(err.message ?? 'The request body is invalid.', { body: [] }));
      return sendProblem(reply, status, blankProblem(status, status === 500 ? 'Internal Server Error' : 'Invalid Request', err.message ?? 'Request failed'));
    });
    registerOAuthRoutes(app, ctx);
    registerUserRoutes(app, ctx);
    registerTweetRoutes(app, ctx);
    registerMediaRoutes(app, ctx);
  }

  const emu: Emulator = {
    name: 'twitter',
    platforms: ['twitter'],
    ledger: base.ledger,
    faults: base.faults,
    oauth,
    calls: base.calls,
    latencyMs: base.latencyMs,
    plugin,
    errorFor,
    snapshot: (limits) => state.snapshot(now(), limits),
    restore: (saved) => state.restore(saved as TwitterSnapshot),
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      state.reset();
    },
  };
  return emu;
}

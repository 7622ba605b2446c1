// The Threads emulator: threads.net's authorization window and graph.threads.net, close enough that
// the adapter cannot tell them apart. Mounted at /threads in the sandbox and in tests.
import type { FastifyInstance } from 'fastify';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';
import { OAuthServer } from '../kit/oauth.ts';
import type { ThreadsContext, ThreadsEmulatorOptions } from './context.ts';
import { graphError } from './graph.ts';
import { registerDeleteRoutes } from './delete-routes.ts';
import { registerOAuthRoutes } from './oauth-routes.ts';
import { registerPublishRoutes } from './publish-routes.ts';
import { registerReadRoutes } from './read-routes.ts';
import { DAY_MS, ThreadsStore, type ThreadsSnapshot } from './store.ts';

export type { ThreadsEmulatorOptions } from './context.ts';

export interface ThreadsEmulator extends Emulator {
  readonly store: ThreadsStore;
}

/** Injected errors, worded as Graph words them. */
export function threadsErrorFor(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
  switch (kind) {
    case 'server_error':
      return graphError({
        status: 500,
        code: 2,
        type: 'OAuthException',
        transient: true,
        message: rule.message ?? 'An unexpected error has occurred. Please retry your request later.',
      });
    case 'rate_limited': {
      const seconds = rule.resetSeconds ?? 60;
      // Threads runs on Meta's Graph infrastructure, which says when a throttle lifts only here, in minutes.
      const usage = { threads: [{ type: 'threads', call_count: 100, total_cputime: 100, total_time: 100, estimated_time_to_regain_access: Math.ceil(seconds / 60) }] };
      return graphError({
        status: 400,
        code: 4,
        type: 'OAuthException',
        transient: true,
        message: rule.message ?? '(#4) Application request limit reached',
        headers: { 'x-business-use-case-usage': JSON.stringify(usage) },
      });
    }
    case 'expired_token':
      return graphError({
        status: 400,
        code: 190,
        subcode: 463,
        type: 'OAuthException',
        message: rule.message ?? 'Error validating access token: Session has expired.',
      });
    case 'validation':
      return graphError({ status: 400, code: 100, message: rule.message ?? '(#100) Invalid parameter' });
    case 'permission':
      return graphError({ status: 403, code: 10, type: 'OAuthException', message: rule.message ?? '(#10) Application does not have permission for this action' });
  }
}

export function createThreadsEmulator(options: ThreadsEmulatorOptions = {}): ThreadsEmulator {
  const now = options.now ?? (() => Date.now());
  const base = createEmulatorBase();
  const store = new ThreadsStore();
  const oauth = new OAuthServer({
    now,
    tokenPrefix: 'THQVJ',
    codeTtlMs: 60 * 60_000,
    accessTtlMs: 60 * 60_000,
    refreshTtlMs: null,
    rotateRefresh: false,
  });

  const emu: ThreadsEmulator = {
    name: 'threads',
    platforms: ['threads'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth,
    store,
    errorFor: threadsErrorFor,
    snapshot: (limits) =>
      store.snapshot(now(), limits, (token) => {
        const record = oauth.inspect(token);
        return record !== undefined && (record.expiresAt === null || record.expiresAt > now());
      }),
    restore: (saved) => store.restore(saved as ThreadsSnapshot),
    reset() {
      emu.ledger.clear();
      emu.faults.clear();
      emu.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      store.reset();
    },
    plugin: async (app: FastifyInstance) => {
      installBodyParsers(app);
      installCommon(app, emu);
      registerOAuthRoutes(app, ctx);
      registerPublishRoutes(app, ctx);
      registerReadRoutes(app, ctx);
      registerDeleteRoutes(app, ctx);
      app.setNotFoundHandler(async (req, reply) => {
        const r = graphError({ status: 400, code: 100, subcode: 33, message: `Unsupported ${req.method.toLowerCase()} request.` });
        return reply.code(r.status).send(r.body);
      });
      // Bodies Fastify cannot take (and any bug) still answer in Graph's envelope.
      app.setErrorHandler(async (err: { statusCode?: number; message?: string }, _req, reply) => {
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
        const r =
          status >= 500
            ? graphError({ status: 500, code: 2, transient: true, message: 'An unexpected error has occurred. Please retry your request later.' })
            : graphError({ status: 400, code: 100, message: `(#100) ${err.message ?? 'Invalid request'}` });
        return reply.code(r.status).send(r.body);
      });
    },
  };

  const ctx: ThreadsContext = {
    emu,
    store,
    oauth,
    now,
    settings: {
      clientId: options.clientId ?? SANDBOX_APP.clientId,
      clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
      processingMs: options.processingMs ?? 50,
      mediaOrigins: options.mediaOrigins ?? (() => []),
      postQuota: options.postQuota ?? 250,
      replyQuota: options.replyQuota ?? 1000,
      refreshMinAgeMs: options.refreshMinAgeMs ?? DAY_MS,
      deleteQuota: options.deleteQuota ?? 100,
    },
  };
  return emu;
}

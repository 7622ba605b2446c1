// The Meta Graph emulator: Facebook Login, Facebook Pages publishing and Instagram content publishing
// on one Graph, as graph.facebook.com (+ rupload) and www.facebook.com/dialog/oauth would answer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { envelope, graphError, SHORT_LIVED_MS, type MetaContext, type MetaEmulatorOptions } from './graph-http.ts';
import { changeRoutes } from './routes-changes.ts';
import { commentRoutes } from './routes-comments.ts';
import { loginRoutes } from './routes-login.ts';
import { instagramRoutes } from './routes-instagram.ts';
import { objectRoutes } from './routes-objects.ts';
import { pageRoutes } from './routes-pages.ts';
import { MetaState, type MetaSnapshot } from './state.ts';

export type { MetaEmulatorOptions } from './graph-http.ts';

const VERSION = /^v\d+\.\d+$/;
const HOUR_MS = 60 * 60_000;

export function createMetaEmulator(options: MetaEmulatorOptions = {}): Emulator {
  const now = options.now ?? Date.now;
  const base = createEmulatorBase();
  const oauth = new OAuthServer({
    now,
    tokenPrefix: 'EAAS',
    codeTtlMs: 10 * 60_000,
    accessTtlMs: SHORT_LIVED_MS,
    refreshTtlMs: null,
    rotateRefresh: false,
  });
  const state = new MetaState();
  const ctx: MetaContext = {
    state,
    oauth,
    ledger: base.ledger,
    now,
    clientId: options.clientId ?? SANDBOX_APP.clientId,
    clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
    processingMs: options.processingMs ?? 50,
    publishQuota: options.publishQuota ?? 50,
    accountsPageSize: options.accountsPageSize ?? 25,
    mediaOrigins: options.mediaOrigins ?? (() => []),
    buc: new WeakMap(),
  };

  const emu: Emulator = {
    name: 'meta',
    platforms: ['facebook', 'instagram'],
    ledger: base.ledger,
    faults: base.faults,
    oauth,
    calls: base.calls,
    latencyMs: 0,
    plugin: async (app: FastifyInstance) => {
      installBodyParsers(app);
      installCommon(app, emu);
      installGraphHooks(app, ctx, emu);
      loginRoutes(app, ctx);
      pageRoutes(app, ctx);
      instagramRoutes(app, ctx);
      commentRoutes(app, ctx);
      objectRoutes(app, ctx);
      changeRoutes(app, ctx);
    },
    errorFor: (kind, rule) => renderError(kind, rule, isInstagramPath(state, rule.path)),
    snapshot: (limits) => state.snapshot(now(), limits),
    restore: (saved) => state.restore(saved as MetaSnapshot),
    reset() {
      state.clear();
      oauth.reset();
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
    },
  };
  return emu;
}

function installGraphHooks(app: FastifyInstance, ctx: MetaContext, emu: Emulator): void {
  // Any vNN.N segment is a Graph version; anything else in that place is not a Graph path.
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const v = (req.params as { v?: string } | undefined)?.v;
    if (v !== undefined && !VERSION.test(v)) {
      return graphError(reply, 400, 2500, `Unknown path components: /${v}`);
    }
  });

  // Usage headers as Graph sends them: app-level percentages, plus the Business Use Case the call counted against.
  // The calls of the last hour are counted from a moving start, since the log only grows at its end.
  let hourStart = 0;
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.includes('/__sandbox/')) return payload;
    const cutoff = Date.now() - HOUR_MS;
    if (hourStart > emu.calls.length) hourStart = 0; // the log was reset
    while (hourStart < emu.calls.length && emu.calls[hourStart]!.at <= cutoff) hourStart++;
    const recent = emu.calls.length - hourStart;
    const pct = Math.min(100, Math.round(recent / 2));
    reply.header('x-app-usage', JSON.stringify({ call_count: pct, total_cputime: Math.round(pct / 2), total_time: Math.round(pct / 2) }));
    const owner = ctx.buc.get(req);
    if (owner && !reply.hasHeader('x-business-use-case-usage')) {
      reply.header(
        'x-business-use-case-usage',
        JSON.stringify({ [owner.id]: [{ type: owner.type, call_count: pct, total_cputime: Math.round(pct / 2), total_time: Math.round(pct / 2), estimated_time_to_regain_access: 0 }] }),
      );
    }
    return payload;
  });

  app.setNotFoundHandler(async (req, reply) => graphError(reply, 400, 2500, `Unknown path components: ${req.url.split('?')[0]}`));
  // Bodies Fastify cannot parse (and any bug) still answer in Graph's envelope.
  app.setErrorHandler(async (err: { statusCode?: number; message?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    return status >= 500 ? reply.code(status).send(envelope(1, 'An unknown error has occurred.', { transient: true })) : graphError(reply, status, 100, `(#100) ${err.message ?? 'Invalid request'}`);
  });
}

/**
 * Whether a fault's path is about Instagram: its own edges, or an object (comments, say) that is
 * Instagram media. Faults on a Page's objects answer as Pages do.
 */
function isInstagramPath(state: MetaState, path: string | undefined): boolean {
  if (!path) return false;
  if (/\/(media|media_publish|content_publishing_limit)\b/.test(path)) return true;
  return path.split('/').some((segment) => state.media.has(segment) || state.igAccounts.has(segment));
}

/** An injected fault, rendered as Graph renders that failure. */
function renderError(kind: ErrorFaultKind, rule: FaultRule, instagram: boolean): ErrorReply {
  switch (kind) {
    case 'server_error':
      return { status: 500, body: envelope(2, rule.message ?? 'An unexpected error has occurred. Please retry your request later.', { transient: true }) };
    case 'rate_limited': {
      const minutes = Math.max(1, Math.ceil((rule.resetSeconds ?? 60) / 60));
      const owner = /\d{6,}/.exec(rule.path ?? '')?.[0] ?? 'sandbox';
      const usage = { [owner]: [{ type: instagram ? 'instagram' : 'pages', call_count: 100, total_cputime: 40, total_time: 60, estimated_time_to_regain_access: minutes }] };
      const code = instagram ? 80002 : 32;
      const message = rule.message ?? (instagram ? 'There have been too many calls to this Instagram account. Wait a bit and try again.' : 'Page request limit reached');
      return { status: 400, headers: { 'x-business-use-case-usage': JSON.stringify(usage) }, body: envelope(code, `(#${code}) ${message}`) };
    }
    case 'expired_token':
      return { status: 400, body: envelope(190, rule.message ?? 'Error validating access token: Session has expired.', { subcode: 463 }) };
    case 'validation':
      return { status: 400, body: envelope(100, rule.message ?? '(#100) Invalid parameter', { type: 'GraphMethodException' }) };
    case 'permission':
      return instagram
        ? { status: 403, body: envelope(10, rule.message ?? '(#10) Application does not have permission for this action') }
        : { status: 403, body: envelope(200, rule.message ?? '(#200) Requires pages_manage_posts permission to manage the object') };
  }
}

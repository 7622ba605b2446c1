// The shape every platform emulator shares, and the routes and hooks common to all of them:
// latency, fault injection, a call log, and the /__sandbox control API.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { FAULT_KINDS, FaultInjector, type ErrorFaultKind, type FaultRule } from './faults.ts';
import { Ledger } from './ledger.ts';
import type { OAuthServer } from './oauth.ts';

export interface ErrorReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface CallRecord {
  method: string;
  path: string;
  status: number;
  at: number;
}

export interface Emulator {
  /** Mount name: 'twitter', 'meta' (Facebook and Instagram share Graph), 'threads', 'tiktok'. */
  readonly name: string;
  readonly platforms: readonly string[];
  readonly ledger: Ledger;
  readonly faults: FaultInjector;
  readonly oauth: OAuthServer;
  /** Calls answered (control routes excluded), oldest first; the latest MAX_CALLS_LOGGED only. */
  readonly calls: CallRecord[];
  /** Added before every API answer. */
  latencyMs: number;
  /** Platform routes plus /__sandbox control routes, relative to the emulator's root. */
  readonly plugin: FastifyPluginAsync;
  /** Renders an injected error in the platform's own format. */
  errorFor(kind: ErrorFaultKind, rule: FaultRule): ErrorReply;
  /** Forgets posts, tokens, faults, calls and latency. */
  reset(): void;
  /**
   * The emulator's own state (beyond the OAuth server's tokens and the ledger, which the kit saves for
   * every emulator), as JSON-safe data, for the sandbox to survive a restart (kit/persistence.ts). Keep it
   * bounded: at most `limits.items` of each kind of object, newest first; drop what has expired.
   */
  snapshot?(limits: PersistLimits): unknown;
  /** Takes back what `snapshot` returned (after a restart); called before any request is served. */
  restore?(state: unknown): void;
}

/** How much of an emulator's state is saved (kit/persistence.ts). */
export interface PersistLimits {
  /** Ledger entries (the newest). */
  ledger: number;
  /** Access, refresh and Page tokens (revoked ones go first, then the oldest). */
  tokens: number;
  /** Objects of each kind an emulator keeps (posts, containers, uploads, …), the newest. */
  items: number;
}

const changeListeners = new WeakMap<Emulator, Set<() => void>>();

/**
 * Calls `listener` whenever the emulator may have changed: after every request it answers (API or
 * control) and every ledger entry. Returns the unsubscribe. Used to save the sandbox's state.
 */
export function watchEmulator(emu: Emulator, listener: () => void): () => void {
  const set = changeListeners.get(emu) ?? new Set();
  changeListeners.set(emu, set);
  set.add(listener);
  const unwatchLedger = emu.ledger.watch(listener);
  return () => {
    set.delete(listener);
    unwatchLedger();
  };
}

function changed(emu: Emulator): void {
  for (const listener of changeListeners.get(emu) ?? []) listener();
}

export interface EmulatorBase {
  ledger: Ledger;
  faults: FaultInjector;
  calls: CallRecord[];
  latencyMs: number;
}

export function createEmulatorBase(): EmulatorBase {
  return { ledger: new Ledger(), faults: new FaultInjector(), calls: [], latencyMs: 0 };
}

/**
 * The emulator's own base URL as the caller reached it, so URLs it hands out (upload URLs, media
 * locations) point back at it whether it is mounted under a prefix or standing alone.
 */
export function emulatorBaseUrl(req: FastifyRequest, prefix: string): string {
  return `${req.protocol}://${req.host}${prefix}`;
}

const CONTROL = '/__sandbox/';
/** The call log keeps the latest calls only, so a sandbox left running for weeks stays small. */
export const MAX_CALLS_LOGGED = 10_000;

function logCall(emu: Emulator, call: CallRecord): void {
  emu.calls.push(call);
  if (emu.calls.length > MAX_CALLS_LOGGED) emu.calls.splice(0, emu.calls.length - MAX_CALLS_LOGGED);
}
const MAX_HANG_MS = 10 * 60_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Installs latency, faults, the call log and the control routes on an emulator's Fastify scope
 * (paths are taken relative to the scope's prefix). Call it first inside the emulator's plugin.
 */
export function installCommon(app: FastifyInstance, emu: Emulator): void {
  const prefix = app.prefix;
  const hanging = new WeakSet<FastifyRequest>();
  const resetting = new WeakSet<FastifyRequest>();

  const pathOf = (req: FastifyRequest) => (req.url.split('?')[0] ?? '').slice(prefix.length) || '/';

  app.addHook('onRequest', async (req, reply) => {
    const path = pathOf(req);
    if (path.startsWith(CONTROL)) return;
    if (emu.latencyMs > 0) await sleep(emu.latencyMs);
    const rule = emu.faults.take(req.method, path);
    if (!rule) return;
    switch (rule.kind) {
      case 'slow':
        await sleep(rule.delayMs ?? 5000);
        return;
      case 'accept_then_hang':
        hanging.add(req);
        return;
      case 'accept_then_reset':
        resetting.add(req);
        return;
      case 'drop':
        reply.hijack();
        req.raw.socket.destroy();
        return reply;
      default: {
        const r = emu.errorFor(rule.kind, rule);
        return reply.code(r.status).headers(r.headers ?? {}).send(r.body);
      }
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    // The handler has run (whatever happens to the answer next): whatever it changed may be saved.
    changed(emu);
    if (resetting.has(req)) {
      // The work is done; the connection is cut before a byte of the answer leaves. No response
      // completes, so the call is logged here, with the status that was never delivered.
      logCall(emu, { method: req.method, path: pathOf(req), status: reply.statusCode, at: Date.now() });
      req.raw.socket.destroy();
      return payload;
    }
    if (!hanging.has(req)) return payload;
    // The work is done; the answer never comes. Hold it until the client gives up.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, MAX_HANG_MS);
      req.raw.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return payload;
  });

  app.addHook('onResponse', async (req, reply) => {
    const path = pathOf(req);
    if (path.startsWith(CONTROL) || resetting.has(req)) return;
    logCall(emu, { method: req.method, path, status: reply.statusCode, at: Date.now() });
  });

  registerControlRoutes(app, emu);
}

function registerControlRoutes(app: FastifyInstance, emu: Emulator): void {
  app.post('/__sandbox/faults', async (req: FastifyRequest, reply: FastifyReply) => {
    const rule = req.body as FaultRule;
    if (!rule || typeof rule !== 'object' || !FAULT_KINDS.includes(rule.kind)) {
      return reply.code(400).send({ error: `kind must be one of ${FAULT_KINDS.join(', ')}` });
    }
    return { id: emu.faults.add(rule) };
  });
  app.delete('/__sandbox/faults', async () => {
    emu.faults.clear();
    return { cleared: true };
  });
  app.get('/__sandbox/faults', async () => ({ faults: emu.faults.list() }));
  app.get('/__sandbox/ledger', async (req: FastifyRequest) => {
    const q = req.query as { accountId?: string; kind?: string };
    return { posts: emu.ledger.list({ accountId: q.accountId, kind: q.kind }) };
  });
  app.get('/__sandbox/calls', async () => ({ calls: emu.calls }));
  app.post('/__sandbox/latency', async (req: FastifyRequest, reply: FastifyReply) => {
    const ms = (req.body as { ms?: unknown } | undefined)?.ms;
    if (typeof ms !== 'number' || ms < 0) return reply.code(400).send({ error: 'ms must be a non-negative number' });
    emu.latencyMs = ms;
    return { latencyMs: ms };
  });
  app.post('/__sandbox/tokens/expire', async (req: FastifyRequest) => {
    const userId = (req.body as { userId?: string } | undefined)?.userId;
    return { expired: emu.oauth.expireAccessTokens(userId) };
  });
  app.post('/__sandbox/reset', async () => {
    emu.reset();
    return { reset: true };
  });
}

/** App credentials the emulators expect by default; Herald uses them in sandbox mode. Not secrets. */
export const SANDBOX_APP = { clientId: 'herald-sandbox', clientSecret: 'herald-sandbox-secret' } as const;

export interface EmulatorOptions {
  /** Clock for token expiry and processing states (default Date.now). */
  now?: () => number;
  /** App credentials the emulator accepts (default SANDBOX_APP). */
  clientId?: string;
  clientSecret?: string;
  /** How long platform-side processing (containers, uploads, publish status) takes, in ms (default 50). */
  processingMs?: number;
  /**
   * Origins whose media URLs the emulators really download, as the platform would (Herald's own media
   * address): read on each use. Other URLs are not fetched. Default none.
   */
  mediaOrigins?: () => readonly string[];
}

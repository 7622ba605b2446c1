// Rate limits as the server counts them (platforms.md §11.9): rack-attack's fixed windows aligned to the
// epoch (per token, per user, per address when unauthenticated, media uploads, deletes, paging) and the
// RateLimiter's `statuses` family. Every API answer carries X-RateLimit-Limit/-Remaining/-Reset of the
// tightest throttle, the reset an ISO 8601 time with microseconds; a 429 says `Too many requests` and
// sends no Retry-After. Unlike the real server, loopback clients are not exempt: tests run there.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerOf, callerOf, type MastodonContext } from './context.ts';
import { TEXT, isoMicro } from './envelope.ts';
import type { Window } from './state.ts';

interface Reading {
  limit: number;
  count: number;
  resetAt: number;
}

export class Counters {
  #counts = new Map<string, number>();

  /** Adds one to a window's count and returns the reading after it. */
  hit(name: string, who: string, w: Window, now: number): Reading {
    const period = w.periodS * 1000;
    const slot = Math.floor(now / period);
    const key = `${name}:${who}:${slot}`;
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    if (this.#counts.size > 50_000) this.#prune(now);
    return { limit: w.limit, count, resetAt: (slot + 1) * period };
  }

  /** The reading without counting. */
  peek(name: string, who: string, w: Window, now: number): Reading {
    const period = w.periodS * 1000;
    const slot = Math.floor(now / period);
    return { limit: w.limit, count: this.#counts.get(`${name}:${who}:${slot}`) ?? 0, resetAt: (slot + 1) * period };
  }

  #prune(now: number): void {
    // Windows are at most a few hours long: anything older than a day is over.
    for (const key of this.#counts.keys()) {
      const slot = Number(key.split(':').at(-1));
      if (!Number.isFinite(slot)) this.#counts.delete(key);
      else if (slot * 1000 < now - 86_400_000 * 2) this.#counts.delete(key);
    }
  }

  clear(): void {
    this.#counts.clear();
  }
}

export function rateHeaders(r: Reading): Record<string, string> {
  return { 'x-ratelimit-limit': String(r.limit), 'x-ratelimit-remaining': String(Math.max(0, r.limit - r.count)), 'x-ratelimit-reset': isoMicro(r.resetAt) };
}

export function sendThrottled(reply: FastifyReply, r: Reading): FastifyReply {
  return reply.code(429).headers({ ...rateHeaders(r), 'x-ratelimit-remaining': '0' }).send({ error: TEXT.tooManyRequests });
}

const MEDIA_POST = /^\/api\/v\d+\/media$/i;
const STATUS_DELETE = /^\/api\/v1\/statuses\/\d+$/;

/** Counts every /api request against the throttles that apply to it and answers 429 past any of them. */
export function installThrottle(app: FastifyInstance, ctx: MastodonContext, counters: Counters): void {
  const prefix = app.prefix;
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const path = (req.url.split('?')[0] ?? '').slice(prefix.length);
    if (!path.startsWith('/api/')) return;
    const limits = ctx.settings.rateLimits;
    const now = ctx.state.now();
    const token = bearerOf(req);
    const caller = token ? callerOf(ctx, token) : null;
    const user = caller && !('error' in caller) ? caller.user?.id : undefined;
    const readings: Reading[] = [];
    if (caller && !('error' in caller)) {
      readings.push(counters.hit('token', token!, limits.perToken, now));
      if (user) readings.push(counters.hit('user', user, limits.perUser, now));
    } else {
      readings.push(counters.hit('ip', req.ip, limits.unauthenticated, now));
    }
    const q = (req.query ?? {}) as Record<string, unknown>;
    if (q.max_id !== undefined || q.min_id !== undefined || q.since_id !== undefined) readings.push(counters.hit('paging', user ?? req.ip, limits.paging, now));
    if (user && req.method === 'POST' && MEDIA_POST.test(path)) readings.push(counters.hit('media', user, limits.media, now));
    if (user && req.method === 'DELETE' && STATUS_DELETE.test(path)) readings.push(counters.hit('deletes', user, limits.deletes, now));
    const over = readings.find((r) => r.count > r.limit);
    if (over) return sendThrottled(reply, over);
    const tightest = readings.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    reply.headers(rateHeaders(tightest));
  });
}

/** The statuses family on a create: 429 past it; otherwise counted, its headers sent when tighter. */
export function statusesFamily(ctx: MastodonContext, counters: Counters, reply: FastifyReply, accountId: string, record: boolean): { throttled: true } | { throttled: false } {
  const w = ctx.settings.rateLimits.statuses;
  const now = ctx.state.now();
  const before = counters.peek('statuses', accountId, w, now);
  if (record && before.count >= w.limit) {
    sendThrottled(reply, before);
    return { throttled: true };
  }
  const after = record ? counters.hit('statuses', accountId, w, now) : before;
  const current = Number(reply.getHeader('x-ratelimit-remaining') ?? Number.POSITIVE_INFINITY);
  if (after.limit - after.count < current) reply.headers(rateHeaders(after));
  return { throttled: false };
}

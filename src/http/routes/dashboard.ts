// The dashboard (API.md section 13): its page and assets under /app, and the few routes of its own under
// /app/api (sign-in and sign-out, the calendar's read, the platforms and event names). Everything else the
// dashboard does goes through the /v1 API with the session cookie in place of the key. None of these
// routes is part of the API for programs, so none is in /openapi.json.
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardAssets, StaticFile } from '../../dashboard/assets.ts';
import { errors } from '../../contract/errors.ts';
import type { ConnectKind } from '../../platforms/types.ts';
import type { CalendarDal } from '../../posts/calendar-dal.ts';
import type { SessionsService } from '../../sessions/sessions-service.ts';
import { installAuth, type AuthDeps } from '../auth.ts';
import { callerOf } from '../fastify-types.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { CSRF_HEADER, checkSameOrigin, readCookie } from '../session-guard.ts';

export interface DashboardPlatform {
  platform: string;
  displayName: string;
  connect: ConnectKind;
  /** False when neither the platform's app nor the sandbox serves it (its connect routes say so). */
  available: boolean;
}

export interface DashboardDeps {
  assets: DashboardAssets;
  sessions: SessionsService;
  calendar: CalendarDal;
  platforms: DashboardPlatform[];
  /** Webhook event names (the catalog), for the settings form and the log's filter. */
  events: string[];
  cookie: { name: string; secure: boolean };
  publicUrl(): string;
  auth: AuthDeps;
  badKeyLimiter: RateLimiter;
}

/**
 * Scripts and styles only from Herald itself, nothing inline, no eval; the page talks only to Herald;
 * images may be the platforms' (avatars, media by URL); no framing, no plugins, forms post only here.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const MAX_RANGE_MS = 62 * 24 * 60 * 60_000;
const CALENDAR_LIMIT = 5_000;

function securityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  // The OAuth callback's address carries a code: never sent on as a Referer.
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
}

function sendFile(req: FastifyRequest, reply: FastifyReply, file: StaticFile, cache: string) {
  securityHeaders(reply);
  reply.header('cache-control', cache);
  reply.header('etag', file.etag);
  reply.header('vary', 'accept-encoding');
  reply.type(file.contentType);
  if (req.headers['if-none-match'] === file.etag) return reply.code(304).send();
  if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    reply.header('content-encoding', 'gzip');
    return reply.send(file.gzip);
  }
  return reply.send(file.body);
}

export function dashboardRoutes(deps: DashboardDeps) {
  const cookie = (value: string, maxAge?: number) =>
    [
      `${deps.cookie.name}=${value}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      ...(deps.cookie.secure ? ['Secure'] : []),
      ...(maxAge === undefined ? [] : [`Max-Age=${maxAge}`]),
    ].join('; ');

  const sessionAnswer = (s: { caller: { id: string; name: string }; prefix: string; csrfToken: string }) => ({
    key: { id: s.caller.id, name: s.caller.name, prefix: s.prefix },
    csrfToken: s.csrfToken,
    idleTimeoutSeconds: Math.round(deps.sessions.idleMs / 1000),
  });

  return async (app: FastifyInstance) => {
    const page = async (req: FastifyRequest, reply: FastifyReply) => {
      if (!deps.assets.page) {
        securityHeaders(reply);
        return reply.code(503).type('text/plain; charset=utf-8').send('The dashboard is not built: run `npm run build:dashboard`.');
      }
      return sendFile(req, reply, deps.assets.page, 'no-cache');
    };
    app.get('/app', { schema: { hide: true } }, page);
    app.get('/app/*', { schema: { hide: true } }, page);
    app.get('/app/assets/:file', { schema: { hide: true } }, async (req, reply) => {
      const file = deps.assets.assets.get((req.params as { file: string }).file);
      if (!file) throw errors.notFound('no such dashboard file');
      return sendFile(req, reply, file, 'public, max-age=31536000, immutable');
    });

    await app.register(
      async (base) => {
        const api = base.withTypeProvider<TypeBoxTypeProvider>();
        api.addHook('onRequest', async (_req, reply) => {
          securityHeaders(reply);
          reply.header('cache-control', 'no-store');
        });
        api.get('/*', { schema: { hide: true } }, async (req) => {
          throw errors.notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
        });

        // Sign in: the key for a session cookie. Only from Herald's own page (a forged sign-in would put
        // a victim in the attacker's account).
        api.post(
          '/session',
          {
            schema: {
              hide: true,
              body: Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
            },
          },
          async (req, reply) => {
            checkSameOrigin(req, deps.publicUrl);
            const signed = await deps.sessions.signIn(req.body.key.trim());
            if (!signed) {
              const d = await deps.badKeyLimiter.consume(req.ip);
              if (!d.allowed) throw errors.rateLimited(Math.max(1, Math.ceil((d.resetAt - Date.now()) / 1000)));
              throw errors.auth('API key is unknown, malformed or revoked');
            }
            reply.header('set-cookie', cookie(signed.sessionId));
            return sessionAnswer(signed);
          },
        );

        // Sign out: ends the session in the database and clears the cookie. Answers 200 even when the
        // session had already ended, so the page can always return to the sign-in form.
        api.delete('/session', { schema: { hide: true } }, async (req, reply) => {
          checkSameOrigin(req, deps.publicUrl);
          const sessionId = readCookie(req.headers.cookie, deps.cookie.name);
          if (sessionId !== undefined && (await deps.sessions.authenticate(sessionId))) {
            const token = req.headers[CSRF_HEADER];
            if (typeof token !== 'string' || !deps.sessions.csrfMatches(sessionId, token)) {
              throw errors.crossOrigin(`signing out needs the session's token in ${CSRF_HEADER}`);
            }
            await deps.sessions.signOut(sessionId);
          }
          reply.header('set-cookie', cookie('', 0));
          return { signedOut: true };
        });

        await api.register(async (authed) => {
          const a = authed.withTypeProvider<TypeBoxTypeProvider>();
          installAuth(a, deps.auth);

          a.get('/session', { schema: { hide: true } }, async (req) => {
            const sessionId = readCookie(req.headers.cookie, deps.cookie.name);
            const found = req.headers.authorization === undefined && sessionId !== undefined ? await deps.sessions.authenticate(sessionId) : null;
            if (!found) throw errors.auth('no dashboard session; sign in with your API key');
            return sessionAnswer(found);
          });

          a.get('/meta', { schema: { hide: true } }, async () => ({ platforms: deps.platforms, events: deps.events }));

          a.get(
            '/calendar',
            {
              schema: {
                hide: true,
                querystring: Type.Object(
                  { from: Type.String({ format: 'date-time' }), to: Type.String({ format: 'date-time' }) },
                  { additionalProperties: false },
                ),
              },
            },
            async (req) => {
              const from = Date.parse(req.query.from);
              const to = Date.parse(req.query.to);
              if (!(from < to)) throw errors.invalid('to', 'to must be after from');
              if (to - from > MAX_RANGE_MS) throw errors.invalid('to', 'the calendar reads at most 62 days at once');
              const { posts, truncated } = await deps.calendar.between(callerOf(req).id, from, to, CALENDAR_LIMIT);
              return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), posts, truncated };
            },
          );
        });
      },
      { prefix: '/app/api' },
    );
  };
}

// How the API tells a dashboard session's own requests from forged ones (API.md section 13).
//
// The session cookie is HttpOnly and SameSite=Strict, so other sites' pages never send it. SameSite
// alone does not separate origins of the same site (another port or scheme on the same host), so every
// request made with the session must also pass, when it changes state (any method but GET and HEAD):
//   1. Sec-Fetch-Site, when the browser sends it (all current ones do), is `same-origin`;
//   2. Origin is present and is Herald's own origin: HERALD_PUBLIC_URL's, or the scheme and Host the
//      request itself arrived with (a direct visit to 127.0.0.1 while the public URL names a proxy);
//   3. the header X-Herald-CSRF carries the session's token, which only Herald's page can read (from
//      the sign-in answer or GET /app/api/session; a cross-origin page cannot read either). A custom
//      header also makes any cross-origin fetch a CORS preflight, which Herald never approves.
// Reads (GET, HEAD) made with the session are refused when Sec-Fetch-Site says another site or origin
// sent them (`cross-site`, `same-site`): they change nothing, but nothing but Herald's page needs them.
import type { FastifyRequest } from 'fastify';
import { errors } from '../contract/errors.ts';

export const CSRF_HEADER = 'x-herald-csrf';
const SAFE = new Set(['GET', 'HEAD']);

export function ownOrigins(req: FastifyRequest, publicUrl: () => string): string[] {
  const origins = [new URL(publicUrl()).origin];
  // Fastify's `host` is the Host header (X-Forwarded-Host only behind trusted proxies), port included.
  const host = req.host;
  if (host) {
    try {
      origins.push(new URL(`${req.protocol}://${host}`).origin);
    } catch {
      // a Host header that is no host: only the public URL counts
    }
  }
  return origins;
}

/** Throws 403 CSRF_REJECTED unless the request comes from Herald's own page. `token` is checked by the caller. */
export function checkSameOrigin(req: FastifyRequest, publicUrl: () => string): void {
  const site = req.headers['sec-fetch-site'];
  const safe = SAFE.has(req.method);
  if (typeof site === 'string' && site !== 'same-origin' && !(safe && site === 'none')) {
    throw errors.crossOrigin(`a request sent by another ${site === 'same-site' ? 'origin' : 'site'} (Sec-Fetch-Site: ${site}) cannot use the dashboard session`);
  }
  if (safe) return;
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') {
    throw errors.crossOrigin('a request that changes something with the dashboard session must carry its Origin');
  }
  if (!ownOrigins(req, publicUrl).includes(origin)) {
    throw errors.crossOrigin(`requests from ${origin} cannot use the dashboard session; only Herald's own pages can`);
  }
}

/** The cookie's name: `__Host-` bound to this origin (Secure, Path=/, no Domain) when served over https. */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-herald_session' : 'herald_session';
}

/** The value of one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

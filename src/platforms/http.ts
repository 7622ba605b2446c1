// HTTP for platform calls. The one thing that matters beyond fetch: telling "never reached the platform"
// (safe to retry) apart from "may have reached it" (must be reconciled before any re-send).

export type HttpBody =
  | { json: unknown }
  | { form: Record<string, string | number | boolean | undefined> }
  | { multipart: FormData }
  | { bytes: Uint8Array; contentType: string }
  | Record<string, never>;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: HttpBody;
  /** Overrides the client's default time-out. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type HttpResult =
  | { sent: true; status: number; headers: Headers; body: unknown; text: string }
  /** Refused or unreachable before the request left: nothing happened at the platform. */
  | { sent: false; error: string }
  /** Timed out or cut off after the request may have been received: outcome unknown. */
  | { sent: 'unknown'; error: string };

export interface PlatformHttp {
  request(req: HttpRequest): Promise<HttpResult>;
}

export interface HttpCallInfo {
  method: string;
  /** Host and path only: query strings can carry tokens (Graph's access_token), so they are dropped. */
  target: string;
  status: number | 'not_sent' | 'unknown';
  durationMs: number;
}

export interface PlatformHttpOptions {
  timeoutMs: number;
  onCall?: (info: HttpCallInfo) => void;
  fetch?: typeof fetch;
}

const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
  // The outbound address guard refused the server (user-named servers only): nothing was sent.
  'HERALD_BLOCKED_ADDRESS',
]);

export function buildUrl(url: string, query?: HttpRequest['query']): string {
  if (!query) return url;
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

function encodeBody(body: HttpBody | undefined): { body?: RequestInit['body']; contentType?: string } {
  if (!body) return {};
  if ('json' in body) return { body: JSON.stringify(body.json), contentType: 'application/json' };
  if ('form' in body) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(body.form)) if (v !== undefined) params.set(k, String(v));
    return { body: params.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  if ('multipart' in body) return { body: body.multipart };
  if ('bytes' in body) return { body: body.bytes as Uint8Array<ArrayBuffer>, contentType: body.contentType };
  return {};
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Classifies a fetch exception: did the request possibly reach the platform? */
export function classifyFetchError(err: unknown): { sent: false | 'unknown'; error: string } {
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return { sent: 'unknown', error: 'timed out waiting for the platform' };
  const code = errorCode(err);
  if (code && NOT_SENT_CODES.has(code)) return { sent: false, error: `could not reach the platform (${code})` };
  return { sent: 'unknown', error: `connection to the platform failed${code ? ` (${code})` : ''}` };
}

export function createPlatformHttp(options: PlatformHttpOptions): PlatformHttp {
  const doFetch = options.fetch ?? fetch;
  return {
    async request(req) {
      const url = buildUrl(req.url, req.query);
      const { body, contentType } = encodeBody(req.body);
      const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
      if (contentType && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = contentType;
      }
      const timeout = AbortSignal.timeout(req.timeoutMs ?? options.timeoutMs);
      const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
      const started = performance.now();
      const parsed = new URL(url);
      const target = `${parsed.host}${parsed.pathname}`;
      try {
        const res = await doFetch(url, { method: req.method, headers, body, signal, redirect: 'manual' });
        const text = await res.text();
        let parsedBody: unknown = text;
        if (text.length > 0 && /json/i.test(res.headers.get('content-type') ?? 'application/json')) {
          try {
            parsedBody = JSON.parse(text);
          } catch {
            parsedBody = text;
          }
        }
        options.onCall?.({ method: req.method, target, status: res.status, durationMs: performance.now() - started });
        return { sent: true, status: res.status, headers: res.headers, body: parsedBody, text };
      } catch (err) {
        const classified = classifyFetchError(err);
        options.onCall?.({
          method: req.method,
          target,
          status: classified.sent === false ? 'not_sent' : 'unknown',
          durationMs: performance.now() - started,
        });
        return classified;
      }
    },
  };
}

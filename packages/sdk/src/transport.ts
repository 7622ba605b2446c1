// The fetch every call goes through: retries of 429 and 5xx with backoff that honours Retry-After (within
// a bound), and of requests that got no answer, but only when repeating them cannot apply them twice:
// safe methods, and requests that carry an Idempotency-Key or Idempotency-Window (the same key every time).
import { HeraldConnectionError } from './errors.ts';

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries: number;
  /** The longest wait before a retry, Retry-After included: a longer Retry-After is not waited for (default 30 s). */
  maxRetryDelayMs: number;
  /** First backoff step (default 250 ms), doubled each retry. */
  baseDelayMs: number;
}

const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

function repeatable(request: Request): boolean {
  return REPEATABLE_METHODS.has(request.method) || request.headers.has('idempotency-key') || request.headers.has('idempotency-window');
}

/** Retry-After as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(response: Response, now = Date.now()): number | null {
  const value = response.headers.get('retry-after');
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function retryingFetch(fetchImpl: (request: Request) => Promise<Response>, options: RetryOptions) {
  return async (request: Request): Promise<Response> => {
    const canRepeat = repeatable(request);
    for (let attempt = 0; ; attempt++) {
      const backoff = Math.min(options.maxRetryDelayMs, options.baseDelayMs * 2 ** attempt) * (0.75 + Math.random() * 0.5);
      const last = attempt >= options.maxRetries;
      let response: Response;
      try {
        // A clone per attempt: the original keeps its body for the next one.
        response = await fetchImpl(last ? request : request.clone());
      } catch (err) {
        if (last || !canRepeat) throw new HeraldConnectionError(request.method, request.url, err);
        await sleep(backoff);
        continue;
      }
      const retryable = response.status === 429 || (canRepeat && response.status >= 500 && response.status !== 501);
      if (!retryable || last) return response;
      const wait = retryAfterMs(response) ?? backoff;
      if (wait > options.maxRetryDelayMs) return response;
      await response.body?.cancel().catch(() => {});
      await sleep(wait);
    }
  };
}

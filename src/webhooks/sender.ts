// Sends one signed webhook request through the SSRF-guarded outbound client and says what came of it.
// Success is a 2xx within the time-out; a redirect is an answer, never followed; a 410 means "stop".
import { performance } from 'node:perf_hooks';
import type { Clock } from '../lib/clock.ts';
import type { OutboundClient } from '../net/outbound.ts';
import { signDelivery } from './signing.ts';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** Receivers' answers are read (and dropped) up to this size; a larger one fails the attempt. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface SendInput {
  url: string;
  secret: string;
  eventId: string;
  event: string;
  /** The stored body, sent byte for byte. */
  body: string;
}

export interface AttemptResult {
  delivered: boolean;
  /** The receiver said 410 Gone: deliveries to this URL stop. */
  gone: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  startedAt: number;
}

export interface WebhookSender {
  send(input: SendInput): Promise<AttemptResult>;
}

export function createWebhookSender(deps: { client: OutboundClient; clock: Clock; userAgent: string; timeoutMs?: number }): WebhookSender {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  return {
    async send(input) {
      const startedAt = deps.clock.now();
      const signed = signDelivery({
        secret: input.secret,
        eventId: input.eventId,
        event: input.event,
        body: input.body,
        timestampSeconds: Math.floor(startedAt / 1000),
        userAgent: deps.userAgent,
      });
      const t0 = performance.now();
      const res = await deps.client.request({
        method: 'POST',
        url: input.url,
        headers: signed.headers,
        body: signed.body,
        timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        maxRedirects: 0,
      });
      const durationMs = Math.round(performance.now() - t0);
      const base = { startedAt, durationMs };
      if (!res.ok) {
        const error =
          res.reason === 'blocked'
            ? `blocked: ${res.message}`
            : res.reason === 'timeout'
              ? `no answer within ${timeoutMs} ms`
              : res.message;
        return { ...base, delivered: false, gone: false, statusCode: null, error };
      }
      const status = res.status;
      if (status >= 200 && status < 300) return { ...base, delivered: true, gone: false, statusCode: status, error: null };
      if (status === 410) {
        return { ...base, delivered: false, gone: true, statusCode: status, error: 'the receiver answered 410 Gone: deliveries to this URL are stopped' };
      }
      if (status >= 300 && status < 400) {
        const location = res.headers.get('location');
        return { ...base, delivered: false, gone: false, statusCode: status, error: `redirects are not followed (HTTP ${status}${location ? ` to ${location}` : ''})` };
      }
      return { ...base, delivered: false, gone: false, statusCode: status, error: `the receiver answered HTTP ${status}` };
    },
  };
}

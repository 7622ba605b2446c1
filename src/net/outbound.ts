// HTTP to user-supplied URLs (media files, webhook receivers): address guard at connect time,
// redirects followed only by hand and re-checked, time and size capped.
import { Agent, fetch as undiciFetch } from 'undici';
import { BlockedAddressError, checkOutboundUrl, guardedLookupAllowing } from './address.ts';

export interface OutboundRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  timeoutMs: number;
  /** Stop reading (and fail) past this many response bytes. */
  maxBytes: number;
  /** 0: a redirect is an answer like any other. */
  maxRedirects: number;
}

export type OutboundResult =
  | { ok: true; status: number; headers: Headers; body: Uint8Array; url: string }
  | { ok: false; reason: 'blocked' | 'invalid_url' | 'timeout' | 'too_large' | 'network'; message: string };

/** An answer whose body is still to be read (media imports stream it to storage). */
export type OutboundStream =
  | { ok: true; status: number; headers: Headers; body: ReadableStream<Uint8Array> | null; url: string }
  | { ok: false; reason: 'blocked' | 'invalid_url' | 'timeout' | 'network'; message: string };

export interface OutboundClient {
  request(req: OutboundRequest): Promise<OutboundResult>;
  /**
   * As request, but answers once the headers are in: the caller reads (and caps) the body itself. The
   * time limit still covers the whole transfer, body included.
   */
  open(req: Omit<OutboundRequest, 'maxBytes'>): Promise<OutboundStream>;
  close(): Promise<void>;
}

function isBlocked(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof BlockedAddressError || (e as { code?: string }).code === 'HERALD_BLOCKED_ADDRESS') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function createOutboundClient(options: {
  allowPrivateNetworks: boolean;
  /** This machine's loopback addresses are allowed too (private ranges still are not). */
  allowLoopback?: boolean;
  userAgent: string;
}): OutboundClient {
  const allowPrivate = options.allowPrivateNetworks;
  const allowLoopback = options.allowLoopback ?? false;
  const agent = new Agent({
    connect: allowPrivate ? {} : { lookup: guardedLookupAllowing(allowLoopback) as never },
    keepAliveTimeout: 10_000,
  });

  async function open(req: Omit<OutboundRequest, 'maxBytes'>): Promise<OutboundStream> {
    let url = req.url;
    const deadline = AbortSignal.timeout(req.timeoutMs);
    for (let hop = 0; ; hop++) {
      const check = checkOutboundUrl(url, allowPrivate, allowLoopback);
      if (!check.ok) return { ok: false, reason: check.message.includes('address') ? 'blocked' : 'invalid_url', message: `URL ${check.message}` };
      let res;
      try {
        res = await undiciFetch(check.url, {
          method: req.method,
          headers: { 'user-agent': options.userAgent, ...req.headers },
          body: req.body,
          redirect: 'manual',
          signal: deadline,
          dispatcher: agent,
        });
      } catch (err) {
        if (isBlocked(err)) return { ok: false, reason: 'blocked', message: `${check.url.hostname} resolves to a private, loopback or reserved address` };
        const name = (err as { name?: string }).name;
        if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: 'timeout', message: `no answer within ${req.timeoutMs} ms` };
        const code = (err as { cause?: { code?: string } }).cause?.code;
        return { ok: false, reason: 'network', message: `could not connect${code ? ` (${code})` : ''}` };
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location && hop < req.maxRedirects) {
        await res.body?.cancel();
        url = new URL(location, check.url).toString();
        continue;
      }
      return { ok: true, status: res.status, headers: res.headers as unknown as Headers, body: res.body as ReadableStream<Uint8Array> | null, url: check.url.toString() };
    }
  }

  return {
    open,
    async request(req) {
      const res = await open(req);
      if (!res.ok) return res;
      let body: Uint8Array | null;
      try {
        body = await readCapped(res.body, req.maxBytes);
      } catch (err) {
        const name = (err as { name?: string }).name;
        if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: 'timeout', message: `no answer within ${req.timeoutMs} ms` };
        return { ok: false, reason: 'network', message: 'the connection broke while reading the answer' };
      }
      if (body === null) return { ok: false, reason: 'too_large', message: `answer is larger than ${req.maxBytes} bytes` };
      return { ok: true, status: res.status, headers: res.headers, body, url: res.url };
    },
    close: () => agent.close(),
  };
}

// Downloads media for platforms that need the bytes (X uploads, TikTok file uploads), through the guard.
import type { MediaFetcher } from '../platforms/deps.ts';
import type { OutboundClient } from './outbound.ts';

export function createMediaFetcher(client: OutboundClient, options: { timeoutMs: number }): MediaFetcher {
  return {
    async fetch(url, { maxBytes }) {
      const res = await client.request({ method: 'GET', url, timeoutMs: options.timeoutMs, maxBytes, maxRedirects: 3 });
      if (!res.ok) {
        const transient = res.reason === 'timeout' || res.reason === 'network';
        return { ok: false, transient, message: `media ${url} could not be fetched: ${res.message}` };
      }
      if (res.status >= 400) {
        return { ok: false, transient: res.status >= 500 || res.status === 429, message: `media ${url} answered HTTP ${res.status}` };
      }
      if (res.status >= 300) return { ok: false, transient: false, message: `media ${url} redirects too many times` };
      const contentType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
      return { ok: true, bytes: res.body, contentType };
    },
  };
}

// Media bytes for the platforms that need them (X uploads, TikTok file uploads, …): a user's URL is downloaded
// through the guard; library media is read from Herald's media store by `readStored` (where the process has one).
import type { MediaFetcher, MediaFetchResult } from '../platforms/deps.ts';
import type { StoredMedia } from '../platforms/types.ts';
import type { OutboundClient } from './outbound.ts';

export interface MediaFetcherOptions {
  timeoutMs: number;
  /**
   * Origins allowed past the address rule (the built-in sandbox's sample files on loopback), with the
   * client that may reach them. Read on each fetch, since the sandbox learns its port when it listens.
   */
  trusted?: { origins: () => string[]; client: OutboundClient };
  /**
   * Reads a library file from the media store; null when this process's store has no such file (a disk
   * store on another machine), which is then downloaded from its URL, as is all media without this option.
   */
  readStored?: (stored: StoredMedia, maxBytes: number) => Promise<MediaFetchResult | null>;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function createMediaFetcher(client: OutboundClient, options: MediaFetcherOptions): MediaFetcher {
  return {
    async fetch({ url, stored }, { maxBytes }) {
      const read = stored && options.readStored ? await options.readStored(stored, maxBytes) : null;
      if (read) return read;
      const origin = originOf(url);
      const trusted = origin !== null && options.trusted?.origins().includes(origin);
      const via = trusted ? options.trusted!.client : client;
      const res = await via.request({ method: 'GET', url, timeoutMs: options.timeoutMs, maxBytes, maxRedirects: trusted ? 0 : 3 });
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

// Herald's outbound HTTP clients, each with its address rule: user-named URLs (media, imports) only to the
// public internet, webhook receivers also on loopback when allowed, the sandbox's own loopback origin trusted.
import type { Config } from '../config.ts';
import { createMediaFetcher } from '../net/media-fetcher.ts';
import { createOutboundClient, type OutboundClient } from '../net/outbound.ts';
import { createSharedReader } from '../media/read-whole.ts';
import type { MediaStore } from '../media/store.ts';
import type { MediaFetcher, MediaFetchResult } from '../platforms/deps.ts';
import type { StoredMedia } from '../platforms/types.ts';
import { createServerFetch } from '../net/server-fetch.ts';

const USER_AGENT = 'Herald (+https://github.com/herald)';

/**
 * Library media for the adapters that upload bytes: read from the store, with a download's size cap and
 * outcomes; null for a file a disk store does not have (the fetcher then downloads its URL).
 */
function storeReader(store: MediaStore) {
  const readShared = createSharedReader(store);
  return async ({ key, contentType }: StoredMedia, maxBytes: number): Promise<MediaFetchResult | null> => {
    const read = await readShared(key, maxBytes);
    if (read.ok) return { ok: true, bytes: read.bytes, contentType };
    // Another machine's disk store may hold it (downloaded from its URL then); a bucket is every process's.
    if (read.reason === 'not_found' && store.kind === 'disk') return null;
    return { ok: false, transient: read.reason === 'unavailable', message: `library file ${key} could not be read: ${read.message}` };
  };
}

export function createOutbound(config: Config, sandboxOrigins: () => string[], mediaStore: MediaStore) {
  const outbound = createOutboundClient({ allowPrivateNetworks: config.allowPrivateNetworks, userAgent: USER_AGENT });
  // Webhook receivers may also be on this machine's loopback when allowLoopback (the sandbox default).
  const webhooks: OutboundClient =
    config.allowLoopback && !config.allowPrivateNetworks ? createOutboundClient({ allowPrivateNetworks: false, allowLoopback: true, userAgent: USER_AGENT }) : outbound;
  const trusted = createOutboundClient({ allowPrivateNetworks: true, userAgent: 'Herald' });
  const mediaFetcher: MediaFetcher = createMediaFetcher(outbound, {
    timeoutMs: 60_000,
    // The sandbox's own sample files live on loopback; they are the one private origin media may use.
    trusted: config.sandbox ? { origins: sandboxOrigins, client: trusted } : undefined,
    readStored: storeReader(mediaStore),
  });
  const serverFetch = createServerFetch({ allowPrivateNetworks: config.allowPrivateNetworks, trustedOrigins: sandboxOrigins });

  /** Opens a URL to import into the media library (POST /v1/media/import). */
  async function openImport(url: string) {
    const timeoutMs = config.media.importTimeoutMs;
    let origin: string | null = null;
    try {
      origin = new URL(url).origin;
    } catch {
      origin = null;
    }
    if (origin === null || !sandboxOrigins().includes(origin)) return outbound.open({ method: 'GET', url, timeoutMs, maxRedirects: 3 });
    // The sandbox's own files live on loopback (the one private origin allowed, like the media fetcher's);
    // a redirect from there is followed by the guarded client, so the trust stays with that origin.
    const res = await trusted.open({ method: 'GET', url, timeoutMs, maxRedirects: 0 });
    const location = res.ok && res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (!res.ok || !location) return res;
    await res.body?.cancel().catch(() => {});
    return outbound.open({ method: 'GET', url: new URL(location, url).toString(), timeoutMs, maxRedirects: 2 });
  }

  return {
    webhooks,
    mediaFetcher,
    serverFetch,
    openImport,
    async close() {
      await Promise.all([...[...new Set([outbound, webhooks, trusted])].map((c) => c.close()), serverFetch.close()]);
    },
  };
}

// fetch for platform calls to servers the user names (a Mastodon instance, a Bluesky PDS): the same
// address rule as media and webhooks (API.md section 9), applied when the connection is made, so a name
// that resolves to a private address — or is re-pointed at one later — is refused. Redirects are never
// followed (PlatformHttp asks for manual redirects). Trusted origins (the built-in sandbox on loopback)
// pass, as they do for media.
import { Agent, fetch as undiciFetch } from 'undici';
import { BlockedAddressError, checkOutboundUrl, guardedLookup } from './address.ts';

export interface ServerFetchOptions {
  allowPrivateNetworks: boolean;
  /** Origins allowed past the address rule; read on each call (the sandbox learns its port late). */
  trustedOrigins?: () => string[];
}

export interface ServerFetch {
  fetch: typeof fetch;
  close(): Promise<void>;
}

export function createServerFetch(options: ServerFetchOptions): ServerFetch {
  const guarded = new Agent({ connect: options.allowPrivateNetworks ? {} : { lookup: guardedLookup as never }, keepAliveTimeout: 10_000 });
  const open = new Agent({ keepAliveTimeout: 10_000 });
  const serverFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const origin = new URL(url).origin;
    const trusted = options.trustedOrigins?.().includes(origin) ?? false;
    if (!trusted) {
      const check = checkOutboundUrl(url, options.allowPrivateNetworks);
      // Thrown with the code PlatformHttp reads as "never sent": nothing reached any server.
      if (!check.ok) throw new BlockedAddressError(new URL(url).hostname);
    }
    return undiciFetch(url, { ...(init as object), dispatcher: trusted ? open : guarded } as never) as unknown as Response;
  }) as typeof fetch;
  return { fetch: serverFetch, close: async () => void (await Promise.all([guarded.close(), open.close()])) };
}

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

/**
 * undici's own fetch does not recognise the global FormData (Node bundles another copy of undici) and would
 * send it as the text "[object FormData]": a multipart body is encoded to bytes with its boundary first.
 */
async function portableBody(init: RequestInit | undefined): Promise<object> {
  if (!(init?.body instanceof FormData)) return { ...init };
  const encoded = new Response(init.body);
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  headers['content-type'] = encoded.headers.get('content-type')!;
  return { ...init, headers, body: new Uint8Array(await encoded.arrayBuffer()) };
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
    return undiciFetch(url, { ...(await portableBody(init)), dispatcher: trusted ? open : guarded } as never) as unknown as Response;
  }) as typeof fetch;
  return { fetch: serverFetch, close: async () => void (await Promise.all([guarded.close(), open.close()])) };
}

// Media URLs that platforms fetch themselves (Meta's crawler, Threads, TikTok's PULL_FROM_URL) are
// fetched from the public internet: a URL on a loopback or private host is out of their reach. The
// emulators judge the URL as the platform's fetch would end; they download only from Herald's own
// origins (EmulatorOptions.mediaOrigins), which stand for Herald's public URL, reachable by the platforms.
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../../net/address.ts';

function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
}

function isPrivateHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || (ipaddr.isValid(host) && !isPublicAddress(host));
}

/**
 * Why the platform could not fetch `raw`, or undefined when it could. `ownBase` is the emulator's own
 * origin as the caller reached it: that one host counts as reachable (the sandbox's sample media, and
 * Herald's own files when the sandbox is built in), also under another loopback name on the same port
 * (`localhost:3000` for `127.0.0.1:3000`). Hosts are judged as written: literal addresses and `localhost`;
 * other names are not resolved (a name that resolves to a private address passes).
 */
export function unreachableMediaUrl(raw: string, ownBase: string, heraldOrigins: readonly string[] = []): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL';
  if (url.username || url.password) return 'carries credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!isPrivateHost(host) || heraldOrigins.includes(url.origin)) return undefined;
  let own: URL | undefined;
  try {
    own = new URL(ownBase);
  } catch {
    own = undefined;
  }
  if (own && url.origin === own.origin) return undefined;
  const ownHost = own?.hostname.replace(/^\[|\]$/g, '');
  if (own && ownHost && url.port === own.port && isLoopbackName(host) && isLoopbackName(ownHost)) return undefined;
  return 'is on a loopback or private host the platform cannot reach';
}

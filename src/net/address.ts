// Which addresses user-supplied URLs may reach (API.md section 9): public unicast only, unless the
// operator allows private networks. Checked on the resolved address at connect time, so DNS tricks and
// odd spellings (2130706433, [::ffff:127.0.0.1], 0x7f.1) end up at the same test.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

function rangeOf(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range();
}

export function isPublicAddress(address: string): boolean {
  return rangeOf(address) === 'unicast';
}

/** Public, or (when `allowLoopback`) this machine's loopback: 127.0.0.0/8, ::1 and their mapped forms. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  const range = rangeOf(address);
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** Static checks on a URL: scheme, credentials, and literal IP hosts (which skip DNS). */
export function checkOutboundUrl(raw: string, allowPrivate: boolean, allowLoopback = false): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'is not a valid absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, message: 'must use http or https' };
  if (url.username || url.password) return { ok: false, message: 'must not contain credentials' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host) && !isAllowedAddress(host, allowLoopback)) {
    return { ok: false, message: 'points at a private, loopback or reserved address' };
  }
  return { ok: true, url };
}

export class BlockedAddressError extends Error {
  readonly code = 'HERALD_BLOCKED_ADDRESS';
  constructor(host: string) {
    super(`${host} resolves to a private, loopback or reserved address`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

type Lookup = (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => void;

/**
 * A dns.lookup replacement for sockets: refuses to connect when any resolved address is not public
 * (loopback excepted when `allowLoopback`).
 */
export function guardedLookupAllowing(allowLoopback: boolean): Lookup {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true } as { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((a) => !isAllowedAddress(a.address, allowLoopback))) {
        return callback(new BlockedAddressError(hostname) as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** The strict guard: public addresses only. */
export const guardedLookup: Lookup = guardedLookupAllowing(false);

/**
 * Resolves a host now and tells whether every address is public, or loopback when `allowLoopback`
 * (settings-time check).
 */
export async function resolvesToPublic(hostname: string, allowLoopback = false): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return isAllowedAddress(host, allowLoopback);
  return new Promise((resolve) => {
    dnsLookup(host, { all: true }, (err, addresses) => {
      if (err || addresses.length === 0) return resolve(false);
      resolve(addresses.every((a) => isAllowedAddress(a.address, allowLoopback)));
    });
  });
}

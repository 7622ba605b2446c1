// Test names for the resolver: makes dns.lookup (and every live `import { lookup } from 'node:dns'`
// binding, such as the SSRF guard's) answer chosen addresses for chosen host names, in this process.
// Other names resolve as usual.
import dns, { type LookupAddress } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';

type Callback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Resolves each name of `hosts` to its address until the returned function is called. */
export function overrideLookup(hosts: Record<string, string>): () => void {
  const original = dns.lookup;
  const fake = (hostname: string, options: unknown, callback?: Callback) => {
    const cb = (typeof options === 'function' ? options : callback) as Callback;
    const opts = (typeof options === 'function' ? {} : typeof options === 'number' ? { family: options } : (options ?? {})) as { all?: boolean };
    const address = hosts[hostname.toLowerCase()];
    if (address === undefined) return (original as Function).call(dns, hostname, options, callback);
    const family = address.includes(':') ? 6 : 4;
    process.nextTick(() => (opts.all ? cb(null, [{ address, family }]) : cb(null, address, family)));
  };
  (dns as { lookup: unknown }).lookup = fake;
  syncBuiltinESMExports();
  return () => {
    (dns as { lookup: unknown }).lookup = original;
    syncBuiltinESMExports();
  };
}

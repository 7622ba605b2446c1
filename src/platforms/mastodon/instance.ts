// What an instance says about itself (GET /api/v2/instance, public; platforms.md §11.5): its domain
// (the one in handles and status URLs) and its limits. Read afresh at connect and at every health check;
// before publishing, an answer up to an hour old will do.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformFailure } from '../types.ts';
import { asObject, asString, callInstance } from './client.ts';
import { INSTANCE_CACHE_MS } from './info.ts';
import { limitsFromInstance, type InstanceLimits } from './limits.ts';

export interface InstanceFacts {
  domain: string;
  version?: string;
  limits: InstanceLimits;
}

/** `fresh` reads the instance now (health checks); otherwise an answer up to an hour old will do. */
export type InstanceReader = (instance: string, options?: { fresh?: boolean; signal?: AbortSignal }) => Promise<{ ok: true; facts: InstanceFacts } | PlatformFailure>;

/** A v2 answer names the domain `domain`; a v1 answer (servers before 4.0) names it `uri`. */
export function factsFromBody(body: unknown, instance: string): InstanceFacts {
  const b = asObject(body) ?? {};
  const domain = asString(b.domain) ?? asString(b.uri)?.replace(/^https?:\/\//, '') ?? new URL(instance).host;
  const facts: InstanceFacts = { domain, limits: limitsFromInstance(b) };
  const version = asString(b.version);
  if (version) facts.version = version;
  return facts;
}

/** A reader with a per-instance cache; failures are not cached. */
export function createInstanceReader(deps: AdapterDeps): InstanceReader {
  const cache = new Map<string, { at: number; facts: InstanceFacts }>();
  return async (instance, options = {}) => {
    const { signal } = options;
    const hit = cache.get(instance);
    const now = deps.clock.now();
    if (hit && !options.fresh && now - hit.at < INSTANCE_CACHE_MS) return { ok: true, facts: hit.facts };
    const label = `Mastodon instance ${instance} did not describe itself`;
    let res = await callInstance(deps, { method: 'GET', instance, path: '/api/v2/instance', label, signal });
    // Servers before 4.0 have only the v1 description.
    if (!res.ok && res.httpStatus === 404) res = await callInstance(deps, { method: 'GET', instance, path: '/api/v1/instance', label, signal });
    if (!res.ok) return res;
    const facts = factsFromBody(res.body, instance);
    cache.set(instance, { at: now, facts });
    return { ok: true, facts };
  };
}

/** The facts Herald keeps on the account's meta. */
export function instanceMeta(facts: InstanceFacts): Record<string, unknown> {
  return { domain: facts.domain, limits: facts.limits };
}

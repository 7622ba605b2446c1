// The typed registry: one adapter per platform, a missing one is a compile error.
import type { AdapterDeps } from './deps.ts';
import { createFacebookAdapter } from './facebook/adapter.ts';
import { createInstagramAdapter } from './instagram/adapter.ts';
import { createThreadsAdapter } from './threads/adapter.ts';
import { createTikTokAdapter } from './tiktok/adapter.ts';
import { createTwitterAdapter } from './twitter/adapter.ts';
import type { Platform, PlatformAdapter } from './types.ts';

export type PlatformRegistry = Record<Platform, PlatformAdapter>;

const FACTORIES: Record<Platform, (deps: AdapterDeps) => PlatformAdapter> = {
  twitter: createTwitterAdapter,
  facebook: createFacebookAdapter,
  instagram: createInstagramAdapter,
  threads: createThreadsAdapter,
  tiktok: createTikTokAdapter,
};

export function createPlatformRegistry(depsFor: (platform: Platform) => AdapterDeps): PlatformRegistry {
  return Object.fromEntries(
    (Object.keys(FACTORIES) as Platform[]).map((p) => [p, FACTORIES[p](depsFor(p))]),
  ) as PlatformRegistry;
}

// The registry: the list of platform descriptors. Every other part of Herald learns about platforms
// from here (names, settings, rules, adapters, emulators), so adding a platform is one line below.
import { StringEnum } from '../contract/schemas.ts';
import type { AdapterDeps } from './deps.ts';
import { bluesky } from './bluesky/index.ts';
import type { PlatformDescriptor } from './descriptor.ts';
import { facebook } from './facebook/index.ts';
import { instagram } from './instagram/index.ts';
import { linkedin } from './linkedin/index.ts';
import { pinterest } from './pinterest/index.ts';
import { mastodon } from './mastodon/index.ts';
import { threads } from './threads/index.ts';
import { tiktok } from './tiktok/index.ts';
import { twitter } from './twitter/index.ts';
import type { PlatformAdapter } from './types.ts';
import { youtube } from './youtube/index.ts';

const DESCRIPTORS = [instagram, facebook, threads, tiktok, twitter, linkedin, youtube, bluesky, pinterest, mastodon] as const;

export type Platform = (typeof DESCRIPTORS)[number]['name'];

/** Every platform's descriptor, in the registry's order. */
export const PLATFORM_DESCRIPTORS: readonly PlatformDescriptor<Platform>[] = DESCRIPTORS;

/** The platform names, in the registry's order (the order of the OpenAPI enum and of the docs). */
export const PLATFORMS: readonly Platform[] = PLATFORM_DESCRIPTORS.map((d) => d.name);

/** The platform name as every schema takes it (the OpenAPI enum). */
export const PlatformName = StringEnum(PLATFORMS, { description: 'Platform name.' });

const BY_NAME = new Map<string, PlatformDescriptor>(PLATFORM_DESCRIPTORS.map((d) => [d.name, d]));

export function isPlatform(name: string): name is Platform {
  return BY_NAME.has(name);
}

/** The descriptor of a platform; a name from the database or a route has been checked to be one. */
export function descriptorOf(name: string): PlatformDescriptor {
  const d = BY_NAME.get(name);
  if (!d) throw new Error(`unknown platform ${name}`);
  return d;
}

export type PlatformRegistry = Record<Platform, PlatformAdapter>;

export function createPlatformRegistry(depsFor: (platform: Platform) => AdapterDeps): PlatformRegistry {
  return Object.fromEntries(PLATFORM_DESCRIPTORS.map((d) => [d.name, d.createAdapter(depsFor(d.name))])) as PlatformRegistry;
}

// The media rules of every registered platform, as the tests read them: each platform's own
// (src/platforms/<name>/media-rules.ts, exported through its descriptor).
import type { MediaRules } from '../../../src/media/rules.ts';
import { PLATFORM_DESCRIPTORS, type Platform } from '../../../src/platforms/registry.ts';

export type DraftPlatform = Platform;

export const DRAFT_RULES = Object.fromEntries(
  PLATFORM_DESCRIPTORS.filter((d) => d.mediaRules).map((d) => [d.name, d.mediaRules!]),
) as Record<Platform, MediaRules>;

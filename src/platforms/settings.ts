// Which schema checks a target's platformSpecificData, and which post-level settings object a
// platform reads, as data rather than a switch.
import type { TSchema } from 'typebox';
import type { Platform } from './types.ts';
import { TwitterSettingsSchema } from './twitter/settings.ts';
import { ThreadsSettingsSchema } from './threads/settings.ts';
import { InstagramSettingsSchema } from './instagram/settings.ts';
import { FacebookSettingsSchema } from './facebook/settings.ts';
import { TikTokSettingsSchema } from './tiktok/settings.ts';

export const PLATFORM_SETTINGS: Record<Platform, { schema: TSchema; postLevel: 'tiktokSettings' | 'facebookSettings' | null }> = {
  twitter: { schema: TwitterSettingsSchema, postLevel: null },
  threads: { schema: ThreadsSettingsSchema, postLevel: null },
  instagram: { schema: InstagramSettingsSchema, postLevel: null },
  facebook: { schema: FacebookSettingsSchema, postLevel: 'facebookSettings' },
  tiktok: { schema: TikTokSettingsSchema, postLevel: 'tiktokSettings' },
};

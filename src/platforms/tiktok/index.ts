// TikTok: everything Herald needs to know, as one descriptor.
import { createTikTokEmulator } from '../../sandbox/tiktok/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { createTikTokAdapter } from './adapter.ts';
import { LIMITS, TIKTOK_INFO } from './info.ts';
import { TikTokSettingsSchema } from './settings.ts';
import { validateTikTok } from './validate.ts';
import { TIKTOK_MEDIA_RULES } from './media-rules.ts';

export const tiktok = {
  name: 'tiktok',
  app: {
    credentials: { id: 'HERALD_TIKTOK_CLIENT_KEY', secret: 'HERALD_TIKTOK_CLIENT_SECRET' },
    apiUrl: { setting: 'HERALD_TIKTOK_API_URL', default: 'https://open.tiktokapis.com', kind: 'base' },
    authUrl: { setting: 'HERALD_TIKTOK_AUTH_URL', default: 'https://www.tiktok.com/v2/auth/authorize/', kind: 'full' },
  },
  info: TIKTOK_INFO,
  settingsSchema: TikTokSettingsSchema,
  mediaRules: TIKTOK_MEDIA_RULES,
  // SPEC's post-level tiktokSettings; a target's platformSpecificData overrides its fields.
  postLevel: { field: 'tiktokSettings', schema: TikTokSettingsSchema },
  validate: validateTikTok,
  // The caption is the video's title, counted in UTF-16 code units.
  characters: (text) => ({ used: text.length, limit: LIMITS.videoTitle }),
  createAdapter: (deps) => createTikTokAdapter(deps),
  sandbox: { mount: 'tiktok', authPath: '/v2/auth/authorize/', createEmulator: createTikTokEmulator },
  postUrlExample: 'https://www.tiktok.com/@sample_user/video/{id}',
} as const satisfies PlatformDescriptor<'tiktok'>;

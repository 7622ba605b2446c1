// Bluesky: everything Herald needs to know, as one descriptor.
import { createBlueskyEmulator } from '../../sandbox/bluesky/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { BLUESKY_MEDIA_RULES } from './media-rules.ts';
import { createBlueskyAdapter } from './adapter.ts';
import { BLUESKY_INFO, TEXT_LIMITS } from './info.ts';
import { BlueskySettingsSchema } from './settings.ts';
import { graphemeLength } from './text.ts';
import { validateBluesky } from './validate.ts';

export const bluesky = {
  name: 'bluesky',
  app: {
    // No app of Herald's: each account signs in with an app password on its own PDS. This is the PDS used
    // when the caller names none (`service`); in sandbox mode Herald points it at the built-in emulator.
    apiUrl: { setting: 'HERALD_BLUESKY_SERVICE_URL', default: 'https://bsky.social', kind: 'base' },
  },
  info: BLUESKY_INFO,
  settingsSchema: BlueskySettingsSchema,
  validate: validateBluesky,
  // Bluesky counts extended grapheme clusters (an emoji with a skin tone is one).
  characters: (text) => ({ used: graphemeLength(text), limit: TEXT_LIMITS.maxGraphemes }),
  mediaRules: BLUESKY_MEDIA_RULES,
  createAdapter: (deps) => createBlueskyAdapter(deps),
  sandbox: { mount: 'bluesky', createEmulator: createBlueskyEmulator },
  postUrlExample: 'https://bsky.app/profile/sample.bsky.social/post/{id}',
} as const satisfies PlatformDescriptor<'bluesky'>;

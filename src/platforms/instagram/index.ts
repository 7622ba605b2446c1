// Instagram professional accounts (through Facebook Login): everything Herald needs to know, as one descriptor.
import { createMetaEmulator } from '../../sandbox/meta/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { META_APP, META_SANDBOX_AUTH_PATH, META_SANDBOX_MOUNT } from '../meta/app.ts';
import { createInstagramAdapter } from './adapter.ts';
import { INSTAGRAM_LIMITS, instagramInfo } from './info.ts';
import { InstagramSettingsSchema } from './settings.ts';
import { validateInstagram } from './validate.ts';
import { INSTAGRAM_MEDIA_RULES } from './media-rules.ts';

export const instagram = {
  name: 'instagram',
  app: META_APP,
  info: instagramInfo,
  settingsSchema: InstagramSettingsSchema,
  mediaRules: INSTAGRAM_MEDIA_RULES,
  validate: (target) => validateInstagram(target),
  characters: (text) => ({ used: [...text].length, limit: INSTAGRAM_LIMITS.maxCaptionChars }),
  createAdapter: createInstagramAdapter,
  sandbox: { mount: META_SANDBOX_MOUNT, authPath: META_SANDBOX_AUTH_PATH, createEmulator: createMetaEmulator },
  postUrlExample: 'https://www.instagram.com/p/{id}/',
} as const satisfies PlatformDescriptor<'instagram'>;

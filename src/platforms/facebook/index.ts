// Facebook Pages: everything Herald needs to know, as one descriptor.
import { createMetaEmulator } from '../../sandbox/meta/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { META_APP, META_SANDBOX_AUTH_PATH, META_SANDBOX_MOUNT } from '../meta/app.ts';
import { createFacebookAdapter } from './adapter.ts';
import { FACEBOOK_LIMITS, facebookInfo } from './info.ts';
import { FacebookSettingsSchema, FacebookTargetSettingsSchema } from './settings.ts';
import { validateFacebook } from './validate.ts';
import { FACEBOOK_MEDIA_RULES } from './media-rules.ts';

export const facebook = {
  name: 'facebook',
  app: META_APP,
  info: facebookInfo,
  settingsSchema: FacebookTargetSettingsSchema,
  mediaRules: FACEBOOK_MEDIA_RULES,
  // SPEC's post-level facebookSettings; a target's platformSpecificData overrides its fields.
  postLevel: { field: 'facebookSettings', schema: FacebookSettingsSchema },
  validate: (target) => validateFacebook(target),
  characters: (text) => ({ used: [...text].length, limit: FACEBOOK_LIMITS.maxTextChars }),
  createAdapter: createFacebookAdapter,
  sandbox: { mount: META_SANDBOX_MOUNT, authPath: META_SANDBOX_AUTH_PATH, createEmulator: createMetaEmulator },
  postUrlExample: 'https://www.facebook.com/{id}',
} as const satisfies PlatformDescriptor<'facebook'>;

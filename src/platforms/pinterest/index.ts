// Pinterest: everything Herald needs to know, as one descriptor.
import { createPinterestEmulator } from '../../sandbox/pinterest/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { PINTEREST_MEDIA_RULES } from './media-rules.ts';
import { createPinterestAdapter } from './adapter.ts';
import { PINTEREST_INFO, TEXT_LIMITS } from './info.ts';
import { PinterestSettingsSchema } from './settings.ts';
import { validatePinterest } from './validate.ts';

export const pinterest = {
  name: 'pinterest',
  app: {
    credentials: { id: 'HERALD_PINTEREST_CLIENT_ID', secret: 'HERALD_PINTEREST_CLIENT_SECRET' },
    // The API, and below it /v5/oauth/token and /v5/oauth/token/revoke (no separate token host).
    apiUrl: { setting: 'HERALD_PINTEREST_API_URL', default: 'https://api.pinterest.com', kind: 'base' },
    authUrl: { setting: 'HERALD_PINTEREST_AUTH_URL', default: 'https://www.pinterest.com/oauth/', kind: 'full' },
  },
  info: PINTEREST_INFO,
  settingsSchema: PinterestSettingsSchema,
  validate: validatePinterest,
  // The description is the content, counted in code points.
  characters: (text) => ({ used: [...text].length, limit: TEXT_LIMITS.description }),
  mediaRules: PINTEREST_MEDIA_RULES,
  createAdapter: (deps) => createPinterestAdapter(deps),
  sandbox: { mount: 'pinterest', authPath: '/oauth/', createEmulator: (options) => createPinterestEmulator(options) },
  postUrlExample: 'https://www.pinterest.com/pin/{id}/',
} as const satisfies PlatformDescriptor<'pinterest'>;

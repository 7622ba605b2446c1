// LinkedIn: everything Herald needs to know, as one descriptor.
import { createLinkedInEmulator } from '../../sandbox/linkedin/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { LINKEDIN_MEDIA_RULES } from './media-rules.ts';
import { createLinkedInAdapter } from './adapter.ts';
import { API_VERSION_PATTERN, DEFAULT_API_VERSION, LIMITS, LINKEDIN_INFO } from './info.ts';
import { LinkedInSettingsSchema } from './settings.ts';
import { validateLinkedIn } from './validate.ts';

export const linkedin = {
  name: 'linkedin',
  app: {
    credentials: { id: 'HERALD_LINKEDIN_CLIENT_ID', secret: 'HERALD_LINKEDIN_CLIENT_SECRET' },
    apiUrl: { setting: 'HERALD_LINKEDIN_API_URL', default: 'https://api.linkedin.com', kind: 'base' },
    authUrl: { setting: 'HERALD_LINKEDIN_AUTH_URL', default: 'https://www.linkedin.com/oauth/v2/authorization', kind: 'full' },
    // Base of /accessToken, /revoke and /introspectToken.
    tokenUrl: { setting: 'HERALD_LINKEDIN_TOKEN_URL', default: 'https://www.linkedin.com/oauth/v2', kind: 'base' },
    version: { setting: 'HERALD_LINKEDIN_API_VERSION', default: DEFAULT_API_VERSION, pattern: API_VERSION_PATTERN, example: DEFAULT_API_VERSION },
  },
  info: LINKEDIN_INFO,
  settingsSchema: LinkedInSettingsSchema,
  validate: validateLinkedIn,
  // Counted in UTF-16 units, the stricter reading of LinkedIn's 3,000 characters.
  characters: (text) => ({ used: text.length, limit: LIMITS.commentary }),
  mediaRules: LINKEDIN_MEDIA_RULES,
  createAdapter: createLinkedInAdapter,
  sandbox: { mount: 'linkedin', authPath: '/oauth/v2/authorization', createEmulator: createLinkedInEmulator },
  // The post id is the URN itself.
  postUrlExample: 'https://www.linkedin.com/feed/update/{id}',
} as const satisfies PlatformDescriptor<'linkedin'>;

// X: everything Herald needs to know, as one descriptor.
import { createTwitterEmulator } from '../../sandbox/twitter/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { createTwitterAdapter } from './adapter.ts';
import { MAX_TEXT_WEIGHTED, PAID_MAX_TEXT_WEIGHTED, hasPaidSubscription, twitterInfo } from './info.ts';
import { TwitterSettingsSchema } from './settings.ts';
import { validateTwitterTarget, weightedLength } from './validate.ts';
import { TWITTER_MEDIA_RULES } from './media-rules.ts';

export const twitter = {
  name: 'twitter',
  app: {
    credentials: { id: 'HERALD_TWITTER_CLIENT_ID', secret: 'HERALD_TWITTER_CLIENT_SECRET' },
    apiUrl: { setting: 'HERALD_TWITTER_API_URL', default: 'https://api.x.com', kind: 'base' },
    authUrl: { setting: 'HERALD_TWITTER_AUTH_URL', default: 'https://x.com/i/oauth2/authorize', kind: 'full' },
  },
  info: twitterInfo,
  settingsSchema: TwitterSettingsSchema,
  mediaRules: TWITTER_MEDIA_RULES,
  validate: validateTwitterTarget,
  characters: (text, account) => ({ used: weightedLength(text), limit: hasPaidSubscription(account.meta) ? PAID_MAX_TEXT_WEIGHTED : MAX_TEXT_WEIGHTED }),
  createAdapter: createTwitterAdapter,
  sandbox: { mount: 'twitter', authPath: '/i/oauth2/authorize', createEmulator: createTwitterEmulator },
  postUrlExample: 'https://x.com/sample_user/status/{id}',
} as const satisfies PlatformDescriptor<'twitter'>;

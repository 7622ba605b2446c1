// Mastodon: everything Herald needs to know, as one descriptor.
import { createMastodonEmulator } from '../../sandbox/mastodon/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { MASTODON_MEDIA_RULES } from './media-rules.ts';
import { limitsOf } from './limits.ts';
import { statusLength } from './text.ts';
import { createMastodonAdapter } from './adapter.ts';
import { MASTODON_INFO } from './info.ts';
import { MastodonSettingsSchema } from './settings.ts';
import { validateMastodon } from './validate.ts';

export const mastodon = {
  name: 'mastodon',
  app: {
    // No app of Herald's own: Herald registers one on each instance a user names (POST /api/v1/apps).
    // The API URL is not a Mastodon setting API.md names; it is where the sandbox points and the
    // instance the docs suggest. Accounts always name their own instance.
    apiUrl: { setting: 'HERALD_MASTODON_DEFAULT_INSTANCE_URL', default: 'https://mastodon.social', kind: 'base' },
  },
  info: MASTODON_INFO,
  settingsSchema: MastodonSettingsSchema,
  validate: validateMastodon,
  // As the instance counts (links weigh characters_reserved_per_url), with its own limit from the account.
  characters: (text, account) => {
    const limits = limitsOf(account.meta);
    return { used: statusLength(text, '', limits.charactersReservedPerUrl), limit: limits.maxCharacters };
  },
  mediaRules: MASTODON_MEDIA_RULES,
  createAdapter: createMastodonAdapter,
  sandbox: { mount: 'mastodon', authPath: '/oauth/authorize', createEmulator: createMastodonEmulator },
  postUrlExample: 'https://mastodon.social/@sample_user/{id}',
} as const satisfies PlatformDescriptor<'mastodon'>;

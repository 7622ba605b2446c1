// Threads: everything Herald needs to know, as one descriptor.
import { createThreadsEmulator } from '../../sandbox/threads/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { createThreadsAdapter } from './adapter.ts';
import { THREADS_INFO, THREADS_LIMITS } from './info.ts';
import { ThreadsSettingsSchema } from './settings.ts';
import { threadsTextLength, validateThreads } from './validate.ts';
import { THREADS_MEDIA_RULES } from './media-rules.ts';

export const threads = {
  name: 'threads',
  app: {
    credentials: { id: 'HERALD_THREADS_APP_ID', secret: 'HERALD_THREADS_APP_SECRET' },
    apiUrl: { setting: 'HERALD_THREADS_API_URL', default: 'https://graph.threads.net', kind: 'base' },
    authUrl: { setting: 'HERALD_THREADS_AUTH_URL', default: 'https://threads.net/oauth/authorize', kind: 'full' },
  },
  info: THREADS_INFO,
  settingsSchema: ThreadsSettingsSchema,
  mediaRules: THREADS_MEDIA_RULES,
  validate: validateThreads,
  // Emoji count as their UTF-8 length (Threads' own rule).
  characters: (text) => ({ used: threadsTextLength(text), limit: THREADS_LIMITS.maxTextLength }),
  createAdapter: createThreadsAdapter,
  sandbox: { mount: 'threads', authPath: '/oauth/authorize', createEmulator: createThreadsEmulator },
  postUrlExample: 'https://www.threads.com/@sample_user/post/{id}',
} as const satisfies PlatformDescriptor<'threads'>;

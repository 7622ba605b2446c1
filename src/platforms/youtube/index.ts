// YouTube: everything Herald needs to know, as one descriptor.
import { createYouTubeEmulator } from '../../sandbox/youtube/emulator.ts';
import type { PlatformDescriptor } from '../descriptor.ts';
import { YOUTUBE_MEDIA_RULES } from './media-rules.ts';
import { createYouTubeAdapter } from './adapter.ts';
import { TEXT_LIMITS, YOUTUBE_INFO } from './info.ts';
import { YouTubeSettingsSchema } from './settings.ts';
import { validateYouTube } from './validate.ts';

export const youtube = {
  name: 'youtube',
  app: {
    credentials: { id: 'HERALD_YOUTUBE_CLIENT_ID', secret: 'HERALD_YOUTUBE_CLIENT_SECRET' },
    // Base of /youtube/v3 and /upload/youtube/v3.
    apiUrl: { setting: 'HERALD_YOUTUBE_API_URL', default: 'https://www.googleapis.com', kind: 'base' },
    authUrl: { setting: 'HERALD_YOUTUBE_AUTH_URL', default: 'https://accounts.google.com/o/oauth2/v2/auth', kind: 'full' },
    // Base of /token, /revoke and /tokeninfo.
    tokenUrl: { setting: 'HERALD_YOUTUBE_TOKEN_URL', default: 'https://oauth2.googleapis.com', kind: 'base' },
  },
  info: YOUTUBE_INFO,
  settingsSchema: YouTubeSettingsSchema,
  validate: validateYouTube,
  // The content is the video's description: YouTube counts its UTF-8 bytes.
  characters: (text) => ({ used: Buffer.byteLength(text, 'utf8'), limit: TEXT_LIMITS.descriptionBytes }),
  mediaRules: YOUTUBE_MEDIA_RULES,
  createAdapter: (deps) => createYouTubeAdapter(deps),
  sandbox: { mount: 'youtube', authPath: '/o/oauth2/v2/auth', createEmulator: createYouTubeEmulator },
  postUrlExample: 'https://www.youtube.com/watch?v={id}',
} as const satisfies PlatformDescriptor<'youtube'>;

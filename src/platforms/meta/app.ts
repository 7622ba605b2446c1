// The Meta app's settings: Facebook Pages and Instagram (through Facebook Login) use one app, one Graph
// URL and one consent dialog, so both descriptors name this one spec.
import type { AppSettingsSpec } from '../descriptor.ts';

export const META_APP: AppSettingsSpec = {
  credentials: { id: 'HERALD_FACEBOOK_APP_ID', secret: 'HERALD_FACEBOOK_APP_SECRET' },
  apiUrl: { setting: 'HERALD_FACEBOOK_GRAPH_URL', default: 'https://graph.facebook.com', kind: 'base' },
  authUrl: { setting: 'HERALD_FACEBOOK_AUTH_URL', default: 'https://www.facebook.com/dialog/oauth', kind: 'full' },
  version: { setting: 'HERALD_GRAPH_API_VERSION', default: 'v25.0', pattern: /^v\d+\.\d+$/, example: 'v25.0' },
};

/** Where the Meta emulator stands in the sandbox, for both platforms. */
export const META_SANDBOX_MOUNT = 'meta';
export const META_SANDBOX_AUTH_PATH = '/dialog/oauth';

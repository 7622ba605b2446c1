// Where Herald is reached, and each platform's app: the configured one, or, for a platform without
// credentials while the sandbox is on, the built-in emulator's. The emulators' URLs depend on where Herald
// listens (a port chosen at start), so they are read when used, not fixed here.
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { PlatformAppConfig } from '../platforms/deps.ts';
import { descriptorOf, type Platform } from '../platforms/registry.ts';
import { createEmulators } from '../sandbox/index.ts';
import { SANDBOX_APP, type Emulator } from '../sandbox/kit/emulator.ts';

export interface PlatformApps {
  /** The built-in emulators when the sandbox is on (API processes only). */
  emulators: Emulator[];
  appConfig(platform: Platform): PlatformAppConfig;
  /** Where the API listens (known once started). */
  url(): string;
  /** How callers reach the API (HERALD_PUBLIC_URL, else where it listens). */
  publicUrl(): string;
  /**
   * The sandbox's own files and emulators live on loopback; they are the one private origin user-named URLs
   * (media, servers) may reach without HERALD_ALLOW_PRIVATE_NETWORKS.
   */
  sandboxOrigins(): string[];
  /** Records the address the server got (port 0 picks one). */
  listeningAt(address: AddressInfo | string | null): void;
}

export function createPlatformApps(config: Config, deps: { serveApi: boolean; log: Logger }): PlatformApps {
  const { serveApi, log } = deps;
  let listeningUrl = `http://127.0.0.1:${config.port}`;
  const publicUrl = () => (config.publicUrlIsDefault ? listeningUrl : config.publicUrl);
  const sandboxOrigins = () => (config.sandbox ? [new URL(listeningUrl).origin, new URL(publicUrl()).origin] : []);
  // Built in, the sandbox keeps its state (accounts, tokens, posts, uploads) in the data directory, so a
  // restart does not break a walk-through. `herald sandbox` and the tests' own emulators stay in memory.
  const emulators =
    config.sandbox && serveApi
      ? createEmulators({
          // The emulators download Herald's own media from where Herald is reached, as the platforms would.
          mediaOrigins: () => sandboxOrigins(),
          persistence: {
            dir: join(config.dataDir, 'sandbox'),
            onError: (err, file) => log.warn({ err, file }, 'the sandbox could not read or write its state file; it goes on in memory'),
          },
        })
      : [];

  function appConfig(platform: Platform): PlatformAppConfig {
    const real = config.platforms[platform];
    const { app, sandbox } = descriptorOf(platform);
    if (real && (real.explicit || !config.sandbox)) return real;
    const root = () => `/sandbox/${sandbox.mount}`;
    return {
      clientId: SANDBOX_APP.clientId,
      clientSecret: SANDBOX_APP.clientSecret,
      apiVersion: real?.apiVersion ?? app.version?.default ?? '',
      // The emulators live in the API process: a worker reaches them through the public URL.
      get apiUrl() {
        return `${serveApi ? listeningUrl : publicUrl()}${root()}`;
      },
      get tokenUrl() {
        return this.apiUrl;
      },
      get authUrl() {
        return sandbox.authPath ? `${publicUrl()}${root()}${sandbox.authPath}` : '';
      },
    };
  }

  return {
    emulators,
    appConfig,
    url: () => listeningUrl,
    publicUrl,
    sandboxOrigins,
    listeningAt(address) {
      if (!address || typeof address !== 'object') return;
      const host = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
      listeningUrl = `http://${host}:${address.port}`;
    },
  };
}

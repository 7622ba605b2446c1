// The built-in sandbox: one emulator per mount of the registry's platforms (Facebook and Instagram share
// the Meta one), mountable inside Herald (HERALD_SANDBOX) or on its own server.
import type { FastifyInstance } from 'fastify';
import { PLATFORM_DESCRIPTORS } from '../platforms/registry.ts';
import type { Emulator, EmulatorOptions } from './kit/emulator.ts';
import { SANDBOX_APP } from './kit/emulator.ts';
import { closePersistence, persistEmulator, type PersistenceOptions } from './kit/persistence.ts';
import { mediaRoutes } from './media.ts';

export interface CreateEmulatorsOptions extends EmulatorOptions {
  /**
   * Keep every emulator's state (accounts and tokens, posts, uploads) in `<dir>/<mount>.json`, restored
   * now and saved after changes, so it survives a restart. Without it the emulators live in memory only.
   * Stop saving (and write what is pending) with `closeEmulators`.
   */
  persistence?: PersistenceOptions;
}

export function createEmulators(options: CreateEmulatorsOptions = {}): Emulator[] {
  const { persistence, ...emulatorOptions } = options;
  const byMount = new Map<string, Emulator>();
  for (const { sandbox } of PLATFORM_DESCRIPTORS) {
    if (!byMount.has(sandbox.mount)) byMount.set(sandbox.mount, sandbox.createEmulator(emulatorOptions));
  }
  const emulators = [...byMount.values()];
  if (persistence) for (const emu of emulators) persistEmulator(emu, persistence);
  return emulators;
}

/** Writes the pending state of emulators made with `persistence` and stops saving it (on shutdown). */
export function closeEmulators(emulators: readonly Emulator[]): Promise<void> {
  return closePersistence(emulators);
}

/**
 * The settings that point every platform at emulators whose mounts sit below `root` (a server of
 * `startEmulatorServer`, or Herald's own /sandbox): what `herald sandbox` prints and what tests use.
 */
export function sandboxEnv(root: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { app, sandbox } of PLATFORM_DESCRIPTORS) {
    const base = `${root}/${sandbox.mount}`;
    if (app.credentials) {
      env[app.credentials.id] = SANDBOX_APP.clientId;
      env[app.credentials.secret] = SANDBOX_APP.clientSecret;
    }
    env[app.apiUrl.setting] = base;
    if (app.authUrl && sandbox.authPath) env[app.authUrl.setting] = `${base}${sandbox.authPath}`;
    if (app.tokenUrl) env[app.tokenUrl.setting] = base;
  }
  return env;
}

/** A plugin that mounts the emulators at /<name> and sample media at /media below its prefix. */
export function sandboxPlugin(emulators: readonly Emulator[]) {
  return async (app: FastifyInstance) => {
    for (const emu of emulators) await app.register(emu.plugin, { prefix: `/${emu.name}` });
    await app.register(mediaRoutes, { prefix: '/media' });
  };
}

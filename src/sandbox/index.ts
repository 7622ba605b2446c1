// The built-in sandbox: every emulator, mountable inside Herald (HERALD_SANDBOX) or on its own server.
import type { FastifyInstance } from 'fastify';
import type { Emulator } from './kit/emulator.ts';
import { mediaRoutes } from './media.ts';
import { createMetaEmulator } from './meta/emulator.ts';
import { createThreadsEmulator } from './threads/emulator.ts';
import { createTikTokEmulator } from './tiktok/emulator.ts';
import { createTwitterEmulator } from './twitter/emulator.ts';
import type { EmulatorOptions } from './kit/emulator.ts';

export function createEmulators(options: EmulatorOptions = {}): Emulator[] {
  return [createTwitterEmulator(options), createMetaEmulator(options), createThreadsEmulator(options), createTikTokEmulator(options)];
}

/** A plugin that mounts the emulators at /<name> and sample media at /media below its prefix. */
export function sandboxPlugin(emulators: readonly Emulator[]) {
  return async (app: FastifyInstance) => {
    for (const emu of emulators) await app.register(emu.plugin, { prefix: `/${emu.name}` });
    await app.register(mediaRoutes, { prefix: '/media' });
  };
}

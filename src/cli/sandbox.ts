// herald sandbox: the platform emulators on their own server, and the settings that point Herald at them.
import { createEmulators, sandboxEnv } from '../sandbox/index.ts';
import { startEmulatorServer } from '../sandbox/server.ts';

export async function sandboxCommand(host: string, port: number): Promise<number> {
  const emulators = createEmulators();
  const server = await startEmulatorServer(emulators, { host, port });
  const lines = [
    `Platform emulators on ${server.url}: ${emulators.map((e) => `${server.rootOf(e.name)}`).join(', ')}; media at ${server.mediaUrl}`,
    'Point Herald at them with these settings (every platform):',
    ...Object.entries(sandboxEnv(server.url)).map(([name, value]) => `${name}=${value}`),
  ];
  // One write (under a pipe's atomic size): whoever reads the settings from a pipe gets all of them at once.
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return -1;
}

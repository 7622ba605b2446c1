// herald start | migrate | keys … | sandbox | posts … | accounts … | media … | mcp | help
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { keysCommand } from './keys.ts';
import { migrateCommand } from './migrate.ts';
import { sandboxCommand } from './sandbox.ts';
import { startCommand } from './start.ts';
import { CLIENT_USAGE, clientCommand } from './client.ts';
import { mcpCommand } from './mcp.ts';

export const USAGE = `Usage: herald <command>

  start [--role api|worker|all]     run the API and/or the workers (default all)
  migrate                           apply database migrations
  keys create --name NAME [--json]  issue an API key (printed once)
  keys list [--json]                list API keys
  keys revoke ID                    revoke an API key at once
  keys update ID --redirect-url URL set the key's default OAuth callback URL
  sandbox [--port N]                run the platform emulators on their own (tests, demos)
  help                              show this text

Settings are read from the environment (see docs/operations.md).

${CLIENT_USAGE}`;

export class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      const { values } = parseArgs({ args: rest, options: { role: { type: 'string', default: 'all' } }, strict: true });
      if (!['api', 'worker', 'all'].includes(values.role!)) throw new UsageError('--role must be api, worker or all');
      return startCommand(loadConfig(), values.role as 'api' | 'worker' | 'all');
    }
    case 'migrate':
      return migrateCommand(loadConfig());
    case 'keys':
      return keysCommand(loadConfig(), rest);
    case 'sandbox': {
      const { values } = parseArgs({ args: rest, options: { port: { type: 'string', default: '4000' }, host: { type: 'string', default: '127.0.0.1' } }, strict: true });
      return sandboxCommand(values.host!, Number(values.port));
    }
    case 'posts':
    case 'accounts':
    case 'media':
      return clientCommand(command, rest, process.env);
    case 'mcp':
      return mcpCommand(process.env);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== -1) process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof ConfigError) {
      console.error(`herald: configuration error: ${err.message}`);
    } else if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`herald: ${(err as Error).message}\n\n${USAGE}`);
    } else {
      console.error('herald: failed:', err);
    }
    process.exit(1);
  },
);

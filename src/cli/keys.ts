// herald keys create | list | revoke | update
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../lib/clock.ts';
import { createKeysDal } from '../keys/keys-dal.ts';
import { createKeysService, type ApiKeyInfo } from '../keys/keys-service.ts';

function row(k: ApiKeyInfo): string {
  return [k.id.padEnd(26), k.prefix.padEnd(12), (k.revokedAt ? 'revoked' : 'active').padEnd(8), k.createdAt, k.name].join('  ');
}

export async function keysCommand(config: Config, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const db = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db);
    const keys = createKeysService({ dal: createKeysDal({ db: db.kysely }), write: db.write, clock: systemClock });
    switch (sub) {
      case 'create': {
        const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, json: { type: 'boolean', default: false } }, strict: true });
        const name = values.name?.trim();
        if (!name) throw Object.assign(new Error('keys create needs --name NAME'), { code: 'ERR_PARSE_ARGS_USAGE' });
        const created = await keys.create(name);
        if (values.json) {
          console.log(JSON.stringify({ id: created.id, name: created.name, key: created.key, prefix: created.prefix, createdAt: created.createdAt }));
        } else {
          console.log(`Created API key ${created.id} (${created.name}). It is shown only this once:\n\n  ${created.key}\n`);
        }
        return 0;
      }
      case 'list': {
        const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean', default: false } }, strict: true });
        const list = await keys.list();
        if (values.json) console.log(JSON.stringify(list));
        else console.log(list.length === 0 ? 'no API keys' : list.map(row).join('\n'));
        return 0;
      }
      case 'revoke': {
        const { positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true });
        if (positionals.length !== 1) throw Object.assign(new Error('keys revoke needs the key id'), { code: 'ERR_PARSE_ARGS_USAGE' });
        if (!(await keys.revoke(positionals[0]!))) {
          console.error(`herald: no API key ${positionals[0]}`);
          return 1;
        }
        console.log(`revoked ${positionals[0]}`);
        return 0;
      }
      case 'update': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { 'redirect-url': { type: 'string' } }, strict: true });
        const url = values['redirect-url'];
        if (positionals.length !== 1 || url === undefined) {
          throw Object.assign(new Error('keys update needs the key id and --redirect-url URL'), { code: 'ERR_PARSE_ARGS_USAGE' });
        }
        if (url !== '' && !/^https?:\/\/[^\s]+$/i.test(url)) {
          console.error('herald: --redirect-url must be an absolute http(s) URL (or "" to clear it)');
          return 1;
        }
        const updated = await keys.setDefaultRedirectUrl(positionals[0]!, url === '' ? null : url);
        if (!updated) {
          console.error(`herald: no API key ${positionals[0]}`);
          return 1;
        }
        console.log(`${updated.id}: default redirect URL ${updated.defaultRedirectUrl ?? '(none)'}`);
        return 0;
      }
      default:
        throw Object.assign(new Error(`keys needs create, list, revoke or update`), { code: 'ERR_PARSE_ARGS_USAGE' });
    }
  } finally {
    await db.close();
  }
}

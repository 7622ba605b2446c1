// Start-up secrets: the token encryption key, and the first API key of an empty database.
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ensurePrivateDir, type Db } from '../db/database.ts';
import { exclusive } from '../db/dialect.ts';
import type { CreatedKey, KeysService } from '../keys/keys-service.ts';

/** The encryption key: from the configuration, or (embedded only) a key file generated on first start. */
export function encryptionKey(config: Config, log: Logger): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const file = join(config.dataDir, 'encryption.key');
  if (existsSync(file)) {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600); // left readable by an older Herald
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  ensurePrivateDir(config.dataDir);
  const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32)));
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  log.info({ file }, 'generated the token encryption key; back it up with the database');
  return key;
}

/**
 * On the very first start of an empty database one key is created, so the service is usable at once;
 * one only, even when several API processes start together.
 */
export async function ensureFirstKey(db: Db, keys: KeysService): Promise<CreatedKey | null> {
  return db.write(async (trx) => {
    await exclusive(db.dialect, trx, 'herald:first-key');
    if ((await keys.count(trx)) > 0) return null;
    return keys.create('default', trx);
  });
}

// Opaque ids: a type prefix, then a time part and random url-safe characters (API.md section 1).
// The time part makes ids of new rows sort after older ones, so inserts append to the end of each
// primary-key B-tree instead of dirtying a random page of it; the random part (96 bits) keeps them
// unguessable and unique across processes.
import { randomBytes, randomUUID } from 'node:crypto';

export type IdPrefix = 'post' | 'tgt' | 'acc' | 'key' | 'evt' | 'whd' | 'job' | 'app' | 'med';

// In ASCII order, so ids compare like the times they start with.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TIME_CHARS = 8; // 62^8 ms reaches the year 8900

export function timePrefix(ms: number): string {
  let out = '';
  let rest = Math.floor(ms);
  for (let i = 0; i < TIME_CHARS; i++) {
    out = BASE62[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

// Random bytes are drawn from a pool: one call to the system's generator serves many ids.
const POOL_SIZE = 12 * 512;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function random12(): string {
  if (offset + 12 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const out = pool.toString('base64url', offset, offset + 12);
  offset += 12;
  return out;
}

/** prefix + "_" + 8 time characters + 16 random url-safe characters. */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${timePrefix(now)}${random12()}`;
}

export function newAttemptId(): string {
  return randomUUID();
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

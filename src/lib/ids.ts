// Opaque ids: a type prefix, then a time part and random url-safe characters (API.md section 1).
// The time part makes ids of new rows sort after older ones, so inserts append to the end of each
// primary-key B-tree instead of dirtying a random page of it; the random part (96 bits) keeps them
// unguessable and unique across processes.
import { randomBytes, randomUUID } from 'node:crypto';

export type IdPrefix = 'post' | 'tgt' | 'acc' | 'key' | 'evt' | 'whd' | 'job';

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

/** prefix + "_" + 8 time characters + 16 random url-safe characters. */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${timePrefix(now)}${randomBytes(12).toString('base64url')}`;
}

export function newAttemptId(): string {
  return randomUUID();
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

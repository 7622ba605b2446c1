// Record keys Herald chooses before it writes a post: TIDs (timestamp identifiers), 53 bits of microseconds
// since the epoch and 10 bits of clock id, in base32-sortable, 13 characters. A post's rkey must be one
// (PDS 0.5.35 refuses "self"). Choosing it first is what makes a retried create unable to post twice: the
// PDS never holds two records under one key (docs/internal/bluesky-pds.md).
import { randomInt } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';

const ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';
const TID_RE = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

export function isTid(value: unknown): value is string {
  return typeof value === 'string' && TID_RE.test(value);
}

export function encodeTid(micros: bigint, clockId: number): string {
  let v = (micros << 10n) | BigInt(clockId & 0x3ff);
  let s = '';
  for (let i = 0; i < 13; i++) {
    s = ALPHABET[Number(v & 31n)] + s;
    v >>= 5n;
  }
  return s;
}

/** The microseconds a TID was made at. */
export function tidMicros(tid: string): bigint {
  let v = 0n;
  for (const c of tid) v = (v << 5n) | BigInt(ALPHABET.indexOf(c));
  return v >> 10n;
}

export interface TidSource {
  next(): string;
}

/** TIDs from the clock and a random clock id, strictly increasing within this source. */
export function createTidSource(clock: Clock, clockId = randomInt(0, 1024)): TidSource {
  let last = 0n;
  return {
    next() {
      const now = BigInt(Math.floor(clock.now())) * 1000n;
      last = now > last ? now : last + 1n;
      return encodeTid(last, clockId);
    },
  };
}

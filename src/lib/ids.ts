// Opaque ids: a type prefix and url-safe random characters (API.md section 1).
import { randomBytes, randomUUID } from 'node:crypto';

export type IdPrefix = 'post' | 'tgt' | 'acc' | 'key' | 'evt' | 'whd' | 'job';

/** 20 url-safe characters (120 random bits) after the prefix. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(15).toString('base64url')}`;
}

export function newAttemptId(): string {
  return randomUUID();
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

// What a mastodon publish attempt saves, and when: the chain's statuses the instance accepted, media
// uploaded for the next one, and — before every create — the Idempotency-Key it is sent with. A later
// attempt within the key's hour sends the same key, so the instance answers with the status the lost
// request made instead of posting twice.
import { randomUUID } from 'node:crypto';
import type { Checkpoint } from '../types.ts';

export interface PendingCreate {
  /** Index in the chain of the status being created. */
  index: number;
  key: string;
  /** When the key was first sent (epoch ms): it is replayed only within the instance's hour. */
  sentAt: number;
  mediaIds: string[];
}

export interface MastodonCheckpoint {
  /** Random per target; the keys of its creates derive from it. */
  keyBase: string;
  /** Ids of the chain's statuses the instance accepted, in order (index 0 is the post itself). */
  posted: string[];
  /** The post's URL (posted[0]), for the answer of a resumed attempt. */
  firstUrl?: string;
  /** Media uploaded for the status at `index`, not yet attached. */
  media?: { index: number; ids: string[]; at: number };
  pending?: PendingCreate;
}

const ids = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && /^\d+$/.test(x));

export function readCheckpoint(cp: Checkpoint | null): MastodonCheckpoint | null {
  if (!cp || typeof cp.keyBase !== 'string' || !cp.keyBase || !ids(cp.posted)) return null;
  const out: MastodonCheckpoint = { keyBase: cp.keyBase, posted: [...cp.posted] };
  if (typeof cp.firstUrl === 'string') out.firstUrl = cp.firstUrl;
  const media = cp.media as Record<string, unknown> | undefined;
  if (media && typeof media.index === 'number' && typeof media.at === 'number' && ids(media.ids)) {
    out.media = { index: media.index, ids: [...media.ids], at: media.at };
  }
  const p = cp.pending as Record<string, unknown> | undefined;
  if (p && typeof p.index === 'number' && typeof p.key === 'string' && typeof p.sentAt === 'number' && ids(p.mediaIds)) {
    out.pending = { index: p.index, key: p.key, sentAt: p.sentAt, mediaIds: [...p.mediaIds] };
  }
  return out;
}

export function freshCheckpoint(): MastodonCheckpoint {
  return { keyBase: randomUUID(), posted: [] };
}

export function toCheckpoint(cp: MastodonCheckpoint): Checkpoint {
  return JSON.parse(JSON.stringify(cp)) as Checkpoint;
}

/** The key for a first send of the status at `index` (a later send after the hour gets a new one). */
export function keyFor(cp: MastodonCheckpoint, index: number, now: number): string {
  return `herald-${cp.keyBase}-${index}-${now.toString(36)}`;
}

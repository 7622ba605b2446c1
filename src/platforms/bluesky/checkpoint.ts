// What a Bluesky publish saves: for each post of the chain (the post, then its thread items), the record
// key chosen before its create, and once the PDS confirmed it, its uri and cid. A later attempt or
// reconcile reads planned keys back instead of choosing new ones, so nothing is ever posted twice.
import type { Checkpoint } from '../types.ts';
import type { StrongRef } from './records.ts';
import { isTid } from './tid.ts';

export interface PlannedPost {
  rkey: string;
  /** Set once the PDS confirmed the record (answer or read-back). */
  ref?: StrongRef;
}

export function readPlan(checkpoint: Checkpoint | null): PlannedPost[] {
  const raw = checkpoint?.posts;
  if (!Array.isArray(raw)) return [];
  const out: PlannedPost[] = [];
  for (const p of raw as Record<string, unknown>[]) {
    if (!p || !isTid(p.rkey)) break;
    const item: PlannedPost = { rkey: p.rkey };
    if (typeof p.uri === 'string' && typeof p.cid === 'string') item.ref = { uri: p.uri, cid: p.cid };
    out.push(item);
  }
  return out;
}

export function planCheckpoint(plan: PlannedPost[]): Checkpoint {
  return { posts: plan.map((p) => (p.ref ? { rkey: p.rkey, uri: p.ref.uri, cid: p.ref.cid } : { rkey: p.rkey })) };
}

/** The confirmed posts' uris, in chain order. */
export function confirmedUris(checkpoint: Checkpoint | null): string[] {
  return readPlan(checkpoint).flatMap((p) => (p.ref ? [p.ref.uri] : []));
}

/** A comment's checkpoint: its key, and its uri once confirmed. */
export function readCommentPlan(checkpoint: Checkpoint | null): PlannedPost | null {
  return readPlan(checkpoint && Array.isArray(checkpoint.posts) ? checkpoint : null)[0] ?? null;
}

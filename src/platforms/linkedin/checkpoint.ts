// What a LinkedIn publish attempt saves, and when: each media URN once its upload is complete (so a later
// attempt reuses it instead of uploading again), and the moment the post was sent, before the call that
// makes it public. Reconcile and the duplicate rule read that moment.
import type { Checkpoint } from '../types.ts';

export type MediaKind = 'image' | 'video' | 'document';

export interface UploadedMedia {
  /** The media item's URL, so an entry is reused only for the same file. */
  url: string;
  kind: MediaKind;
  /** urn:li:image:…, urn:li:video:… or urn:li:document:… */
  urn: string;
}

export interface LinkedInCheckpoint {
  /** By position in the target's media list; null where nothing is uploaded yet. */
  media: (UploadedMedia | null)[];
  /** When the create call was sent (epoch ms): from then on the post may exist. */
  createSentAt?: number;
  /** The post, once LinkedIn named it (an earlier attempt's duplicate refusal, or reconcile). */
  postUrn?: string;
}

function readMedia(raw: unknown): UploadedMedia | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as Record<string, unknown>;
  if (typeof m.url !== 'string' || typeof m.urn !== 'string') return null;
  if (m.kind !== 'image' && m.kind !== 'video' && m.kind !== 'document') return null;
  return { url: m.url, kind: m.kind, urn: m.urn };
}

export function readCheckpoint(cp: Checkpoint | null): LinkedInCheckpoint {
  const out: LinkedInCheckpoint = { media: Array.isArray(cp?.media) ? (cp.media as unknown[]).map(readMedia) : [] };
  if (typeof cp?.createSentAt === 'number') out.createSentAt = cp.createSentAt;
  if (typeof cp?.postUrn === 'string' && cp.postUrn) out.postUrn = cp.postUrn;
  return out;
}

export function toCheckpoint(cp: LinkedInCheckpoint): Checkpoint {
  const out: Checkpoint = { media: cp.media.map((m) => (m ? { ...m } : null)) };
  if (cp.createSentAt !== undefined) out.createSentAt = cp.createSentAt;
  if (cp.postUrn) out.postUrn = cp.postUrn;
  return out;
}

/** The epoch ms a post URN encodes: its 19-digit id's top 41 bits (LinkedIn ids are time-ordered). */
export function urnTime(urn: string): number | undefined {
  const id = /^urn:li:(?:share|ugcPost|activity):(\d{1,20})$/.exec(urn)?.[1];
  if (!id) return undefined;
  const ms = Number(BigInt(id) >> 22n);
  // Anything before LinkedIn's current id scheme or far in the future is not a time.
  return ms > Date.UTC(2010, 0, 1) && ms < Date.UTC(2100, 0, 1) ? ms : undefined;
}

/** Clocks differ: a post may carry a time a little before Herald's record of sending it. */
export const CLOCK_SKEW_MS = 60_000;

/**
 * Whether a post LinkedIn names as a duplicate is the one an earlier attempt of this target sent:
 * an earlier create was sent, and the named post is not older than it (when its id tells its age).
 */
export function isOwnDuplicate(cp: LinkedInCheckpoint, urn: string): boolean {
  if (cp.createSentAt === undefined) return false;
  const at = urnTime(urn);
  return at === undefined || at >= cp.createSentAt - CLOCK_SKEW_MS;
}

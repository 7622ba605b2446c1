// What the LinkedIn emulator knows: sandbox members and the Pages they administer, uploaded media and its
// processing state, posts (with their little text as published), comments, and per-member daily counts.
import { createHash, randomBytes } from 'node:crypto';

export interface SandboxPage {
  id: string;
  urn: string;
  name: string;
  vanityName: string;
  role: string;
}

export interface SandboxMember {
  id: string;
  urn: string;
  firstName: string;
  lastName: string;
  vanityName: string;
  email: string;
  pages: SandboxPage[];
}

export type MediaKind = 'image' | 'video' | 'document';
export type MediaState = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface VideoPart {
  first: number;
  last: number;
  etag?: string;
}

export interface MediaRecord {
  urn: string;
  kind: MediaKind;
  owner: string;
  /** The member whose token initialized it (the upload must come with that member's token). */
  memberId: string;
  /** Secret in the upload URL. */
  uploadKey: string;
  createdAt: number;
  uploadExpiresAt: number;
  state: MediaState;
  readyAt?: number;
  /** Why processing failed (kept for the ledger and tests). */
  failure?: string;
  /** The file, until processing has looked at it; then only its size stays. */
  bytes?: Buffer;
  size?: number;
  /** Videos: the size declared at initialize, its parts and the finalize token. */
  fileSizeBytes?: number;
  parts?: (VideoPart & { data?: Buffer })[];
  uploadToken?: string;
  finalized?: boolean;
}

export interface PostRecord {
  urn: string;
  activityUrn: string;
  author: string;
  /** The member who created it. */
  memberId: string;
  /** As sent (little text). */
  commentary: string;
  /** As published. */
  text: string;
  truncated: boolean;
  visibility: string;
  distribution: unknown;
  content?: Record<string, unknown>;
  lifecycleState: string;
  createdAt: number;
  lastModifiedAt: number;
  deleted: boolean;
}

export interface CommentRecord {
  urn: string;
  id: string;
  postUrn: string;
  activityUrn: string;
  actor: string;
  text: string;
  createdAt: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A stable member per sandbox name, with `pages` Pages they administer. */
export function sandboxMember(name: string, clientId: string, pages: number, pageRole = 'ADMINISTRATOR'): SandboxMember {
  const id = digest(`${clientId}:${name}`).toString('base64url').slice(0, 10);
  const slug = name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 30) || 'sandbox';
  const [first, ...rest] = name.split(/\s+/);
  return {
    id,
    urn: `urn:li:person:${id}`,
    firstName: first || 'Sandbox',
    lastName: rest.join(' ') || 'Member',
    vanityName: slug,
    email: `${slug}@sandbox.example`,
    pages: Array.from({ length: pages }, (_, i) => {
      const pageId = String(10_000_000 + (digest(`page:${name}:${i}`).readUInt32BE(0) % 89_999_999));
      return { id: pageId, urn: `urn:li:organization:${pageId}`, name: `${first || 'Sandbox'} Page ${i + 1}`, vanityName: `${slug}-page-${i + 1}`, role: pageRole };
    }),
  };
}

/**
 * Post, activity and comment ids: 19-digit numbers whose top 41 bits are the creation time in ms, as
 * LinkedIn's are (clients read a post's date from them).
 */
export class IdMint {
  #seq = 0n;

  next(now: number): string {
    this.#seq = (this.#seq + 1n) & 0x3fffffn;
    return ((BigInt(now) << 22n) | this.#seq).toString();
  }

  asset(prefix: string): string {
    return `${prefix}${randomBytes(15).toString('base64url')}`;
  }

  reset(): void {
    this.#seq = 0n;
  }
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

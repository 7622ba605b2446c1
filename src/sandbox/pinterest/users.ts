// Sandbox Pinterest users: a stable identity per `sandbox_user` name, with three boards each (two
// public, one secret), and what GET /v5/user_account and GET /v5/boards say about them.
import { createHash } from 'node:crypto';

export type BoardPrivacy = 'PUBLIC' | 'PROTECTED' | 'SECRET';

export interface SandboxBoard {
  id: string;
  ownerId: string;
  name: string;
  description: string;
  privacy: BoardPrivacy;
  createdAt: number;
}

export interface SandboxUser {
  id: string;
  username: string;
  accountType: 'BUSINESS' | 'PINNER';
  businessName: string | null;
  /** Only tokens of system users can be revoked (POST /v5/oauth/token/revoke). */
  systemUser: boolean;
  boards: SandboxBoard[];
}

/** A digit string of 18–19 digits (Pinterest ids exceed 2^53), stable for a text. */
export function digitsId(text: string): string {
  const h = createHash('sha256').update(text).digest();
  const n = h.readBigUInt64BE(0) % 8_000_000_000_000_000_000n;
  return (1_000_000_000_000_000_000n + n).toString();
}

export const SANDBOX_BOARDS: readonly { name: string; privacy: BoardPrivacy }[] = [
  { name: 'Ideas', privacy: 'PUBLIC' },
  { name: 'Recipes', privacy: 'PUBLIC' },
  { name: 'Drafts', privacy: 'SECRET' },
];

export function sandboxUser(name: string, clientId: string, opts: { pinner: boolean; systemUser: boolean; now: number }): SandboxUser {
  const id = digitsId(`${clientId}:user:${name}`);
  const username = name.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 30) || 'sandbox';
  return {
    id,
    username,
    accountType: opts.pinner ? 'PINNER' : 'BUSINESS',
    businessName: opts.pinner ? null : name,
    systemUser: opts.systemUser,
    boards: SANDBOX_BOARDS.map((b) => ({
      id: digitsId(`${clientId}:board:${name}:${b.name}`),
      ownerId: id,
      name: b.name,
      description: `${b.name} of ${name}`,
      privacy: b.privacy,
      createdAt: opts.now,
    })),
  };
}

export function accountJson(user: SandboxUser, avatarUrl: string, pinCount: number): Record<string, unknown> {
  return {
    account_type: user.accountType,
    id: user.id,
    profile_image: avatarUrl,
    website_url: '',
    username: user.username,
    about: '',
    business_name: user.businessName,
    board_count: user.boards.length,
    pin_count: pinCount,
    follower_count: 0,
    following_count: 0,
    monthly_views: 0,
  };
}

export function isoSeconds(ms: number): string {
  // Pinterest writes times to the second; the 5.12 spec example has a "-00:00" offset.
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '-00:00');
}

export function boardJson(board: SandboxBoard, owner: SandboxUser, pinCount: number): Record<string, unknown> {
  return {
    id: board.id,
    name: board.name,
    description: board.description,
    owner: { username: owner.username },
    privacy: board.privacy,
    created_at: isoSeconds(board.createdAt),
    board_pins_modified_at: isoSeconds(board.createdAt),
    pin_count: pinCount,
    follower_count: 0,
    collaborator_count: 0,
    media: { image_cover_url: null, pin_thumbnail_urls: [] },
  };
}

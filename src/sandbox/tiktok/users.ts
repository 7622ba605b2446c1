// Sandbox TikTok users: a stable identity per `sandbox_user` name, and what user/info and
// creator_info tell about it.
import { createHash } from 'node:crypto';

export interface SandboxUser {
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
  /** A private account is not offered PUBLIC_TO_EVERYONE. */
  isPrivate: boolean;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** open_id is per app in TikTok; union_id is per developer. Both stable for a sandbox name. */
export function sandboxUser(name: string, clientId: string, isPrivate: boolean): SandboxUser {
  const h = digest(`${clientId}:${name}`);
  const u = digest(`union:${name}`);
  const username = name.toLowerCase().replace(/[^a-z0-9_.]/g, '_').slice(0, 24) || 'sandbox';
  return {
    openId: `-000${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 28)}`,
    unionId: `${u.slice(0, 8)}-${u.slice(8, 12)}-${u.slice(12, 16)}-${u.slice(16, 28)}`,
    username,
    displayName: name,
    isPrivate,
  };
}

export const ALL_PRIVACY = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];

export function privacyOptions(user: SandboxUser): string[] {
  return user.isPrivate ? ALL_PRIVACY.filter((p) => p !== 'PUBLIC_TO_EVERYONE') : [...ALL_PRIVACY];
}

export const MAX_VIDEO_POST_DURATION_SEC = 600;

export function creatorInfo(user: SandboxUser, avatarUrl: string): Record<string, unknown> {
  return {
    creator_avatar_url: avatarUrl,
    creator_username: user.username,
    creator_nickname: user.displayName,
    privacy_level_options: privacyOptions(user),
    comment_disabled: false,
    duet_disabled: false,
    stitch_disabled: false,
    max_video_post_duration_sec: MAX_VIDEO_POST_DURATION_SEC,
  };
}

/** user/info fields and the scope each needs. */
const FIELD_SCOPES: Record<string, string> = {
  open_id: 'user.info.basic',
  union_id: 'user.info.basic',
  avatar_url: 'user.info.basic',
  avatar_url_100: 'user.info.basic',
  avatar_large_url: 'user.info.basic',
  display_name: 'user.info.basic',
  bio_description: 'user.info.profile',
  profile_deep_link: 'user.info.profile',
  is_verified: 'user.info.profile',
  username: 'user.info.profile',
  follower_count: 'user.info.stats',
  following_count: 'user.info.stats',
  likes_count: 'user.info.stats',
  video_count: 'user.info.stats',
};

export type FieldSelection = { ok: true; user: Record<string, unknown> } | { ok: false; code: 'invalid_params' | 'scope_permission_missed'; message: string };

export function selectUserFields(user: SandboxUser, fields: string[], scopes: string[], avatarUrl: string): FieldSelection {
  const all: Record<string, unknown> = {
    open_id: user.openId,
    union_id: user.unionId,
    avatar_url: avatarUrl,
    avatar_url_100: avatarUrl,
    avatar_large_url: avatarUrl,
    display_name: user.displayName,
    bio_description: '',
    profile_deep_link: `https://vm.tiktok.com/sandbox-${user.username}/`,
    is_verified: false,
    username: user.username,
    follower_count: 0,
    following_count: 0,
    likes_count: 0,
    video_count: 0,
  };
  if (fields.length === 0) return { ok: false, code: 'invalid_params', message: 'fields is required' };
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const scope = FIELD_SCOPES[f];
    if (!scope) return { ok: false, code: 'invalid_params', message: `unknown field: ${f}` };
    if (!scopes.includes(scope)) return { ok: false, code: 'scope_permission_missed', message: `field ${f} needs the ${scope} scope` };
    out[f] = all[f];
  }
  return { ok: true, user: out };
}

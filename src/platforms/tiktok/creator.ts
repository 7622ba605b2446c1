// creator_info: what this creator may post right now (privacy levels, interactions, video length).
// TikTok requires querying it before every Direct Post; Herald also keeps it on the account's meta so
// create-time validation can check the privacy level.
import type { AdapterDeps } from '../deps.ts';
import type { AccountMeta, PlatformFailure } from '../types.ts';
import { asNumber, asString, callApi } from './client.ts';

export interface CreatorInfo {
  username?: string;
  nickname?: string;
  avatarUrl?: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number | null;
}

export async function queryCreatorInfo(
  deps: AdapterDeps,
  token: string,
  signal?: AbortSignal,
): Promise<{ ok: true; creator: CreatorInfo } | PlatformFailure> {
  const res = await callApi(deps, { method: 'POST', path: '/v2/post/publish/creator_info/query/', token, signal });
  if (!res.ok) return res;
  const d = res.data;
  const options = Array.isArray(d.privacy_level_options) ? d.privacy_level_options.filter((o): o is string => typeof o === 'string') : [];
  return {
    ok: true,
    creator: {
      username: asString(d.creator_username),
      nickname: asString(d.creator_nickname),
      avatarUrl: asString(d.creator_avatar_url),
      privacyLevelOptions: options,
      commentDisabled: d.comment_disabled === true,
      duetDisabled: d.duet_disabled === true,
      stitchDisabled: d.stitch_disabled === true,
      maxVideoPostDurationSec: asNumber(d.max_video_post_duration_sec) ?? null,
    },
  };
}

/** The account meta Herald stores (and validate.ts reads). */
export function creatorMeta(creator: CreatorInfo): AccountMeta {
  return {
    privacyLevelOptions: creator.privacyLevelOptions,
    commentDisabled: creator.commentDisabled,
    duetDisabled: creator.duetDisabled,
    stitchDisabled: creator.stitchDisabled,
    maxVideoPostDurationSec: creator.maxVideoPostDurationSec,
  };
}

/** privacyLevelOptions from stored meta, when known. */
export function metaPrivacyOptions(meta: AccountMeta | undefined): string[] | undefined {
  const options = meta?.privacyLevelOptions;
  if (!Array.isArray(options) || options.length === 0) return undefined;
  return options.filter((o): o is string => typeof o === 'string');
}

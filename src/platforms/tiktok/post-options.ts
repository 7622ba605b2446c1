// Herald's tiktokSettings → TikTok's post_info, within what the creator allows right now.
import { failure, type PlatformFailure } from '../types.ts';
import type { TikTokSettings } from './settings.ts';
import type { CreatorInfo } from './creator.ts';
import { isPrivacyLevel, type PrivacyLevel } from './info.ts';

/** Reads the merged settings defensively: they were validated at create time, but stored long ago. */
export function readSettings(raw: Record<string, unknown>): TikTokSettings {
  const bool = (k: string) => (typeof raw[k] === 'boolean' ? (raw[k] as boolean) : undefined);
  const out: TikTokSettings = {};
  if (isPrivacyLevel(raw.privacyLevel)) out.privacyLevel = raw.privacyLevel;
  for (const k of ['disableComment', 'disableDuet', 'disableStitch', 'brandContentToggle', 'brandOrganicToggle', 'isAigc', 'autoAddMusic'] as const) {
    const v = bool(k);
    if (v !== undefined) out[k] = v;
  }
  if (typeof raw.videoCoverTimestampMs === 'number' && Number.isInteger(raw.videoCoverTimestampMs) && raw.videoCoverTimestampMs >= 0) {
    out.videoCoverTimestampMs = raw.videoCoverTimestampMs;
  }
  if (typeof raw.title === 'string') out.title = raw.title;
  return out;
}

export function requirePrivacy(settings: TikTokSettings): PrivacyLevel | PlatformFailure {
  if (settings.privacyLevel) return settings.privacyLevel;
  return failure('content_rejected', 'TikTok needs a privacy level (tiktokSettings.privacyLevel) for every post');
}

/** TikTok's UX rules: the privacy level must be one the creator is offered right now. */
export function checkPrivacy(creator: CreatorInfo, privacy: PrivacyLevel): PlatformFailure | null {
  if (creator.privacyLevelOptions.length === 0 || creator.privacyLevelOptions.includes(privacy)) return null;
  return failure(
    'content_rejected',
    `TikTok rejected the post: privacy level ${privacy} is not available to this creator (allowed: ${creator.privacyLevelOptions.join(', ')})`,
    { platformCode: 'privacy_level_option_mismatch' },
  );
}

// Interactions the creator has switched off stay off whatever the post asks: TikTok's UX guidelines
// say they must be shown disabled, not enabled by the app.
export function videoPostInfo(content: string, privacy: PrivacyLevel, s: TikTokSettings, creator: CreatorInfo): Record<string, unknown> {
  const info: Record<string, unknown> = {
    title: content,
    privacy_level: privacy,
    disable_comment: creator.commentDisabled || s.disableComment === true,
    disable_duet: creator.duetDisabled || s.disableDuet === true,
    disable_stitch: creator.stitchDisabled || s.disableStitch === true,
    brand_content_toggle: s.brandContentToggle === true,
    brand_organic_toggle: s.brandOrganicToggle === true,
    is_aigc: s.isAigc === true,
  };
  if (s.videoCoverTimestampMs !== undefined) info.video_cover_timestamp_ms = s.videoCoverTimestampMs;
  return info;
}

export function photoPostInfo(content: string, privacy: PrivacyLevel, s: TikTokSettings, creator: CreatorInfo): Record<string, unknown> {
  return {
    title: s.title ?? '',
    description: content,
    privacy_level: privacy,
    disable_comment: creator.commentDisabled || s.disableComment === true,
    auto_add_music: s.autoAddMusic === true,
    brand_content_toggle: s.brandContentToggle === true,
    brand_organic_toggle: s.brandOrganicToggle === true,
  };
}

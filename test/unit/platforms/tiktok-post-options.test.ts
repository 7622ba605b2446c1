// Herald's tiktokSettings → TikTok post_info, within what the creator allows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPrivacy, photoPostInfo, readSettings, videoPostInfo } from '../../../src/platforms/tiktok/post-options.ts';
import type { CreatorInfo } from '../../../src/platforms/tiktok/creator.ts';

const creator = (over: Partial<CreatorInfo> = {}): CreatorInfo => ({
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  ...over,
});

test('video post_info carries the caption as title and every option', () => {
  const s = readSettings({ privacyLevel: 'SELF_ONLY', disableComment: true, videoCoverTimestampMs: 1500, brandOrganicToggle: true, isAigc: true });
  assert.deepEqual(videoPostInfo('caption #tag', 'SELF_ONLY', s, creator()), {
    title: 'caption #tag',
    privacy_level: 'SELF_ONLY',
    disable_comment: true,
    disable_duet: false,
    disable_stitch: false,
    brand_content_toggle: false,
    brand_organic_toggle: true,
    is_aigc: true,
    video_cover_timestamp_ms: 1500,
  });
});

test('interactions the creator has disabled stay disabled whatever the post asks', () => {
  const s = readSettings({ disableComment: false, disableDuet: false, disableStitch: false });
  const info = videoPostInfo('', 'SELF_ONLY', s, creator({ commentDisabled: true, duetDisabled: true, stitchDisabled: true }));
  assert.deepEqual([info.disable_comment, info.disable_duet, info.disable_stitch], [true, true, true]);
  assert.equal(photoPostInfo('', 'SELF_ONLY', s, creator({ commentDisabled: true })).disable_comment, true);
});

test('photo post_info: title from settings, content as description, no duet/stitch/AIGC fields', () => {
  const info = photoPostInfo('the description', 'PUBLIC_TO_EVERYONE', readSettings({ title: 'Title', autoAddMusic: true, disableDuet: true }), creator());
  assert.deepEqual(info, {
    title: 'Title',
    description: 'the description',
    privacy_level: 'PUBLIC_TO_EVERYONE',
    disable_comment: false,
    auto_add_music: true,
    brand_content_toggle: false,
    brand_organic_toggle: false,
  });
});

test('readSettings drops values of the wrong type', () => {
  assert.deepEqual(readSettings({ privacyLevel: 'EVERYONE', disableComment: 'yes', videoCoverTimestampMs: -1, title: 5 }), {});
});

test('the privacy level must be among the creator options (when TikTok lists any)', () => {
  assert.equal(checkPrivacy(creator(), 'SELF_ONLY'), null);
  const refused = checkPrivacy(creator(), 'FOLLOWER_OF_CREATOR');
  assert.equal(refused?.category, 'content_rejected');
  assert.equal(refused?.platformCode, 'privacy_level_option_mismatch');
  assert.equal(checkPrivacy(creator({ privacyLevelOptions: [] }), 'FOLLOWER_OF_CREATOR'), null);
});

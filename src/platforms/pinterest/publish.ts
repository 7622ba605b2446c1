// Publishing a Pinterest target: one POST /v5/pins, after the media is ready (images fetched and
// checked; a video uploaded and processed). That call is the irreversible step: the time it is first
// sent is checkpointed before it, and any later attempt looks on the board for the Pin before sending
// again (a 5xx or a cut connection may come after Pinterest made it).
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { asId, callApi, isFailure, type Json } from './client.ts';
import { readCheckpoint, toCheckpoint, type PinterestCheckpoint } from './checkpoint.ts';
import { BASE64_MAX_TOTAL_BYTES, pinUrl, VIDEO_COVER_KEY_FRAME_SEC } from './info.ts';
import { findPin, type LocateOptions } from './locate.ts';
import { fitsBase64, loadImages, loadVideo, type LoadedImage } from './media.ts';
import { readSettings } from './settings.ts';
import { mediaShape, type MediaShape } from './validate.ts';
import { readyVideo, type VideoOptions } from './video.ts';

export interface PublishOptions {
  video: VideoOptions;
  locate: LocateOptions;
  base64MaxTotalBytes: number;
}

export const DEFAULT_BASE64_MAX = BASE64_MAX_TOTAL_BYTES;

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The media_source of an image or carousel Pin: the checked bytes when they fit, else the URLs. */
export function imageSource(images: LoadedImage[], maxBase64Bytes: number): Json {
  const asBytes = fitsBase64(images, maxBase64Bytes);
  if (images.length === 1) {
    const [img] = images as [LoadedImage];
    return asBytes
      ? { source_type: 'image_base64', content_type: img.contentType, data: base64(img.bytes) }
      : { source_type: 'image_url', url: img.item.url };
  }
  return asBytes
    ? { source_type: 'multiple_image_base64', items: images.map((i) => ({ content_type: i.contentType, data: base64(i.bytes) })) }
    : { source_type: 'multiple_image_urls', items: images.map((i) => ({ url: i.item.url })) };
}

async function mediaSource(
  deps: AdapterDeps,
  options: PublishOptions,
  request: PublishRequest,
  shape: Exclude<MediaShape, { error: unknown }>,
  cp: PinterestCheckpoint,
): Promise<{ source: Json; cp: PinterestCheckpoint; payloadBytes: number } | PlatformFailure> {
  if (shape.kind !== 'video') {
    const images = await loadImages(deps, shape.images);
    if (isFailure(images)) return images;
    const source = imageSource(images, options.base64MaxTotalBytes);
    const inline = String(source.source_type).endsWith('base64');
    return { source, cp, payloadBytes: inline ? Math.ceil((images.reduce((n, i) => n + i.bytes.byteLength, 0) * 4) / 3) : 0 };
  }
  const ready = await readyVideo(deps, options.video, request, cp, () => loadVideo(deps, shape.video, options.video.maxVideoBytes));
  if (isFailure(ready)) return ready;
  return {
    source: { source_type: 'video_id', media_id: ready.mediaId, cover_image_key_frame_time: VIDEO_COVER_KEY_FRAME_SEC },
    cp: { ...cp, mediaId: ready.mediaId },
    payloadBytes: 0,
  };
}

/** The alt text of the Pin: the image's (or video's); a carousel's is its first image's, its cover. */
function altTextOf(shape: Exclude<MediaShape, { error: unknown }>): string | undefined {
  const item = shape.kind === 'video' ? shape.video : shape.images[0];
  return item?.altText && item.altText.trim() ? item.altText : undefined;
}

export async function publishPinterest(deps: AdapterDeps, options: PublishOptions, request: PublishRequest): Promise<PublishOutcome> {
  const shape = mediaShape(request.media);
  if ('error' in shape) return failure('content_rejected', `Pinterest cannot take this post: ${shape.error.message}`);
  const settings = readSettings(request.settings);
  if (!settings.boardId) return failure('content_rejected', 'a Pin needs a board: set platformSpecificData.boardId');

  let cp: PinterestCheckpoint = readCheckpoint(request.checkpoint) ?? { kind: shape.kind };
  if (cp.pinSentAt !== undefined) {
    // An earlier attempt asked for the Pin and did not learn the answer (or was told to retry).
    const found = await findPin(deps, options.locate, request, cp.pinSentAt);
    if (!found.ok) return found;
    if (found.found === true) return { ok: true, platformPostId: found.platformPostId, platformPostUrl: found.platformPostUrl };
    if (found.found === 'unknown') return failure('outcome_unknown', `an earlier attempt may have made the Pin: ${found.message}`);
  }

  const media = await mediaSource(deps, options, request, shape, cp);
  if (isFailure(media)) return media;
  cp = { ...media.cp, pinSentAt: cp.pinSentAt ?? deps.clock.now() };
  await request.saveCheckpoint(toCheckpoint(cp));

  const body: Json = { board_id: settings.boardId, media_source: media.source };
  if (request.content) body.description = request.content;
  if (settings.title) body.title = settings.title;
  if (settings.link) body.link = settings.link;
  const alt = altTextOf(shape);
  if (alt) body.alt_text = alt;
  const res = await callApi(deps, {
    method: 'POST',
    path: '/v5/pins',
    token: request.account.accessToken,
    json: body,
    creates: true,
    doing: 'creating the Pin',
    signal: request.signal,
    // Inline images make a large body: give it time to go (at least ~100 kB/s) rather than cut it short.
    timeoutMs: media.payloadBytes > 1_000_000 ? 30_000 + Math.ceil(media.payloadBytes / 100) : undefined,
  });
  if (!res.ok) return res;
  const id = asId(res.body.id);
  if (!id) return failure('outcome_unknown', `Pinterest answered ${res.status} to the Pin without its id; the Pin may exist`, { httpStatus: res.status });
  return { ok: true, platformPostId: id, platformPostUrl: pinUrl(id) };
}

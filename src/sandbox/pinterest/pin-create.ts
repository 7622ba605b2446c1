// The rules of POST /v5/pins (PinCreate, §9.5): lengths, link, board, and the five usable
// media_source types — URLs really downloaded, base64 really decoded, video ids only once processed,
// a cover for every video. Each refusal is what Pinterest would answer, in its envelope.
import { codePoints, MESSAGES, type Caller, type PinterestContext } from './context.ts';
import { sniffImage } from './images.ts';
import type { PinMedia, PinMediaType, UploadRecord } from './store.ts';
import type { SandboxBoard } from './users.ts';
import { canWriteBoard } from './views.ts';

type Json = Record<string, unknown>;
export type Refusal = { status: number; code: number; message: string };
export interface NewPin {
  board: SandboxBoard;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  mediaType: PinMediaType;
  sourceType: string;
  media: PinMedia[];
  upload?: UploadRecord;
}

const invalid = (message: string): Refusal => ({ status: 400, code: 1, message: `Invalid request: ${message}` });
const LIMITS: [string, number][] = [['title', 100], ['description', 800], ['alt_text', 500], ['link', 2048]];
const BASE64 = /^[a-zA-Z0-9+/=]+$/;
const BASE64_TYPES = ['image/jpeg', 'image/png'];

function obj(v: unknown): Json | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
}

function optionalText(body: Json, name: string): string | null | Refusal {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return invalid(`${name} must be a string`);
  return v;
}

async function fromUrl(ctx: PinterestContext, url: unknown): Promise<PinMedia | Refusal> {
  if (typeof url !== 'string' || !url) return invalid('media_source.url is required');
  const got = await ctx.fetchImage(url);
  if (!got.ok) return invalid(`Sorry, we could not fetch the image from that URL (${got.reason})`);
  if (!sniffImage(got.bytes)) return { status: 403, code: 235, message: 'Sorry, the image at that URL is broken or not in a format we can read.' };
  return { type: 'image', source: url, bytes: got.bytes.byteLength };
}

function fromBase64(contentType: unknown, data: unknown): PinMedia | Refusal {
  if (typeof contentType !== 'string' || !BASE64_TYPES.includes(contentType)) return invalid(`content_type must be one of ${BASE64_TYPES.join(', ')}`);
  if (typeof data !== 'string' || !BASE64.test(data)) return invalid("data does not match '^[a-zA-Z0-9+/=]+$'");
  const bytes = Buffer.from(data, 'base64');
  const seen = sniffImage(bytes);
  if (!seen || !BASE64_TYPES.includes(seen)) return { status: 403, code: 235, message: 'Sorry, the image data is broken or not a JPEG or PNG image.' };
  return { type: 'image', source: `base64:${contentType}`, bytes: bytes.byteLength };
}

async function items(ctx: PinterestContext, source: Json, kind: 'url' | 'base64'): Promise<PinMedia[] | Refusal> {
  const list = source.items;
  if (!Array.isArray(list) || list.length < 2 || list.length > 5) return invalid('media_source.items must hold 2 to 5 images');
  if (source.index !== undefined && (!Number.isInteger(source.index) || (source.index as number) < 0)) return invalid('media_source.index must be an integer of at least 0');
  const out: PinMedia[] = [];
  for (const raw of list) {
    const item = obj(raw);
    if (!item) return invalid('each of media_source.items must be an object');
    const media = kind === 'url' ? await fromUrl(ctx, item.url) : fromBase64(item.content_type, item.data);
    if ('code' in media) return media;
    out.push(media);
  }
  return out;
}

function video(ctx: PinterestContext, caller: Caller, source: Json): { media: PinMedia; upload: UploadRecord } | Refusal {
  const id = source.media_id;
  if (typeof id !== 'string' || !/^\d+$/.test(id)) return invalid("media_source.media_id must match '^\\d+$'");
  const upload = ctx.store.uploads.get(id);
  if (!upload || upload.ownerId !== caller.user.id) return { status: 404, code: 404, message: MESSAGES.uploadNotFound };
  const status = ctx.store.uploadStatus(upload);
  // Unconfirmed (§9.13 point 5): the emulator refuses any media not yet succeeded, and any reuse.
  if (status !== 'succeeded') return invalid(`media upload ${id} is not ready to be used (status: ${status})`);
  if (upload.usedByPin) return invalid(`media upload ${id} is already used by another Pin`);
  const hasUrl = typeof source.cover_image_url === 'string' && source.cover_image_url !== '';
  const hasData = source.cover_image_data !== undefined || source.cover_image_content_type !== undefined;
  const frame = source.cover_image_key_frame_time;
  if (frame !== undefined && (!Number.isInteger(frame) || (frame as number) < 0)) return invalid('cover_image_key_frame_time must be an integer of at least 0');
  if (hasData) {
    const cover = fromBase64(source.cover_image_content_type, source.cover_image_data);
    if ('code' in cover) return cover;
  }
  if (!hasUrl && !hasData && frame === undefined) {
    return invalid('a video Pin needs a cover: cover_image_url, cover_image_content_type with cover_image_data, or cover_image_key_frame_time');
  }
  return { media: { type: 'video', source: `video:${id}`, bytes: upload.received?.bytes ?? 0 }, upload };
}

export async function checkPinCreate(ctx: PinterestContext, caller: Caller, raw: unknown): Promise<NewPin | Refusal> {
  const body = obj(raw);
  if (!body) return invalid('the body must be a JSON object');
  const texts: Record<string, string | null> = {};
  for (const [name, limit] of LIMITS) {
    const v = optionalText(body, name);
    if (v !== null && typeof v === 'object') return v;
    if (v !== null && codePoints(v) > limit) return invalid(`${name} is longer than ${limit} characters`);
    texts[name] = v;
  }
  if (texts.link !== null && !/^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(texts.link!)) return invalid('Whoops! The link is not a valid URL.');
  if (body.dominant_color !== undefined && body.dominant_color !== null && !/^#[0-9a-fA-F]{6}$/.test(String(body.dominant_color))) {
    return invalid('dominant_color must be a hex color such as #6E7874');
  }
  const boardId = body.board_id;
  if (typeof boardId !== 'string' || !/^\d+$/.test(boardId)) return invalid("board_id is required and must match '^\\d+$'");
  const found = ctx.store.boardOf(boardId);
  if (!found || !canWriteBoard(caller, found.board)) return { status: 404, code: 40, message: MESSAGES.boardNotFound };
  if (body.board_section_id !== undefined && body.board_section_id !== null) return { status: 404, code: 2031, message: "Sorry! We couldn't find this board section." };

  const source = obj(body.media_source);
  if (!source) return invalid('media_source is required');
  const base = { board: found.board, title: texts.title ?? null, description: texts.description ?? null, link: texts.link ?? null, altText: texts.alt_text ?? null, sourceType: String(source.source_type) };
  switch (source.source_type) {
    case 'image_url':
    case 'image_base64': {
      const media = source.source_type === 'image_url' ? await fromUrl(ctx, source.url) : fromBase64(source.content_type, source.data);
      return 'code' in media ? media : { ...base, mediaType: 'image', media: [media] };
    }
    case 'multiple_image_urls':
    case 'multiple_image_base64': {
      const list = await items(ctx, source, source.source_type === 'multiple_image_urls' ? 'url' : 'base64');
      return 'code' in list ? list : { ...base, mediaType: 'multiple_images', media: list };
    }
    case 'video_id': {
      const v = video(ctx, caller, source);
      return 'code' in v ? v : { ...base, mediaType: 'video', media: [v.media], upload: v.upload };
    }
    case 'pin_url':
      return { status: 403, code: 29, message: MESSAGES.notPermitted };
    default:
      return invalid('media_source.source_type must be one of image_url, image_base64, multiple_image_urls, multiple_image_base64, video_id');
  }
}

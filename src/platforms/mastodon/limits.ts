// An instance's own limits (GET /api/v2/instance, platforms.md §11.5), as Herald keeps them on the
// account's meta (at connect and at every health check) so that create-time rules can read them.
import type { AccountMeta } from '../types.ts';
import { DEFAULT_MEDIA_LIMITS, DEFAULT_STATUS_LIMITS } from './info.ts';

export interface InstanceLimits {
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  descriptionLimit: number;
  /** The types the instance accepts, when it lists them. */
  supportedMimeTypes?: string[];
}

export const DEFAULT_LIMITS: InstanceLimits = {
  ...DEFAULT_STATUS_LIMITS,
  imageSizeLimit: DEFAULT_MEDIA_LIMITS.imageSizeLimit,
  videoSizeLimit: DEFAULT_MEDIA_LIMITS.videoSizeLimit,
  descriptionLimit: DEFAULT_MEDIA_LIMITS.descriptionLimit,
};

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

function nonNegativeInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The limits of a `GET /api/v2/instance` answer, defaults where it says nothing. */
export function limitsFromInstance(body: unknown): InstanceLimits {
  const configuration = obj(obj(body).configuration);
  const statuses = obj(configuration.statuses);
  const media = obj(configuration.media_attachments);
  const out: InstanceLimits = {
    maxCharacters: positiveInt(statuses.max_characters) ?? DEFAULT_LIMITS.maxCharacters,
    maxMediaAttachments: positiveInt(statuses.max_media_attachments) ?? DEFAULT_LIMITS.maxMediaAttachments,
    charactersReservedPerUrl: nonNegativeInt(statuses.characters_reserved_per_url) ?? DEFAULT_LIMITS.charactersReservedPerUrl,
    imageSizeLimit: positiveInt(media.image_size_limit) ?? DEFAULT_LIMITS.imageSizeLimit,
    videoSizeLimit: positiveInt(media.video_size_limit) ?? DEFAULT_LIMITS.videoSizeLimit,
    descriptionLimit: positiveInt(media.description_limit) ?? DEFAULT_LIMITS.descriptionLimit,
  };
  if (Array.isArray(media.supported_mime_types)) {
    out.supportedMimeTypes = media.supported_mime_types.filter((t): t is string => typeof t === 'string');
  }
  return out;
}

/** The limits stored on an account's meta; the defaults for anything missing or malformed. */
export function limitsOf(meta: AccountMeta | undefined): InstanceLimits {
  const raw = obj(meta?.limits);
  const out: InstanceLimits = {
    maxCharacters: positiveInt(raw.maxCharacters) ?? DEFAULT_LIMITS.maxCharacters,
    maxMediaAttachments: positiveInt(raw.maxMediaAttachments) ?? DEFAULT_LIMITS.maxMediaAttachments,
    charactersReservedPerUrl: nonNegativeInt(raw.charactersReservedPerUrl) ?? DEFAULT_LIMITS.charactersReservedPerUrl,
    imageSizeLimit: positiveInt(raw.imageSizeLimit) ?? DEFAULT_LIMITS.imageSizeLimit,
    videoSizeLimit: positiveInt(raw.videoSizeLimit) ?? DEFAULT_LIMITS.videoSizeLimit,
    descriptionLimit: positiveInt(raw.descriptionLimit) ?? DEFAULT_LIMITS.descriptionLimit,
  };
  if (Array.isArray(raw.supportedMimeTypes)) out.supportedMimeTypes = raw.supportedMimeTypes.filter((t): t is string => typeof t === 'string');
  return out;
}

/** The instance's name for messages ("mastodon.social"), from the meta. */
export function domainOf(meta: AccountMeta | undefined): string {
  return typeof meta?.domain === 'string' && meta.domain ? meta.domain : 'the instance';
}

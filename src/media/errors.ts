// The media library's own answers (API.md section 10), as ApiErrors: http/ renders them like any other.
import { ApiError } from '../contract/errors.ts';

/** Seconds a client is told to wait before trying a failing store (or prober) again. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

export const mediaErrors = {
  unsupported: (message: string) => new ApiError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message, b: { type: 'invalid_request_error', code: 'unsupported_media_type' } }),
  unreadable: (message: string) => new ApiError({ status: 400, code: 'MEDIA_UNREADABLE', message }),
  tooLarge: (limit: number) => new ApiError({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: `the file is larger than ${limit} bytes (HERALD_MEDIA_MAX_BYTES)` }),
  storageUnavailable: (message: string) =>
    new ApiError({ status: 503, code: 'STORAGE_UNAVAILABLE', message: `${message}; nothing was kept, try again later`, headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) } }),
  probeUnavailable: (message: string) =>
    new ApiError({ status: 503, code: 'MEDIA_PROBE_UNAVAILABLE', message: `${message}; nothing was kept, try again later`, headers: { 'retry-after': String(STORAGE_RETRY_AFTER_SECONDS) } }),
  quotaExceeded: (quota: number, used: number, adding: number | null) =>
    new ApiError({
      status: 422,
      code: 'MEDIA_QUOTA_EXCEEDED',
      message:
        adding === null
          ? `this API key stores ${used} bytes of media, its quota is ${quota} bytes (HERALD_MEDIA_QUOTA_BYTES); delete media to make room`
          : `this file (${adding} bytes) would take this API key to ${used + adding} bytes of media, past its quota of ${quota} bytes (HERALD_MEDIA_QUOTA_BYTES); delete media to make room`,
    }),
  inUse: (id: string) =>
    new ApiError({ status: 409, code: 'MEDIA_IN_USE', message: `media ${id} is used by a draft, a scheduled post or a target still publishing; remove it from those posts (or delete them) first` }),
  fetchFailed: (message: string) => new ApiError({ status: 400, code: 'MEDIA_FETCH_FAILED', message, param: 'url' }),
};

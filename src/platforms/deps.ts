// What an adapter is built from. The composition root fills this from the validated configuration;
// tests build it pointing at emulators on 127.0.0.1.
import type { Clock } from '../lib/clock.ts';
import type { PlatformHttp } from './http.ts';
import type { MediaItem } from './types.ts';

/** One platform app's settings (HERALD_<PLATFORM>_*, named by the platform's descriptor). */
export interface PlatformAppConfig {
  clientId: string;
  clientSecret: string;
  /** Base of the platform's API, e.g. https://api.x.com or https://graph.facebook.com. */
  apiUrl: string;
  /** The platform's consent page ('' when it has none). */
  authUrl: string;
  /** Where codes are exchanged and tokens refreshed or revoked (apiUrl when not separate). */
  tokenUrl: string;
  /** The API version the operator pinned, e.g. Graph's "v25.0" ('' when the platform has none). */
  apiVersion: string;
}

export interface MediaFile {
  bytes: Uint8Array;
  contentType: string;
}

export type MediaFetchResult =
  | ({ ok: true } & MediaFile)
  | { ok: false; message: string; /** true when trying again later may work (5xx, time-out) */ transient: boolean };

/**
 * The bytes of a media item: a URL the user gave is downloaded through the outbound guard (API.md section
 * 9: private and loopback addresses refused unless allowed, size and time capped); library media (an item
 * with `stored`) is read from Herald's media store, with the same size cap.
 */
export interface MediaFetcher {
  fetch(source: Pick<MediaItem, 'url' | 'stored'>, options: { maxBytes: number }): Promise<MediaFetchResult>;
}

export interface PublishTiming {
  /** Wait between status polls when the platform does not say (container, upload, publish status). */
  pollIntervalMs: number;
  /** Give up waiting for platform-side processing after this long (then: outcome unknown / failed). */
  maxProcessingMs: number;
}

export interface AdapterDeps {
  app: PlatformAppConfig;
  /** HTTP to the platform's own hosts (the configured URLs). */
  http: PlatformHttp;
  /**
   * HTTP to servers the user names (Mastodon instances, Bluesky PDSes): user input, so the outbound
   * address guard applies (private and loopback addresses refused unless allowed).
   */
  serverHttp: PlatformHttp;
  media: MediaFetcher;
  clock: Clock;
  timing: PublishTiming;
}

// Pinterest downloads image_url sources itself. So does the emulator: through Herald's outbound guard,
// so that, like Pinterest, it cannot reach private or loopback addresses (and the sandbox mounted in
// Herald cannot be used to probe them). Tests that serve media on 127.0.0.1 allow private addresses.
import { createOutboundClient, type OutboundClient } from '../../net/outbound.ts';

export type ImageFetch = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };
export type ImageFetcher = (url: string) => Promise<ImageFetch>;

/** The largest image the emulator downloads (third-party figure for Pinterest: 32 MB). */
export const MAX_IMAGE_DOWNLOAD_BYTES = 32 * 1024 * 1024;

export function createImageFetcher(options: { allowPrivateNetworks: boolean }): ImageFetcher {
  let client: OutboundClient | undefined;
  return async (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { ok: false, reason: 'the URL is not valid' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'the URL is not http(s)' };
    client ??= createOutboundClient({ allowPrivateNetworks: options.allowPrivateNetworks, userAgent: 'Pinterestbot (Herald sandbox)' });
    const res = await client.request({ method: 'GET', url, timeoutMs: 10_000, maxBytes: MAX_IMAGE_DOWNLOAD_BYTES, maxRedirects: 3 });
    if (!res.ok) return { ok: false, reason: res.message };
    if (res.status < 200 || res.status >= 300) return { ok: false, reason: `the image URL answered ${res.status}` };
    return { ok: true, bytes: res.body };
  };
}

/** The image formats Pinterest reads from a URL (§9.6, unconfirmed list), recognised from the bytes. */
export function sniffImage(b: Uint8Array): string | undefined {
  const s = (start: number, n: number) => Buffer.from(b.buffer, b.byteOffset + start, Math.max(0, Math.min(n, b.byteLength - start))).toString('latin1');
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (s(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (s(0, 6) === 'GIF87a' || s(0, 6) === 'GIF89a') return 'image/gif';
  if (s(0, 4) === 'RIFF' && s(8, 4) === 'WEBP') return 'image/webp';
  if (s(0, 2) === 'BM') return 'image/bmp';
  if (s(0, 4) === 'II*\0' || s(0, 4) === 'MM\0*') return 'image/tiff';
  return undefined;
}

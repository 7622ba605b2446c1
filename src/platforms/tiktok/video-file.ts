// What Herald can tell about a video from its bytes before sending it: the container (TikTok takes
// MP4, MOV and WebM) and, for MP4/MOV, the duration from the movie header, so a video longer than the
// creator may post is refused before minutes of uploading.

import { ascii } from '../../lib/mp4.ts';
export { mp4DurationSec } from '../../lib/mp4.ts';

export type VideoMimeType = 'video/mp4' | 'video/quicktime' | 'video/webm';

export function videoMimeType(bytes: Uint8Array): VideoMimeType | undefined {
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') return ascii(bytes, 8, 4) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  return undefined;
}

// What Herald can tell about a video from its bytes before sending it: the container (TikTok takes
// MP4, MOV and WebM) and, for MP4/MOV, the duration from the movie header, so a video longer than the
// creator may post is refused before minutes of uploading.

export type VideoMimeType = 'video/mp4' | 'video/quicktime' | 'video/webm';

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

export function videoMimeType(bytes: Uint8Array): VideoMimeType | undefined {
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') return ascii(bytes, 8, 4) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  return undefined;
}

interface Box {
  type: string;
  bodyStart: number;
  end: number;
}

function* boxes(view: DataView, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = ascii(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), offset + 4, 4);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) return;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header || offset + size > end) return;
    yield { type, bodyStart: offset + header, end: offset + size };
    offset += size;
  }
}

/** Duration in seconds from the MP4/MOV movie header (moov/mvhd), or null when it cannot be read. */
export function mp4DurationSec(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const moov of boxes(view, 0, bytes.byteLength)) {
    if (moov.type !== 'moov') continue;
    for (const box of boxes(view, moov.bodyStart, moov.end)) {
      if (box.type !== 'mvhd') continue;
      const version = view.getUint8(box.bodyStart);
      // version 0: 32-bit creation/modification times and duration; version 1: 64-bit.
      const fieldsStart = box.bodyStart + 4;
      if (version === 1) {
        if (fieldsStart + 28 > box.end) return null;
        const timescale = view.getUint32(fieldsStart + 16);
        const duration = Number(view.getBigUint64(fieldsStart + 20));
        return timescale > 0 ? duration / timescale : null;
      }
      if (fieldsStart + 16 > box.end) return null;
      const timescale = view.getUint32(fieldsStart + 8);
      const duration = view.getUint32(fieldsStart + 12);
      return timescale > 0 ? duration / timescale : null;
    }
  }
  return null;
}

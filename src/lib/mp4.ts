// Reading an MP4/MOV file already in memory: the ASCII of a magic number, and the duration from the movie
// header (moov/mvhd). Adapters use it to refuse a video longer than the platform takes before minutes of
// uploading, and emulators to apply the same rule. (src/media/iso-boxes.ts walks a file on disk instead,
// reading 16 bytes per box.)

export function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

interface Box {
  type: string;
  bodyStart: number;
  end: number;
}

function* boxes(bytes: Uint8Array, view: DataView, start: number, end: number): Generator<Box> {
  let offset = start;
  while (offset + 8 <= end) {
    let size = view.getUint32(offset);
    const type = ascii(bytes, offset + 4, 4);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) return;
      size = Number(view.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset; // "extends to the end of the file"
    }
    if (size < header || offset + size > end) return;
    yield { type, bodyStart: offset + header, end: offset + size };
    offset += size;
  }
}

/** Duration in seconds from the movie header (moov/mvhd), or null when it cannot be read. */
export function mp4DurationSec(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const moov of boxes(bytes, view, 0, bytes.byteLength)) {
    if (moov.type !== 'moov') continue;
    for (const box of boxes(bytes, view, moov.bodyStart, moov.end)) {
      if (box.type !== 'mvhd') continue;
      const version = view.getUint8(box.bodyStart);
      // version 0: 32-bit creation/modification times and duration; version 1: 64-bit.
      const fields = box.bodyStart + 4;
      if (version === 1) {
        if (fields + 28 > box.end) return null;
        const timescale = view.getUint32(fields + 16);
        return timescale > 0 ? Number(view.getBigUint64(fields + 20)) / timescale : null;
      }
      if (fields + 16 > box.end) return null;
      const timescale = view.getUint32(fields + 8);
      return timescale > 0 ? view.getUint32(fields + 12) / timescale : null;
    }
  }
  return null;
}

// Walks the top-level boxes (atoms) of an ISO base media file: MP4, QuickTime, HEIC. A file cut short in
// transfer still has a readable header, and ffprobe or libheif happily report its duration and size from
// it; only the box sizes show that the media data ends past the end of the file. Reads 16 bytes per box
// at their offsets, so a 1 GiB movie costs a handful of reads.
import type { FileHandle } from 'node:fs/promises';

/** Stop after this many boxes: a real file has a few; a corrupt one could chain thousands of tiny ones. */
const MAX_BOXES = 10_000;

export interface BoxWalk {
  /** Top-level box types in file order, e.g. ['ftyp', 'moov', 'mdat']. */
  types: string[];
  /** Why the file is not whole, or null when every box ends within the file. */
  problem: string | null;
}

export async function walkTopLevelBoxes(file: FileHandle, fileSize: number): Promise<BoxWalk> {
  const types: string[] = [];
  const header = Buffer.alloc(16);
  let offset = 0;
  while (offset < fileSize) {
    if (types.length >= MAX_BOXES) return { types, problem: `more than ${MAX_BOXES} top-level boxes` };
    const { bytesRead } = await file.read(header, 0, 16, offset);
    if (bytesRead < 8) return { types, problem: `the file ends inside a box header at byte ${offset}` };
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (size === 1) {
      if (bytesRead < 16) return { types, problem: `the file ends inside the header of box '${type}'` };
      size = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = fileSize - offset; // "extends to the end of the file"
    }
    if (size < headerSize) return { types, problem: `box '${printable(type)}' at byte ${offset} has an impossible size (${size})` };
    types.push(type);
    if (offset + size > fileSize) {
      const missing = offset + size - fileSize;
      return { types, problem: `the file is truncated: box '${printable(type)}' needs ${missing} more bytes than the file has` };
    }
    offset += size;
  }
  return { types, problem: null };
}

function printable(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type) ? type : 'unknown';
}

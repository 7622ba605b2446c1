// Splits a video into the chunks TikTok's FILE_UPLOAD expects: total_chunk_count is
// floor(video_size / chunk_size) and the last chunk absorbs the remainder.
import type { ChunkRules } from './info.ts';

export interface ChunkRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive (as Content-Range writes it). */
  end: number;
}

export interface ChunkPlan {
  chunkSize: number;
  totalChunkCount: number;
  ranges: ChunkRange[];
}

export function planChunks(videoSize: number, rules: ChunkRules, preferredChunkBytes: number): ChunkPlan | { error: string } {
  if (!Number.isInteger(videoSize) || videoSize <= 0) return { error: 'the video is empty' };
  let chunkSize = Math.min(Math.max(preferredChunkBytes, rules.minChunkBytes), rules.maxChunkBytes);
  // Small files must go whole; files that fit one chunk may as well.
  if (videoSize <= chunkSize) chunkSize = videoSize;
  else if (Math.floor(videoSize / chunkSize) > rules.maxChunks) chunkSize = Math.ceil(videoSize / rules.maxChunks);
  if (chunkSize > rules.maxChunkBytes) return { error: `the video is too large to upload (${videoSize} bytes)` };

  const totalChunkCount = Math.floor(videoSize / chunkSize);
  const finalSize = videoSize - (totalChunkCount - 1) * chunkSize;
  if (finalSize > rules.maxFinalChunkBytes) return { error: `the video cannot be split into valid chunks (${videoSize} bytes)` };

  const ranges: ChunkRange[] = [];
  for (let i = 0; i < totalChunkCount; i++) {
    const start = i * chunkSize;
    const end = i === totalChunkCount - 1 ? videoSize - 1 : start + chunkSize - 1;
    ranges.push({ start, end });
  }
  return { chunkSize, totalChunkCount, ranges };
}

// Video facts from ffprobe (Debian's ffmpeg package), run on the file's path with a time limit: ffprobe
// reads the container's index, not the whole movie, so a 1 GiB file is probed in milliseconds. Its JSON
// is read defensively: every field may be missing in a strange file.
import { execFile } from 'node:child_process';
import type { ProbeFailure, VideoContainer, VideoFacts } from './facts.ts';

export interface VideoProbeOptions {
  /** The ffprobe executable: a path, or a name looked up on PATH. */
  ffprobePath: string;
  timeoutMs: number;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string; format_name?: string };
}

type RunResult = { ok: true; stdout: string } | ProbeFailure;

/** Runs ffprobe; a missing executable is reported as such, never as a bad file. */
export function runFfprobe(ffprobePath: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(ffprobePath, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, stdout });
      const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string };
      if (e.code === 'ENOENT' || e.code === 'EACCES') {
        return resolve({ ok: false, reason: 'prober_missing', message: `ffprobe could not be run (${ffprobePath}: ${e.code}); install Debian's ffmpeg package or set its path` });
      }
      if (e.killed || e.signal === 'SIGKILL') return resolve({ ok: false, reason: 'timeout', message: `ffprobe took longer than ${timeoutMs} ms` });
      // Killed by a signal of its own (a crash on this file): no exit code, and stderr may hold nothing.
      if (e.signal) return resolve({ ok: false, reason: 'unreadable', message: `ffprobe crashed (${e.signal}) while reading the video` });
      const detail = String(stderr).trim().split('\n').pop()?.replace(/^.*?: /, '') || `exit code ${e.code}`;
      resolve({ ok: false, reason: 'unreadable', message: `the video cannot be read: ${detail}` });
    });
  });
}

function parseRate(rate: string | undefined): number | null {
  const m = /^(\d+)\/(\d+)$/.exec(rate ?? '');
  if (!m || Number(m[2]) === 0 || Number(m[1]) === 0) return null;
  return Math.round((Number(m[1]) / Number(m[2])) * 1000) / 1000;
}

/**
 * Clockwise display rotation. ffprobe's side data gives the display matrix's angle counter-clockwise
 * (an iPhone portrait movie says -90); older files carry a clockwise `rotate` tag instead.
 */
function rotationOf(stream: FfprobeStream): number {
  const matrix = stream.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && typeof d.rotation === 'number');
  const degrees = matrix ? -matrix.rotation! : Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(degrees)) return 0;
  return ((Math.round(degrees / 90) * 90) % 360 + 360) % 360;
}

function durationMs(out: FfprobeOutput, video: FfprobeStream): number | null {
  for (const text of [out.format?.duration, video.duration]) {
    const seconds = Number(text);
    if (text !== undefined && Number.isFinite(seconds) && seconds > 0) return Math.round(seconds * 1000);
  }
  return null;
}

export async function probeVideo(
  path: string,
  expected: { container: VideoContainer; contentType: string },
  bytes: number,
  options: VideoProbeOptions,
): Promise<{ ok: true; facts: VideoFacts } | ProbeFailure> {
  const run = await runFfprobe(options.ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', path], options.timeoutMs);
  if (!run.ok) return run;
  let out: FfprobeOutput;
  try {
    out = JSON.parse(run.stdout) as FfprobeOutput;
  } catch {
    return { ok: false, reason: 'unreadable', message: 'ffprobe did not describe the video' };
  }
  const streams = out.streams ?? [];
  // A cover picture is stored as a one-frame video stream; it is not the movie.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video || !video.width || !video.height || !video.codec_name) return { ok: false, reason: 'unreadable', message: 'the file has no readable video track' };
  const duration = durationMs(out, video);
  if (duration === null) return { ok: false, reason: 'unreadable', message: 'the video has no duration' };
  const rotation = rotationOf(video);
  const swapped = rotation === 90 || rotation === 270;
  return {
    ok: true,
    facts: {
      kind: 'video',
      container: expected.container,
      contentType: expected.contentType,
      bytes,
      width: swapped ? video.height : video.width,
      height: swapped ? video.width : video.height,
      durationMs: duration,
      frameRate: parseRate(video.avg_frame_rate) ?? parseRate(video.r_frame_rate),
      videoCodec: video.codec_name,
      audioCodec: audio?.codec_name ?? null,
      rotation,
    },
  };
}

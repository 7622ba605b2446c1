// The probe's facts of an image, for the benchmarks (the same prober Herald runs).
import type { ImageFacts } from '../src/media/facts.ts';
import { createProber } from '../src/media/probe.ts';

export async function probeImageFacts(path: string): Promise<ImageFacts> {
  const r = await createProber({ ffprobePath: 'ffprobe', timeoutMs: 30_000, maxImagePixels: 268_402_689 }).probe(path);
  if (!r.ok || r.facts.kind !== 'image') throw new Error(`not an image: ${JSON.stringify(r)}`);
  return r.facts;
}

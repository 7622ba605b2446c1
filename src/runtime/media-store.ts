// The media store the configuration names (API.md section 10): a directory, or an S3 bucket.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Config } from '../config.ts';
import { createDiskStore } from '../media/disk-store.ts';
import { createS3Store } from '../media/s3-store.ts';
import type { MediaStore } from '../media/store.ts';

export function openMediaStore(config: Config): MediaStore {
  const s = config.media.store;
  if (s.kind === 'disk') {
    mkdirSync(s.root, { recursive: true, mode: 0o700 });
    return createDiskStore({ root: s.root });
  }
  return createS3Store({
    bucket: s.bucket,
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    forcePathStyle: s.forcePathStyle,
    tmpDir: tmpdir(),
    connectTimeoutMs: Math.min(5_000, s.timeoutMs),
    requestTimeoutMs: s.timeoutMs,
  });
}

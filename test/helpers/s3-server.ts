// A real S3-compatible server on 127.0.0.1 for tests: s3rver 3.7 (npm), which speaks the S3 REST API over
// HTTP (PutObject, multipart uploads, ranges, HEAD, DELETE, presigned GETs) and keeps objects in a folder.
// Chosen because it installs from npm alone (no Docker, no Java, no Go binary to download) and works
// offline; MinIO is not in Debian, and the maintained fork (@20minutes/s3rver) needs Node 24. Its limits:
// it checks the access key id but does not verify SigV4 signatures, and it has no AbortMultipartUpload
// (an abandoned upload's parts stay in its folder; no object is made). Each call starts one on a random
// port with its own folder and bucket.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  endpoint: string;
  region: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The folder s3rver keeps objects in (to check that nothing was left behind). */
  directory: string;
  /** Keys of every object in the bucket, as the server stores them. */
  objectKeys(): Promise<string[]>;
  close(): Promise<void>;
}

/** The settings that put Herald's media on this server (`endpoint` overrides its address, for a proxy in front). */
export function s3Env(s3: TestS3Server, endpoint = s3.endpoint): Record<string, string> {
  return {
    HERALD_MEDIA_STORE: 's3',
    HERALD_S3_BUCKET: s3.bucket,
    HERALD_S3_REGION: s3.region,
    HERALD_S3_ENDPOINT: endpoint,
    HERALD_S3_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    HERALD_S3_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    HERALD_S3_FORCE_PATH_STYLE: 'true',
  };
}

export async function startS3Server(bucket = 'herald-media'): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'herald-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as unknown as { port: number };
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    bucket,
    // s3rver's fixed development credentials (another access key id is refused).
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    directory,
    async objectKeys() {
      const keys: string[] = [];
      const root = join(directory, bucket);
      for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
        // s3rver stores each object as <key>._S3rver_object beside its metadata files.
        if (entry.isFile() && entry.name.endsWith('._S3rver_object')) keys.push(join(entry.parentPath, entry.name).slice(root.length + 1).replace(/\._S3rver_object$/, ''));
      }
      return keys.sort();
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

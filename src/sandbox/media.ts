// Sample media the sandbox serves, so a walk-through (and the tests) can attach real files:
//   GET <root>/sample.jpg | sample.png | sample.mp4   (?bytes=N pads a file to N bytes, for chunked uploads)
import type { FastifyInstance } from 'fastify';

// A 1x1 white baseline JPEG.
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=',
  'base64',
);
// A 1x1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
// The start of an MP4 (an ftyp box); emulators check the signature, not the frames.
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42', 'latin1'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mp42isom', 'latin1'),
]);

export const SAMPLE_MEDIA: Record<string, { bytes: Buffer; contentType: string }> = {
  'sample.jpg': { bytes: JPEG, contentType: 'image/jpeg' },
  'sample.png': { bytes: PNG, contentType: 'image/png' },
  'sample.mp4': { bytes: MP4, contentType: 'video/mp4' },
};

const MAX_PADDED = 256 * 1024 * 1024;

/** Recognises the formats platforms care about from a file's first bytes. */
export function sniffMediaType(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'video/mp4' | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16));
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === '\x89PNG') return 'image/png';
  if (b.subarray(0, 3).toString('latin1') === 'GIF') return 'image/gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (b.subarray(4, 8).toString('latin1') === 'ftyp') return 'video/mp4';
  return undefined;
}

export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  app.get('/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    const sample = SAMPLE_MEDIA[name];
    if (!sample) return reply.code(404).send({ error: `no sample named ${name}; try ${Object.keys(SAMPLE_MEDIA).join(', ')}` });
    const wanted = Number((req.query as { bytes?: string }).bytes ?? 0);
    let bytes = sample.bytes;
    if (Number.isInteger(wanted) && wanted > bytes.length && wanted <= MAX_PADDED) {
      bytes = Buffer.concat([bytes, Buffer.alloc(wanted - bytes.length)]);
    }
    return reply.header('content-type', sample.contentType).send(bytes);
  });
}

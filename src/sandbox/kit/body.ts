// Body formats platforms accept beyond JSON: form posts (OAuth token endpoints, Graph), multipart
// (X media upload) and raw bytes (TikTok and Meta upload endpoints).
import type { FastifyInstance } from 'fastify';

export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

export function installBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (req, body, done) => {
    new Response(body as Buffer<ArrayBuffer>, { headers: { 'content-type': req.headers['content-type'] ?? '' } })
      .formData()
      .then((form) => done(null, form), (err: Error) => done(err, undefined));
  });
  for (const type of ['application/octet-stream', /^video\//, /^image\//]) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) => done(null, body));
  }
}

/** Reads a field from a parsed body whether it arrived as JSON, form or multipart. */
export function field(body: unknown, name: string): string | undefined {
  if (body instanceof FormData) {
    const v = body.get(name);
    return typeof v === 'string' ? v : undefined;
  }
  if (body && typeof body === 'object') {
    const v = (body as Record<string, unknown>)[name];
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  }
  return undefined;
}

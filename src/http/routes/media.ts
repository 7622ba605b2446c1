// /v1/media: the media library (API.md section 10). Uploads arrive as the raw file (its own Content-Type,
// optional ?filename=&altText=) or as multipart/form-data (one part `file`, optional field `altText`);
// either way the bytes stream to the store, never whole in memory.
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errors } from '../../contract/errors.ts';
import { ErrorA, commonErrorsA } from '../../contract/schemas.ts';
import type { MediaService, UploadInput } from '../../media/media-service.ts';
import { MAX_ALT_TEXT, DeletedMedia, ImportBody, ListMediaQuery, MediaIdParams, MediaObject, MediaPage, PatchMediaBody, UploadQuery } from '../../media/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { idempotencyHeader, security } from './posts.ts';

const tags = ['media'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idempotencyOf(req: FastifyRequest): UploadInput['idempotency'] {
  const header = req.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !UUID.test(key)) throw errors.invalid('Idempotency-Key', 'Idempotency-Key must be a UUID, e.g. 3f0b6a8e-2c1d-4e5f-9a7b-1c2d3e4f5a6b');
  return { key: key.toLowerCase(), request: `${req.method} ${req.url}` };
}

/** The multipart form: one part `file`, fields before or after it; any other part is refused. */
async function uploadMultipart(req: FastifyRequest, service: MediaService, apiKeyId: string, maxBytes: number, idempotency: UploadInput['idempotency']) {
  let altText: string | undefined;
  let answer: Awaited<ReturnType<MediaService['upload']>> | undefined;
  // The file's size limit is the service's (413 at maxBytes + 1); busboy only stops past it.
  const parts = req.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 5, fieldSize: MAX_ALT_TEXT * 4 + 16, parts: 6 } });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname !== 'altText') throw errors.unknownField(part.fieldname, `${part.fieldname} is not a known field; send one part "file" and optionally "altText"`);
        if (typeof part.value !== 'string' || [...part.value].length > MAX_ALT_TEXT) throw errors.invalid('altText', `altText must be text of at most ${MAX_ALT_TEXT} characters`);
        if (part.value.includes('\u0000')) throw errors.invalid('altText', 'altText must not contain the character U+0000 (NUL)');
        if (answer) {
          // A field after the file: the media exists already, so it is applied to it.
          if (answer.replayed) continue;
          answer = { status: answer.status, body: await service.setAltText(apiKeyId, answer.body.id, part.value) };
        } else altText = part.value;
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw errors.invalid(part.fieldname, `the file must be sent in a part named "file", not "${part.fieldname}"`);
      }
      answer = await service.upload(apiKeyId, { body: part.file as unknown as Readable, filename: part.filename, altText, idempotency });
    }
  } catch (err) {
    if (answer && !answer.replayed && !(err instanceof ApiError && err.status >= 500)) {
      // A second file (or another bad part) after the first was stored: keep nothing of this request.
      await service.remove(apiKeyId, answer.body.id).catch(() => {});
    }
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw errors.invalid('file', 'send one file per request; this form carries more than one');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw errors.invalid(undefined, 'this form has more parts than one file and its altText');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw errors.invalid(undefined, 'the multipart body has no boundary');
    throw errors.invalid(undefined, `the multipart body could not be read: ${(err as Error).message}`);
  }
  if (!answer) throw errors.missing('file', 'the form has no part named "file" holding the media file');
  return answer;
}

function send(reply: FastifyReply, answer: Awaited<ReturnType<MediaService['upload']>>) {
  if (answer.replayed) return reply.code(answer.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(answer.raw);
  return reply.code(answer.status).send(answer.body);
}

export function mediaRoutes(deps: { media: MediaService; maxBytes: number }) {
  const { media } = deps;
  // The upload route has body parsers of its own (any type as a stream, multipart); the JSON routes keep
  // the JSON-only rule (415 for anything else), so they live in a scope of their own.
  const uploads = async (base: FastifyInstance) => {
    // The raw file: whatever its type, the body reaches the handler as the request stream.
    base.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    await base.register(multipart, { throwFileSizeLimit: false });
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/media',
      {
        schema: {
          tags,
          operationId: 'uploadMedia',
          summary: 'Upload one file: the raw bytes with their Content-Type, or multipart/form-data with a part "file" (and "altText").',
          description:
            'Streamed to storage; the kind is recognised from the bytes. An Idempotency-Key is claimed once the bytes are in, for the request and the file\'s SHA-256: sending the same file again under it answers the first media object.',
          security,
          headers: idempotencyHeader,
          querystring: UploadQuery,
          consumes: ['application/octet-stream', 'image/*', 'video/*', 'application/pdf', 'multipart/form-data'],
          response: { 201: MediaObject, 409: ErrorA, 422: ErrorA, 503: ErrorA, ...commonErrorsA },
        },
      },
      async (req, reply) => {
        const apiKeyId = callerOf(req).id;
        try {
          const idempotency = idempotencyOf(req);
          if (req.isMultipart()) {
            if (req.query.filename !== undefined || req.query.altText !== undefined) {
              throw errors.invalid(req.query.filename !== undefined ? 'filename' : 'altText', 'with multipart/form-data, send altText as a form field (the file name comes from the part)');
            }
            return send(reply, await uploadMultipart(req, media, apiKeyId, deps.maxBytes, idempotency));
          }
          const body = req.body as unknown;
          if (!body || typeof (body as Readable).pipe !== 'function') {
            throw new ApiError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the file itself as the body with its own Content-Type (e.g. image/jpeg), or multipart/form-data with a part "file"' });
          }
          return send(reply, await media.upload(apiKeyId, { body: body as Readable, filename: req.query.filename, altText: req.query.altText, idempotency }));
        } catch (err) {
          // Answered before the body was read to its end (415, 413, 422, 503): close the connection
          // rather than read the rest of an upload nobody will keep.
          if (!req.raw.complete) reply.header('connection', 'close');
          throw err;
        }
      },
    );

  };

  const library = async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/media/import',
      {
        config: { idempotent: true },
        schema: {
          tags,
          operationId: 'importMedia',
          summary: 'Fetch a file from a URL (through the outbound guard) into the library.',
          security,
          headers: idempotencyHeader,
          body: ImportBody,
          response: { 201: MediaObject, 409: ErrorA, 422: ErrorA, 503: ErrorA, ...commonErrorsA },
        },
      },
      async (req, reply) => {
        const apiKeyId = callerOf(req).id;
        const recovered = req.idempotency?.recoveredResourceId;
        const out = recovered ? await media.get(apiKeyId, recovered) : await media.importUrl(apiKeyId, req.body, req.idempotency?.claim);
        return reply.code(201).send(out);
      },
    );

    app.get(
      '/media',
      { schema: { tags, operationId: 'listMedia', summary: 'List media, newest first, with keyset pagination.', security, querystring: ListMediaQuery, response: { 200: MediaPage, ...commonErrorsA } } },
      async (req) => media.list(callerOf(req).id, req.query),
    );

    app.get(
      '/media/:id',
      { schema: { tags, operationId: 'getMedia', summary: 'One media object.', security, params: MediaIdParams, response: { 200: MediaObject, ...commonErrorsA } } },
      async (req) => media.get(callerOf(req).id, req.params.id),
    );

    app.patch(
      '/media/:id',
      { schema: { tags, operationId: 'updateMedia', summary: 'Change the alt text (null clears it).', security, params: MediaIdParams, body: PatchMediaBody, response: { 200: MediaObject, ...commonErrorsA } } },
      async (req) => media.setAltText(callerOf(req).id, req.params.id, req.body.altText),
    );

    app.delete(
      '/media/:id',
      {
        schema: {
          tags,
          operationId: 'deleteMedia',
          summary: 'Delete a file and its renditions; its URL answers 404 from then on. 409 MEDIA_IN_USE while a draft, a scheduled post or an unfinished target uses it.',
          security,
          params: MediaIdParams,
          response: { 200: DeletedMedia, 409: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => media.remove(callerOf(req).id, req.params.id),
    );
  };

  return async (base: FastifyInstance) => {
    await base.register(uploads);
    await base.register(library);
  };
}

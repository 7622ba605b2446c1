// What the public media URL answers (API.md section 10): the bytes of a library file or of one of its
// renditions, to whoever holds the URL (platforms pull from it), with HEAD and a single Range, the right
// Content-Type and Content-Length, and 404 the moment the file's row is gone. No key: the token in the
// URL (192 random bits) is the credential.
import type { Readable } from 'node:stream';
import type { MediaDal } from './media-dal.ts';
import { renditionName } from './present.ts';
import { parseRangeHeader, type MediaStore } from './store.ts';

export type FileAnswer =
  | { status: 200 | 206; headers: Record<string, string>; body: Readable | null }
  | { status: 404 | 416 | 503; headers: Record<string, string>; error: { error: string; code: string } };

const notFound = (): FileAnswer => ({ status: 404, headers: {}, error: { error: 'no media at this address (it may have been deleted)', code: 'NOT_FOUND' } });

export function createPublicFiles(deps: { dal: Pick<MediaDal, 'byToken' | 'rendition'>; store: MediaStore }) {
  return {
    /** `name` is the original's file name, or `fit/<rule>.<ext>` for a rendition. */
    async open(token: string, name: string, request: { head: boolean; range: string | undefined }): Promise<FileAnswer> {
      const media = await deps.dal.byToken(token);
      if (!media) return notFound();
      let key: string;
      let contentType: string;
      let sha256: string;
      let size: number;
      if (name.startsWith('fit/')) {
        const wanted = name.slice(4);
        const ruleKey = wanted.replace(/\.[a-z0-9]+$/, '');
        const r = await deps.dal.rendition(media.id, ruleKey);
        if (!r || renditionName(r) !== wanted) return notFound();
        ({ store_key: key, content_type: contentType, sha256 } = r);
        size = Number(r.bytes);
      } else {
        if (name !== media.filename) return notFound();
        ({ store_key: key, content_type: contentType, sha256 } = media);
        size = Number(media.bytes);
      }
      const headers: Record<string, string> = {
        'content-type': contentType,
        'accept-ranges': 'bytes',
        etag: `"${sha256}"`,
        // Deleting must take effect at once: shared caches keep nothing.
        'cache-control': 'private, no-cache',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      };
      const range = parseRangeHeader(request.range, size);
      if (range === 'unsatisfiable') return { status: 416, headers: { 'content-range': `bytes */${size}` }, error: { error: `the range is outside the file's ${size} bytes`, code: 'RANGE_NOT_SATISFIABLE' } };
      if (request.head) {
        return { status: range ? 206 : 200, headers: { ...headers, 'content-length': String(range ? (range.end ?? size - 1) - range.start + 1 : size), ...(range ? { 'content-range': `bytes ${range.start}-${range.end ?? size - 1}/${size}` } : {}) }, body: null };
      }
      const got = await deps.store.get(key, range ? { range } : {});
      if (!got.ok) {
        if (got.reason === 'not_found') return notFound();
        if (got.reason === 'range_not_satisfiable') return { status: 416, headers: { 'content-range': `bytes */${got.size}` }, error: { error: got.message, code: 'RANGE_NOT_SATISFIABLE' } };
        return { status: 503, headers: { 'retry-after': '30' }, error: { error: got.message, code: 'STORAGE_UNAVAILABLE' } };
      }
      if (got.range) {
        return {
          status: 206,
          headers: { ...headers, 'content-length': String(got.range.end - got.range.start + 1), 'content-range': `bytes ${got.range.start}-${got.range.end}/${got.size}` },
          body: got.body,
        };
      }
      return { status: 200, headers: { ...headers, 'content-length': String(got.size) }, body: got.body };
    },
  };
}

export type PublicFiles = ReturnType<typeof createPublicFiles>;

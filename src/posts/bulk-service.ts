// POST /v1/posts/bulk (API.md section 12): up to 500 create bodies, as JSON or CSV, each checked and
// created exactly like a single create, with a result per row. A dry run checks every row and creates
// nothing.
//
// With an Idempotency-Key the whole import is answered once (the HTTP layer replays it), and each row is
// bound to a key of its own derived from it, in the row's creating transaction: an import cut short by a
// crash and sent again creates only the rows that were not created the first time.
import { parse } from 'csv-parse/sync';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError, errors } from '../contract/errors.ts';
import { ajvToApiError } from '../contract/validation.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { canonicalJson } from '../lib/json.ts';
import type { Problem } from './validate-service.ts';
import type { PostsService, PublishStarter } from './posts-service.ts';
import { CreatePostBodySchema, type CreatePostInput } from './schemas.ts';
import { inlineRefs } from '../contract/components.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';

export const MAX_BULK_ROWS = 500;
export const MAX_BULK_BYTES = 5 * 1024 * 1024;
/** Rows checked and stored at once: enough for the SQLite writer to commit many in one transaction. */
const CONCURRENCY = 32;

export const CSV_COLUMNS = ['content', 'scheduledFor', 'timezone', 'platforms', 'mediaUrls', 'tags', 'isDraft', 'queue'] as const;

export interface BulkRowResult {
  index: number;
  valid: boolean;
  id?: string;
  status?: string;
  errors?: Problem[];
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const checkRow = addFormats(new Ajv({ allErrors: false, strict: false, allowUnionTypes: true, coerceTypes: false })).compile<CreatePostInput>(inlineRefs(CreatePostBodySchema));

const problemOf = (e: ApiError): Problem => ({ param: e.param ?? null, code: e.b?.code ?? e.code, message: e.message });

const VIDEO_EXTENSIONS = /\.(mp4|mov|m4v|webm)(\?|#|$)/i;

function bool(value: string, column: string, row: number): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  throw errors.invalid(`rows[${row}].${column}`, `row ${row}: ${column} must be true or false, got "${value}"`);
}

const list = (value: string) =>
  value
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * A CSV import as create bodies. The header names the columns (any order; unknown ones are refused).
 * `platforms` is `platform:accountId` joined by `;`, `mediaUrls` and `tags` are joined by `;`, and a media
 * URL ending in .mp4, .mov, .m4v or .webm is a video (any other an image). Empty cells are left out.
 */
export function bodiesFromCsv(text: string): unknown[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, trim: false });
  } catch (err) {
    throw errors.invalid(undefined, `the CSV could not be read: ${(err as Error).message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw errors.invalid(undefined, 'the CSV is empty: send a header row, then one row per post');
  const columns = header.map((h) => h.trim());
  const unknown = columns.find((c) => !(CSV_COLUMNS as readonly string[]).includes(c));
  if (unknown !== undefined) throw errors.unknownField(unknown, `unknown CSV column "${unknown}"; the columns are ${CSV_COLUMNS.join(', ')}`);
  const twice = columns.find((c, i) => columns.indexOf(c) !== i);
  if (twice !== undefined) throw errors.invalid(twice, `the CSV column "${twice}" appears twice in the header; name each column once`);
  if (rows.length > MAX_BULK_ROWS) throw errors.invalid(undefined, `at most ${MAX_BULK_ROWS} rows per import; this CSV has ${rows.length}`);
  return rows.map((cells, row) => {
    const body: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      const value = cells[i] ?? '';
      if (value.trim() === '') return;
      if (value.includes('\u0000')) throw errors.invalid(`rows[${row}].${column}`, `row ${row}: ${column} must not contain the character U+0000 (NUL)`);
      switch (column) {
        case 'content':
        case 'scheduledFor':
        case 'timezone':
          body[column] = column === 'content' ? value : value.trim();
          break;
        case 'platforms':
          body.platforms = list(value).map((p) => {
            const at = p.indexOf(':');
            return at === -1 ? { platform: p, accountId: '' } : { platform: p.slice(0, at), accountId: p.slice(at + 1) };
          });
          break;
        case 'mediaUrls':
          body.mediaItems = list(value).map((url) => ({ type: VIDEO_EXTENSIONS.test(url) ? 'video' : 'image', url }));
          break;
        case 'tags':
          body.tags = list(value);
          break;
        case 'isDraft':
        case 'queue': {
          const b = bool(value, column, row);
          if (b !== undefined) body[column] = b;
          break;
        }
      }
    });
    return body;
  });
}

export function createBulkService(deps: {
  clock: Clock;
  posts: Pick<PostsService, 'check' | 'store'>;
  idempotency: IdempotencyStore;
  publisher: Pick<PublishStarter, 'startNow'>;
  queue: Pick<JobQueue, 'nudge'>;
}) {
  const { clock, posts, idempotency, publisher, queue } = deps;

  async function importRow(apiKeyId: string, raw: unknown, index: number, dryRun: boolean, importKey: string | undefined): Promise<BulkRowResult> {
    if (!checkRow(raw)) return { index, valid: false, errors: [problemOf(ajvToApiError(checkRow.errors ?? [], 'body'))] };
    const body = raw;
    const now = clock.now();
    let checked;
    try {
      checked = await posts.check(apiKeyId, body, now);
    } catch (err) {
      if (err instanceof ApiError) return { index, valid: false, errors: [problemOf(err)] };
      throw err;
    }
    if (dryRun) return { index, valid: true };

    // The row's own key: its post is bound to it in the same transaction that creates it.
    let claim;
    if (importKey !== undefined) {
      const key = `${importKey}/row/${index}`;
      const c = await idempotency.claim(apiKeyId, key, sha256Hex(canonicalJson(body)));
      if (c.kind === 'replay') {
        const earlier = JSON.parse(c.body) as { id: string; status?: string };
        return { index, valid: true, id: earlier.id, ...(earlier.status ? { status: earlier.status } : {}) };
      }
      if (c.kind === 'recovered') return { index, valid: true, id: c.resourceId };
      if (c.kind === 'in_flight') return { index, valid: false, errors: [problemOf(errors.idempotencyInUse())] };
      if (c.kind === 'mismatch') return { index, valid: false, errors: [problemOf(errors.idempotencyReused())] };
      claim = { apiKeyId, key, claimId: c.claimId };
    }
    const { plan } = checked;
    let stored;
    try {
      stored = await posts.store(apiKeyId, checked.body, plan, now, claim, checked.library);
    } catch (err) {
      // Not renewed any more: the key is free again within a lease.
      if (claim) idempotency.forget(claim);
      throw err;
    }
    const { composed, answer } = stored;
    const id = composed.post.id as string;
    if (claim && !answer) await idempotency.complete(claim, 201, JSON.stringify({ id }));
    else if (claim) idempotency.forget(claim);
    // A row that publishes now starts at once; the import does not wait for it (its status says so).
    if (plan.mode === 'now') publisher.startNow(id, composed.targets.map((t) => t.id));
    return { index, valid: true, id, status: composed.post.status as string };
  }

  return {
    async import(apiKeyId: string, rows: unknown[], options: { dryRun: boolean; idempotencyKey?: string }) {
      if (rows.length > MAX_BULK_ROWS) throw errors.invalid('posts', `at most ${MAX_BULK_ROWS} posts per import; this one has ${rows.length}`);
      const results: BulkRowResult[] = new Array(rows.length);
      for (let start = 0; start < rows.length; start += CONCURRENCY) {
        const batch = rows.slice(start, start + CONCURRENCY);
        const done = await Promise.all(batch.map((row, i) => importRow(apiKeyId, row, start + i, options.dryRun, options.idempotencyKey)));
        done.forEach((r) => (results[r.index] = r));
      }
      queue.nudge();
      const created = options.dryRun ? 0 : results.filter((r) => r.valid).length;
      return { created, failed: results.filter((r) => !r.valid).length, results };
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;

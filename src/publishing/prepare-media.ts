// Library media at publish time: what a target really sends. Each library item of the target (its media and
// media items in its settings) becomes the file the platform can take: the original as it is, or a rendition
// that fits (made once per media and platform rule, kept beside the original, reused by every post), at
// Herald's public URL, or at a presigned URL minted now when the media is on S3, and with its place in the
// store (adapters that upload read the bytes there); its alt text is the item's, else the library's. Items
// given by URL pass through untouched (they are checked when they are fetched).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { MediaRenditionRow, MediaRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { mediaFitOf, targetMediaItems } from '../posts/library-media.ts';
import { descriptorOf } from '../platforms/registry.ts';
import type { FailureCategory, TargetContent } from '../platforms/types.ts';
import type { MediaFacts } from '../media/facts.ts';
import type { MediaDal } from '../media/media-dal.ts';
import { extensionOf, originalPath, renditionPath } from '../media/present.ts';
import { makeRendition } from '../media/renditions.ts';
import { planFit, type RenditionSpec } from '../media/rules.ts';
import type { MediaStore } from '../media/store.ts';

export type Prepared = { ok: true; content: TargetContent } | { ok: false; category: FailureCategory; message: string };

export interface MediaPreparer {
  prepare(apiKeyId: string, platform: string, content: TargetContent): Promise<Prepared>;
}

/** A rendition's name: the platform, how it was made, and a digest of its exact spec (so a change of rules makes a new one). */
export function ruleKeyOf(platform: string, spec: RenditionSpec): string {
  const digest = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 10);
  return `${platform}-${spec.mode}-${spec.width}x${spec.height}-${digest}`;
}

export function createMediaPreparer(deps: {
  dal: Pick<MediaDal, 'getMany' | 'rendition' | 'insertRendition' | 'touch'>;
  store: MediaStore;
  write: Writer['write'];
  clock: Clock;
  log: Logger;
  publicBase(): string;
  /** Presigned URLs' lifetime (S3 store). */
  presignSeconds: number;
}): MediaPreparer {
  const { dal, store, write, clock, log } = deps;
  // Two targets of one post fitting the same image for the same platform make it once.
  const making = new Map<string, Promise<MediaRenditionRow | Prepared>>();

  async function urlOf(m: MediaRow, key: string, path: string): Promise<string> {
    if (store.presignGet) return store.presignGet(key, deps.presignSeconds);
    return `${deps.publicBase()}${path}`;
  }

  async function makeOne(m: MediaRow, ruleKey: string, spec: RenditionSpec): Promise<MediaRenditionRow | Prepared> {
    const existing = await dal.rendition(m.id, ruleKey);
    if (existing) return existing;
    const local = await store.localPath(m.store_key);
    if (!local.ok) {
      return local.reason === 'not_found'
        ? { ok: false, category: 'media_rejected', message: `the file of library media ${m.id} is missing from the store` }
        : { ok: false, category: 'platform_unavailable', message: `the media store failed while reading ${m.id}: ${local.message}` };
    }
    const dir = await mkdtemp(join(tmpdir(), 'herald-rendition-'));
    try {
      const out = join(dir, `rendition.${spec.format === 'jpeg' ? 'jpg' : 'png'}`);
      const made = await makeRendition(local.path, spec, out);
      if (!made.ok) {
        return { ok: false, category: made.reason === 'timeout' ? 'platform_unavailable' : 'media_rejected', message: `Herald could not make a version of ${m.id} that fits: ${made.message}` };
      }
      const key = `${m.id}/${ruleKey}.${extensionOf(made.facts.contentType)}`;
      const put = await store.put(key, createReadStream(out), { contentType: made.facts.contentType, maxBytes: Number.MAX_SAFE_INTEGER });
      if (!put.ok) return { ok: false, category: 'platform_unavailable', message: `the media store failed while keeping a rendition of ${m.id}: ${put.message}` };
      const row: MediaRenditionRow = {
        media_id: m.id,
        rule_key: ruleKey,
        store_key: key,
        content_type: made.facts.contentType,
        bytes: put.bytes,
        width: made.facts.width,
        height: made.facts.height,
        sha256: put.sha256,
        created_at: clock.now(),
      };
      const inserted = await write((trx) => dal.insertRendition(trx, row));
      if (!inserted) return (await dal.rendition(m.id, ruleKey)) ?? row;
      log.info({ mediaId: m.id, ruleKey, bytes: row.bytes, width: row.width, height: row.height }, 'made a rendition');
      return row;
    } finally {
      await local.release();
      await rm(dir, { recursive: true, force: true });
    }
  }

  function rendition(m: MediaRow, ruleKey: string, spec: RenditionSpec) {
    const id = `${m.id}|${ruleKey}`;
    let p = making.get(id);
    if (!p) {
      p = makeOne(m, ruleKey, spec).finally(() => making.delete(id));
      making.set(id, p);
    }
    return p;
  }

  return {
    async prepare(apiKeyId, platform, original) {
      // `stored` lets an adapter read the store: only this function sets it, on library items. The API's
      // schemas refuse it in a body; any found on a stored item all the same is dropped, never followed.
      const found = targetMediaItems(platform, original);
      if (!found.some((f) => typeof f.item.mediaId === 'string' || 'stored' in f.item)) return { ok: true, content: original };
      const content = structuredClone(original);
      const all = targetMediaItems(platform, content);
      for (const { item } of all) delete item.stored;
      const items = all.filter((f) => typeof f.item.mediaId === 'string');
      if (items.length === 0) return { ok: true, content };
      const rows = new Map((await dal.getMany(apiKeyId, items.map((f) => f.item.mediaId as string))).map((r) => [r.id, r]));
      const rules = descriptorOf(platform).mediaRules;
      const fit = mediaFitOf(content.settings);
      for (const { item } of items) {
        const m = rows.get(item.mediaId as string);
        if (!m) return { ok: false, category: 'media_rejected', message: `library media ${String(item.mediaId)} was deleted before this target published` };
        const plan = rules ? planFit(JSON.parse(m.facts) as MediaFacts, rules, fit) : ({ action: 'as_is' } as const);
        if (plan.action === 'reject') return { ok: false, category: 'media_rejected', message: `media ${m.id}: ${plan.violations.map((v) => v.message).join('; ')}` };
        // The URL is for the platforms that pull; `stored` for the adapters that upload (read from the store).
        if (plan.action === 'as_is') {
          item.url = await urlOf(m, m.store_key, originalPath(m));
          item.stored = { key: m.store_key, contentType: m.content_type };
        } else {
          const r = await rendition(m, ruleKeyOf(platform, plan.spec), plan.spec);
          if ('ok' in r) return r;
          item.url = await urlOf(m, r.store_key, renditionPath(m, r));
          item.stored = { key: r.store_key, contentType: r.content_type };
        }
        item.type = m.type;
        const alt = typeof item.altText === 'string' ? item.altText : m.alt_text;
        if (alt) item.altText = alt;
        else delete item.altText;
      }
      await write((trx) => dal.touch(trx, [...rows.keys()], clock.now()));
      return { ok: true, content };
    },
  };
}

// One post's record from Herald's text and media: facets (mentions resolved to DIDs), the embed (images
// with alt text and aspect ratio, a video, or a link card when a link is all there is), langs and the
// reply refs. Everything here happens before the irreversible create and may be repeated.
import { failure, type MediaItem, type PlatformFailure } from '../types.ts';
import { asString, bodyOf, failureOf, isOk, xrpc } from './client.ts';
import { buildFacets, detectCandidates, firstLink } from './facets.ts';
import { POST_COLLECTION } from './info.ts';
import { buildLinkCard } from './link-card.ts';
import { uploadImage, uploadVideo, type UploadContext } from './media.ts';
import type { StrongRef } from './records.ts';
import { mediaShape } from './validate.ts';

export interface ReplyRefs {
  root: StrongRef;
  parent: StrongRef;
}

export interface ComposeInput {
  text: string;
  media: MediaItem[];
  langs?: string[];
  reply?: ReplyRefs;
  /** Where the item sits, for messages ('' for the post itself, 'reply 2 of the thread: '). */
  where: string;
}

/** The DIDs of the handles mentioned; a handle the PDS cannot resolve is left out (plain text). */
export async function resolveMentions(ctx: UploadContext, handles: string[]): Promise<Map<string, string> | PlatformFailure> {
  const out = new Map<string, string>();
  for (const handle of new Set(handles)) {
    const res = await xrpc(ctx.deps, {
      server: ctx.server,
      nsid: 'com.atproto.identity.resolveHandle',
      method: 'GET',
      query: { handle },
      signal: ctx.signal,
    });
    if (isOk(res)) {
      const did = asString(bodyOf(res).did);
      if (did?.startsWith('did:')) out.set(handle, did);
      continue;
    }
    // Unknown or malformed handles (400 HandleNotFound / InvalidRequest): the mention stays plain text.
    if (res.sent === true && res.status === 400) continue;
    const f = failureOf(ctx.deps, res, `Bluesky could not resolve @${handle}`);
    return f.category === 'outcome_unknown' ? { ...f, category: 'platform_unavailable' } : f;
  }
  return out;
}

export async function composePost(ctx: UploadContext & { now: number }, input: ComposeInput): Promise<{ ok: true; record: Record<string, unknown> } | PlatformFailure> {
  const withWhere = (f: PlatformFailure): PlatformFailure => (input.where ? { ...f, message: `${input.where}${f.message}` } : f);
  const record: Record<string, unknown> = { $type: POST_COLLECTION, text: input.text, createdAt: new Date(ctx.now).toISOString() };
  if (input.langs) record.langs = input.langs;

  const candidates = detectCandidates(input.text);
  const handles = candidates.flatMap((c) => (c.kind === 'mention' ? [c.handle] : []));
  const dids = handles.length > 0 ? await resolveMentions(ctx, handles) : new Map<string, string>();
  if (!(dids instanceof Map)) return withWhere(dids);
  const facets = buildFacets(candidates, dids);
  if (facets.length > 0) record.facets = facets;

  const shape = mediaShape(input.media);
  if ('error' in shape) return withWhere(failure(shape.error.includes('document') ? 'media_rejected' : 'content_rejected', shape.error));
  if (shape.kind === 'images') {
    const images = [];
    for (const [i, item] of shape.images.entries()) {
      const up = await uploadImage(ctx, item, i);
      if (!up.ok) return withWhere(up);
      images.push(up.image);
    }
    record.embed = { $type: 'app.bsky.embed.images', images };
  } else if (shape.kind === 'video') {
    const up = await uploadVideo(ctx, shape.video);
    if (!up.ok) return withWhere(up);
    record.embed = { $type: 'app.bsky.embed.video', ...up.video };
  } else {
    const link = firstLink(candidates);
    const card = link ? await buildLinkCard(ctx, link) : null;
    if (card) record.embed = card;
  }
  if (input.reply) record.reply = input.reply;
  return { ok: true, record };
}

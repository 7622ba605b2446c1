// Publishing a LinkedIn target (7.5): upload the media (reusing what an earlier attempt checkpointed),
// wait until LinkedIn has processed it, checkpoint the moment of sending, then one POST /rest/posts.
// LinkedIn refuses an identical post from the same author as a duplicate naming the existing post: after
// an earlier attempt whose answer was lost, that refusal is the evidence the post exists, and its URN
// is this target's post (never a failure, never a second post).
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { asObject, asString, callRest } from './api.ts';
import { isOwnDuplicate, readCheckpoint, toCheckpoint, type LinkedInCheckpoint, type MediaKind, type UploadedMedia } from './checkpoint.ts';
import { duplicateOf, isSuccess, linkedInFailure, parseLinkedInError } from './errors.ts';
import { isOrganizationUrn, postUrl } from './info.ts';
import { escapeLittleText } from './little-text.ts';
import { loadFile, mediaStatus, upload, waitAvailable, type LoadedFile, type MediaJob } from './media.ts';
import { readSettings, type LinkedInSettings } from './settings.ts';
import { checkCommentary, mediaShape, type MediaShape } from './validate.ts';

type Shaped = Exclude<MediaShape, { error: unknown }>;

function itemsOf(shape: Shaped): { item: MediaItem; kind: MediaKind }[] {
  switch (shape.kind) {
    case 'images':
      return shape.images.map((item) => ({ item, kind: 'image' as const }));
    case 'video':
      return [{ item: shape.video, kind: 'video' }];
    case 'document':
      return [{ item: shape.document, kind: 'document' }];
    default:
      return [];
  }
}

/** Checks the target's own rules again at publish time: stored posts may predate a rule. */
export function refusal(request: Pick<PublishRequest, 'account' | 'content' | 'media' | 'settings'>): PlatformFailure | Shaped {
  const shape = mediaShape(request.media);
  if ('error' in shape) return failure('content_rejected', shape.error.message);
  const tooLong = checkCommentary(request.content)[0];
  if (tooLong) return failure('content_rejected', tooLong.message);
  if (shape.kind === 'text' && request.content.trim() === '') return failure('content_rejected', 'a LinkedIn post without media needs text');
  if (isOrganizationUrn(request.account.accountId) && readSettings(request.settings).visibility === 'CONNECTIONS') {
    return failure('content_rejected', 'a LinkedIn Page posts publicly: CONNECTIONS visibility is for members');
  }
  return shape;
}

/**
 * The media URNs the post will carry: an earlier attempt's uploads when LinkedIn still has them, fresh
 * uploads for the rest (each checkpointed as soon as it is complete), all processed.
 */
async function prepareMedia(job: MediaJob, request: PublishRequest, shape: Shaped, cp: LinkedInCheckpoint): Promise<UploadedMedia[] | PlatformFailure> {
  const items = itemsOf(shape);
  const entries: (UploadedMedia | null)[] = items.map(({ item, kind }, i) => {
    const earlier = cp.media[i];
    return earlier && earlier.url === item.url && earlier.kind === kind ? earlier : null;
  });
  for (const [i, entry] of entries.entries()) {
    if (!entry) continue;
    const status = await mediaStatus(job, entry.kind, entry.urn);
    if (!status.ok) return status;
    if (status.status !== 'AVAILABLE' && status.status !== 'PROCESSING') entries[i] = null;
  }
  // Every file is fetched and checked before the first upload, so a bad one costs no upload.
  const files = new Map<number, LoadedFile>();
  for (const [i, { item, kind }] of items.entries()) {
    if (entries[i]) continue;
    const file = await loadFile(job.deps, item, kind);
    if ('ok' in file) return file;
    files.set(i, file);
  }
  for (const [i, file] of files) {
    const { item, kind } = items[i]!;
    const uploaded = await upload(job, kind, file);
    if ('category' in uploaded) return uploaded;
    entries[i] = { url: item.url, kind, urn: uploaded.urn };
    files.delete(i);
    cp.media = entries;
    await request.saveCheckpoint(toCheckpoint(cp));
  }
  for (const entry of entries) {
    const ready = await waitAvailable(job, entry!.kind, entry!.urn);
    if (!ready.ok) return ready;
  }
  return entries as UploadedMedia[];
}

function fileName(url: string): string | undefined {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return last.length > 0 ? last : undefined;
  } catch {
    return undefined;
  }
}

export function postContent(shape: Shaped, media: UploadedMedia[], items: MediaItem[], settings: LinkedInSettings): Record<string, unknown> | undefined {
  const alt = (i: number) => (items[i]?.altText ? { altText: items[i]!.altText } : {});
  switch (shape.kind) {
    case 'text':
      return undefined;
    case 'images':
      if (media.length === 1) return { media: { id: media[0]!.urn, ...alt(0) } };
      return { multiImage: { images: media.map((m, i) => ({ id: m.urn, ...alt(i) })) } };
    case 'video':
      return { media: { id: media[0]!.urn } };
    case 'document':
      return { media: { id: media[0]!.urn, title: settings.documentTitle ?? fileName(items[0]!.url) ?? 'Document' } };
  }
}

export function postBody(author: string, content: string, settings: LinkedInSettings, body: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    author,
    commentary: escapeLittleText(content),
    visibility: settings.visibility ?? 'PUBLIC',
    distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    ...(body ? { content: body } : {}),
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
  };
}

function published(urn: string): PublishOutcome {
  return { ok: true, platformPostId: urn, platformPostUrl: postUrl(urn) };
}

export async function publishLinkedIn(deps: AdapterDeps, request: PublishRequest): Promise<PublishOutcome> {
  const shape = refusal(request);
  if ('ok' in shape) return shape;
  const cp = readCheckpoint(request.checkpoint);
  if (cp.postUrn) return published(cp.postUrn);
  const settings = readSettings(request.settings);
  const author = request.account.accountId;
  const job: MediaJob = { deps, token: request.account.accessToken, owner: author, signal: request.signal };

  const earlier: LinkedInCheckpoint = { ...cp, media: [...cp.media] };
  const media = await prepareMedia(job, request, shape, cp);
  if (!Array.isArray(media)) return media;
  const body = postBody(author, request.content, settings, postContent(shape, media, request.media, settings));

  // From here the post may exist. The earliest send is kept: a duplicate refusal names that post.
  cp.createSentAt = earlier.createSentAt ?? deps.clock.now();
  await request.saveCheckpoint(toCheckpoint(cp));
  const res = await callRest(deps, { method: 'POST', path: '/rest/posts', token: job.token, json: body, signal: request.signal });
  const label = 'LinkedIn rejected the post';
  if (isSuccess(res)) {
    const urn = res.headers.get('x-restli-id') ?? asString(asObject(res.body).id);
    if (!urn) return failure('outcome_unknown', `LinkedIn accepted the post (HTTP ${res.status}) without naming it`, { httpStatus: res.status });
    return published(urn);
  }
  if (res.sent === true) {
    const duplicate = duplicateOf(parseLinkedInError(res.body));
    if (duplicate && isOwnDuplicate(earlier, duplicate)) {
      cp.postUrn = duplicate;
      await request.saveCheckpoint(toCheckpoint(cp));
      return published(duplicate);
    }
    if (duplicate === null && earlier.createSentAt !== undefined) {
      return failure('outcome_unknown', 'LinkedIn refused the post as a duplicate without naming the post, after an earlier attempt whose answer was lost', {
        httpStatus: res.status,
        platformCode: 'DUPLICATE_POST',
      });
    }
    const f = linkedInFailure(res, deps.clock.now(), label, { creates: true });
    return duplicate ? { ...f, message: `${f.message} (LinkedIn names ${duplicate} as the earlier post)` } : f;
  }
  return linkedInFailure(res, deps.clock.now(), label, { creates: true });
}

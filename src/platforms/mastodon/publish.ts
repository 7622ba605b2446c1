// Publishing a chain: the post, then each thread item as a reply to the one before (same account, same
// options). Before each create the checkpoint records its Idempotency-Key; after it, the status id. A
// later attempt resumes after the last status the instance accepted and, within the key's hour, sends
// the same key again, so a create whose answer was lost comes back as the status it made, not a second
// one.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { instanceOf, isFailure } from './client.ts';
import { freshCheckpoint, keyFor, readCheckpoint, toCheckpoint, type MastodonCheckpoint } from './checkpoint.ts';
import { MEDIA_REUSE_MS, REPLAY_WINDOW_MS } from './info.ts';
import type { InstanceReader } from './instance.ts';
import { domainOf, limitsOf, type InstanceLimits } from './limits.ts';
import { reusable, uploadAll, type UploadContext } from './media.ts';
import { createStatus, type Session } from './statuses.ts';
import { chainOf, statusOptionsOf, type ChainItem, type StatusOptions } from './thread.ts';
import { checkMedia, checkText } from './validate.ts';

export interface PublishDeps {
  deps: AdapterDeps;
  instances: InstanceReader;
}

function where(index: number): string {
  return index === 0 ? 'the post' : `reply ${index} of the thread`;
}

function withContext(f: PlatformFailure, index: number): PlatformFailure {
  return index === 0 ? f : { ...f, message: `${where(index)}: ${f.message}` };
}

/** The instance's limits now (they may have changed since the post was created); the stored ones if it cannot say. */
export async function currentLimits(p: PublishDeps, instance: string, meta: Record<string, unknown>, signal?: AbortSignal): Promise<InstanceLimits> {
  const facts = await p.instances(instance, { signal });
  return facts.ok ? facts.facts.limits : limitsOf(meta);
}

/** The chain against the instance's limits, before anything is uploaded. */
function checkChain(chain: ChainItem[], options: StatusOptions, limits: InstanceLimits, domain: string): PlatformFailure | null {
  const label = `Mastodon (${domain})`;
  for (const item of chain) {
    if (item.text.trim().length === 0 && item.media.length === 0) return failure('content_rejected', `${label} needs text or media in every post`);
    const text = checkText(item.text, options.spoilerText, item.field, limits, label)[0];
    if (text) return failure('content_rejected', text.message);
    const media = checkMedia(item.media, item.field, limits, label)[0];
    if (media) return failure('media_rejected', media.message);
  }
  return null;
}

interface Run {
  p: PublishDeps;
  request: PublishRequest;
  session: Session;
  upload: UploadContext;
  cp: MastodonCheckpoint;
  options: StatusOptions;
}

async function save(run: Run): Promise<void> {
  await run.request.saveCheckpoint(toCheckpoint(run.cp));
}

/** Media for the status at `index`: those an earlier attempt uploaded while they can still be attached, else new ones. */
async function mediaFor(run: Run, item: ChainItem, index: number): Promise<{ ok: true; ids: string[] } | PlatformFailure> {
  if (item.media.length === 0) return { ok: true, ids: [] };
  const now = run.p.deps.clock.now();
  const earlier = run.cp.media;
  if (earlier && earlier.index === index && earlier.ids.length === item.media.length && now - earlier.at < MEDIA_REUSE_MS) {
    const r = await reusable(run.upload, earlier.ids);
    if (!r.ok) return r;
    if (r.usable) return { ok: true, ids: earlier.ids };
  }
  const up = await uploadAll(run.upload, item.media);
  if (!up.ok) return up;
  run.cp.media = { index, ids: up.ids, at: run.p.deps.clock.now() };
  await save(run);
  return up;
}

async function postItem(run: Run, item: ChainItem, index: number): Promise<PlatformFailure | null> {
  const { cp } = run;
  const now = run.p.deps.clock.now();
  let key: string;
  let mediaIds: string[];
  const pending = cp.pending?.index === index ? cp.pending : undefined;
  if (pending && now - pending.sentAt < REPLAY_WINDOW_MS) {
    // The earlier send may have made the status: the same key and body get it back, or make it now.
    key = pending.key;
    mediaIds = pending.mediaIds;
  } else {
    // Never sent, or sent over the key's hour ago and found absent by reconcile: a new send, new key.
    // Media of that old send were never attached, so they may still be usable.
    if (pending && pending.mediaIds.length > 0) cp.media = { index, ids: pending.mediaIds, at: pending.sentAt };
    delete cp.pending;
    const media = await mediaFor(run, item, index);
    if (!media.ok) return media;
    mediaIds = media.ids;
    key = keyFor(cp, index, run.p.deps.clock.now());
    cp.pending = { index, key, sentAt: run.p.deps.clock.now(), mediaIds };
    delete cp.media;
    await save(run);
  }
  const created = await createStatus(
    run.session,
    { text: item.text, mediaIds, inReplyToId: cp.posted[index - 1], options: run.options, idempotencyKey: key },
    `Mastodon rejected ${where(index)}`,
  );
  // The key stays in the checkpoint: whatever the failure, a later send within the hour reuses it.
  if (!created.ok) return created;
  cp.posted.push(created.status.id);
  if (index === 0) cp.firstUrl = created.status.url;
  delete cp.pending;
  await save(run);
  return null;
}

export async function publishMastodon(p: PublishDeps, request: PublishRequest): Promise<PublishOutcome> {
  const instance = instanceOf(request.account);
  if (isFailure(instance)) return instance;
  const chain = chainOf(request);
  const options = statusOptionsOf(request.settings);
  const cp = readCheckpoint(request.checkpoint) ?? freshCheckpoint();

  if (cp.posted.length < chain.length) {
    const limits = await currentLimits(p, instance, request.account.meta, request.signal);
    const refused = checkChain(chain.slice(cp.posted.length), options, limits, domainOf(request.account.meta));
    if (refused) return refused;
    const session: Session = { deps: p.deps, instance, token: request.account.accessToken, signal: request.signal };
    const run: Run = { p, request, session, upload: { ...session, limits }, cp, options };
    for (let i = cp.posted.length; i < chain.length; i++) {
      const refusedItem = await postItem(run, chain[i]!, i);
      if (refusedItem) return withContext(refusedItem, i);
    }
  }
  const first = cp.posted[0];
  if (!first) return failure('content_rejected', 'nothing to publish');
  return { ok: true, platformPostId: first, platformPostUrl: cp.firstUrl ?? `${instance}/statuses/${first}` };
}

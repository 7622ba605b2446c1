// A threads target as a list of posts: the target's own content first, then each threadItem as a reply
// to the post before it. The checkpoint records how far along that list an attempt got.
import type { Checkpoint, MediaItem, PublishRequest } from '../types.ts';
import type { ThreadsSettings } from './settings.ts';

export interface Step {
  index: number;
  text: string;
  media: MediaItem[];
  replyControl?: string;
  topicTag?: string;
}

export function buildSteps(request: Pick<PublishRequest, 'content' | 'media' | 'settings'>): Step[] {
  const settings = request.settings as ThreadsSettings;
  // Every post of the thread gets the same reply control, so no later item is more open than the first.
  const replyControl = settings.replyControl;
  const steps: Step[] = [{ index: 0, text: request.content, media: request.media, replyControl, topicTag: settings.topicTag }];
  (settings.threadItems ?? []).forEach((item, i) => {
    // Media items arrive resolved (library items carry their type and URL), so each is a MediaItem.
    steps.push({ index: i + 1, text: item.content, media: (item.mediaItems ?? []) as MediaItem[], replyControl });
  });
  return steps;
}

/** The media_type Threads reports for the post a step becomes. */
export function mediaTypeOf(step: Step): 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM' {
  if (step.media.length === 0) return 'TEXT_POST';
  if (step.media.length > 1) return 'CAROUSEL_ALBUM';
  return step.media[0]!.type === 'video' ? 'VIDEO' : 'IMAGE';
}

export interface PublishedItem {
  index: number;
  /** Threads media id of the published post. */
  id: string;
}

export interface PendingContainer {
  index: number;
  containerId: string;
  /** Epoch ms when the container was created: the lower bound when searching for its post. */
  createdAt: number;
}

export interface ThreadsCheckpoint {
  /** Posts already public, in thread order, always a prefix of the steps. */
  published: PublishedItem[];
  /** The container of the next post, created but not known to be published. */
  pending?: PendingContainer;
}

export function emptyCheckpoint(): ThreadsCheckpoint {
  return { published: [] };
}

/** Reads a stored checkpoint defensively: it is JSON written by an earlier attempt, maybe by older code. */
export function readCheckpoint(raw: Checkpoint | null): ThreadsCheckpoint {
  if (!raw || typeof raw !== 'object') return emptyCheckpoint();
  const published: PublishedItem[] = [];
  const list = Array.isArray(raw.published) ? raw.published : [];
  for (const entry of list) {
    const e = entry as Partial<PublishedItem> | null;
    if (!e || typeof e.id !== 'string' || e.index !== published.length) break;
    published.push({ index: e.index, id: e.id });
  }
  const p = raw.pending as Partial<PendingContainer> | undefined;
  const pending =
    p && typeof p.containerId === 'string' && p.index === published.length
      ? { index: p.index, containerId: p.containerId, createdAt: typeof p.createdAt === 'number' ? p.createdAt : 0 }
      : undefined;
  return pending ? { published, pending } : { published };
}

export function toCheckpoint(cp: ThreadsCheckpoint): Checkpoint {
  return { published: cp.published.map((p) => ({ ...p })), ...(cp.pending ? { pending: { ...cp.pending } } : {}) };
}

// Finding an Instagram post that an earlier attempt published: by caption among the account's recent
// media, or (stories carry no caption) the single story posted since the attempt began.
import type { AdapterDeps } from '../deps.ts';
import type { Checkpoint, PublishRequest, ReconcileOutcome } from '../types.ts';
import { graphTime, readAllPages, str, type Graph } from '../meta/graph.ts';
import type { InstagramSettings } from './settings.ts';

export interface InstagramContext {
  deps: AdapterDeps;
  graph: Graph;
}

export function readCheckpoint(cp: Checkpoint | null): { containerId: string } | null {
  return cp && typeof cp.containerId === 'string' && cp.containerId ? { containerId: cp.containerId } : null;
}

const SLACK_MS = 60_000;

export async function findPublished(ctx: InstagramContext, req: PublishRequest): Promise<ReconcileOutcome> {
  const isStory = (req.settings as InstagramSettings).contentType === 'story';
  const since = req.attemptStartedAt - SLACK_MS;
  const res = await readAllPages(
    ctx.graph,
    `/${req.account.accountId}/${isStory ? 'stories' : 'media'}`,
    req.account.accessToken,
    { fields: 'id,caption,permalink,timestamp', limit: 50 },
    { label: `Instagram ${isStory ? 'stories' : 'media'} search`, signal: req.signal },
    3,
  );
  if (!res.ok) return res.failure;
  const recent = res.items.filter((m) => (graphTime(m.timestamp) ?? 0) >= since);
  const wanted = req.content.trim();
  const matches = isStory ? recent : recent.filter((m) => (str(m, 'caption') ?? '').trim() === wanted);
  if (matches.length === 0) return { ok: true, found: false };
  // Stories (and posts without a caption) cannot be told apart by text: only a lone candidate is ours.
  if ((isStory || wanted === '') && matches.length > 1) {
    return { ok: true, found: 'unknown', message: 'several Instagram posts without a caption were made since the attempt began' };
  }
  const oldest = matches.sort((a, b) => (graphTime(a.timestamp) ?? 0) - (graphTime(b.timestamp) ?? 0))[0]!;
  const id = str(oldest, 'id');
  if (!id) return { ok: true, found: 'unknown', message: 'a matching Instagram post carries no id' };
  return { ok: true, found: true, platformPostId: id, platformPostUrl: str(oldest, 'permalink') ?? `https://www.instagram.com/${req.account.username}/` };
}

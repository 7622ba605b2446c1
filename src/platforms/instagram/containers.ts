// Instagram media containers: creating them, reading their status_code, waiting for FINISHED, and the
// account's publishing quota. None of this makes anything public; media_publish (publish.ts) does.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure } from '../types.ts';
import { list, obj, str, type Graph, type GraphParams } from '../meta/graph.ts';
import { pollUntil } from '../meta/poll.ts';

export type ContainerState = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
const STATES = new Set<string>(['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'ERROR', 'EXPIRED']);

export async function readQuota(
  graph: Graph,
  igUserId: string,
  token: string,
  signal?: AbortSignal,
): Promise<{ ok: true; used: number; total: number; durationMs: number } | { ok: false; failure: PlatformFailure }> {
  const res = await graph.get(`/${igUserId}/content_publishing_limit`, token, { fields: 'quota_usage,config' }, { label: 'Instagram publishing limit', signal });
  if (!res.ok) return res;
  const entry = list(res.body)[0];
  const config = obj(entry, 'config');
  const used = Number(entry?.quota_usage);
  const total = Number(config?.quota_total);
  const duration = Number(config?.quota_duration);
  if (!Number.isFinite(used) || !Number.isFinite(total)) {
    return { ok: false, failure: failure('platform_unavailable', 'Instagram publishing limit: the answer carried no quota') };
  }
  return { ok: true, used, total, durationMs: Number.isFinite(duration) && duration > 0 ? duration * 1000 : 24 * 60 * 60_000 };
}

export async function createContainer(
  graph: Graph,
  igUserId: string,
  token: string,
  params: GraphParams,
  label: string,
  signal?: AbortSignal,
): Promise<{ ok: true; id: string } | { ok: false; failure: PlatformFailure }> {
  const res = await graph.post(`/${igUserId}/media`, token, params, { label, signal });
  if (!res.ok) return res;
  const id = str(res.body, 'id');
  if (!id) return { ok: false, failure: failure('platform_unavailable', `${label}: the answer carried no container id`) };
  return { ok: true, id };
}

export async function containerStatus(
  graph: Graph,
  id: string,
  token: string,
  signal?: AbortSignal,
): Promise<{ ok: true; state: ContainerState; detail?: string } | { ok: false; failure: PlatformFailure }> {
  const res = await graph.get(`/${id}`, token, { fields: 'status_code,status' }, { label: 'Instagram container status', signal });
  if (!res.ok) return res;
  const code = str(res.body, 'status_code');
  if (!code || !STATES.has(code)) {
    return { ok: false, failure: failure('platform_unavailable', `Instagram container status: unexpected status_code ${code ?? '(none)'}`) };
  }
  return { ok: true, state: code as ContainerState, detail: str(res.body, 'status') };
}

/** What a container in a given non-success state means for the attempt. */
export function containerFailure(state: ContainerState, detail: string | undefined): PlatformFailure | null {
  if (state === 'ERROR') return failure('media_rejected', `Instagram could not process the media${detail ? `: ${detail}` : ''}`);
  // Containers expire 24 h after creation; the next attempt creates a new one.
  if (state === 'EXPIRED') return failure('platform_unavailable', 'Instagram media container expired before it was published; it will be created again');
  return null;
}

/** Waits until every container is FINISHED (or PUBLISHED); the first ERROR or EXPIRED ends the wait. */
export async function awaitFinished(deps: AdapterDeps, graph: Graph, ids: string[], token: string, signal?: AbortSignal): Promise<PlatformFailure | null> {
  const pending = new Set(ids);
  const result = await pollUntil<PlatformFailure | null>(
    deps,
    async () => {
      for (const id of [...pending]) {
        const s = await containerStatus(graph, id, token, signal);
        if (!s.ok) return { done: true, value: s.failure };
        const bad = containerFailure(s.state, s.detail);
        if (bad) return { done: true, value: bad };
        if (s.state === 'FINISHED' || s.state === 'PUBLISHED') pending.delete(id);
      }
      return pending.size === 0 ? { done: true, value: null } : { done: false };
    },
    signal,
  );
  if (result.timedOut) return failure('platform_unavailable', 'Instagram is still processing the media; publishing will be tried again');
  return result.value;
}

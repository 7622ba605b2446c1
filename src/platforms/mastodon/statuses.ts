// Status calls (platforms.md §11.7–11.8): create with an Idempotency-Key, read one, read its source
// text, its replies, the account's recent statuses (newest first, paged by the Link header), edit, delete.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformFailure } from '../types.ts';
import { asObject, asString, callInstance, rawCall, unreadable, type Json } from './client.ts';
import { answeredFailure, unansweredFailure } from './errors.ts';
import { TIMELINE_PAGE_SIZE } from './info.ts';
import type { StatusOptions } from './thread.ts';

export interface StatusView {
  id: string;
  url: string;
  createdAt?: number;
  inReplyToId: string | null;
  accountId?: string;
  mediaIds: string[];
  spoilerText: string;
  visibility?: string;
  applicationName?: string;
}

export interface Session {
  deps: AdapterDeps;
  instance: string;
  token: string;
  signal?: AbortSignal;
}

export function parseStatus(raw: unknown): StatusView | undefined {
  const s = asObject(raw);
  const id = asString(s?.id);
  if (!s || !id || !/^\d+$/.test(id)) return undefined;
  const createdAt = typeof s.created_at === 'string' ? Date.parse(s.created_at) : NaN;
  const media = Array.isArray(s.media_attachments) ? s.media_attachments : [];
  const view: StatusView = {
    id,
    url: asString(s.url) ?? asString(s.uri) ?? '',
    inReplyToId: asString(s.in_reply_to_id) ?? null,
    mediaIds: media.map((m) => asString(asObject(m)?.id)).filter((m): m is string => m !== undefined),
    spoilerText: typeof s.spoiler_text === 'string' ? s.spoiler_text : '',
  };
  if (Number.isFinite(createdAt)) view.createdAt = createdAt;
  const accountId = asString(asObject(s.account)?.id);
  if (accountId) view.accountId = accountId;
  const visibility = asString(s.visibility);
  if (visibility) view.visibility = visibility;
  const app = asString(asObject(s.application)?.name);
  if (app) view.applicationName = app;
  return view;
}

export interface NewStatus {
  text: string;
  mediaIds: string[];
  inReplyToId?: string;
  options: StatusOptions;
  idempotencyKey: string;
}

/** The JSON body of a create: media_ids as an array (Rails drops a scalar), empty fields left out. */
export function createBody(input: NewStatus): Json {
  const body: Json = {};
  if (input.text) body.status = input.text;
  if (input.mediaIds.length > 0) body.media_ids = input.mediaIds;
  if (input.inReplyToId) body.in_reply_to_id = input.inReplyToId;
  const o = input.options;
  if (o.visibility) body.visibility = o.visibility;
  if (o.spoilerText) body.spoiler_text = o.spoilerText;
  if (o.sensitive !== undefined) body.sensitive = o.sensitive;
  if (o.language) body.language = o.language;
  return body;
}

export async function createStatus(s: Session, input: NewStatus, label: string): Promise<{ ok: true; status: StatusView } | PlatformFailure> {
  const res = await callInstance(s.deps, {
    method: 'POST',
    instance: s.instance,
    path: '/api/v1/statuses',
    token: s.token,
    headers: { 'idempotency-key': input.idempotencyKey },
    body: { json: createBody(input) },
    label,
    creates: true,
    statusCap: true,
    signal: s.signal,
  });
  if (!res.ok) return res;
  const status = parseStatus(res.body);
  // A success without a status may still have created one.
  if (!status) return unreadable({ label, creates: true }, res.status);
  return { ok: true, status };
}

/** One status; `null` when the instance says it does not exist (or this account cannot see it). */
export async function getStatus(s: Session, id: string, label: string): Promise<{ ok: true; status: StatusView | null; body: Json } | PlatformFailure> {
  const res = await rawCall(s.deps, { method: 'GET', instance: s.instance, path: `/api/v1/statuses/${encodeURIComponent(id)}`, token: s.token, label, signal: s.signal });
  if (res.sent !== true) return unansweredFailure(res, { label });
  if (res.status === 404) return { ok: true, status: null, body: {} };
  if (res.status < 200 || res.status >= 300) return answeredFailure(res, s.deps.clock.now(), { label });
  const status = parseStatus(res.body);
  if (!status) return unreadable({ label }, res.status);
  return { ok: true, status, body: asObject(res.body) ?? {} };
}

/** The text as it was written (the API otherwise shows HTML); `null` when the status is gone. */
export async function getSource(s: Session, id: string, label: string): Promise<{ ok: true; source: { text: string; spoilerText: string } | null } | PlatformFailure> {
  const res = await rawCall(s.deps, { method: 'GET', instance: s.instance, path: `/api/v1/statuses/${encodeURIComponent(id)}/source`, token: s.token, label, signal: s.signal });
  if (res.sent !== true) return unansweredFailure(res, { label });
  if (res.status === 404) return { ok: true, source: null };
  if (res.status < 200 || res.status >= 300) return answeredFailure(res, s.deps.clock.now(), { label });
  const body = asObject(res.body) ?? {};
  return {
    ok: true,
    source: { text: typeof body.text === 'string' ? body.text : '', spoilerText: typeof body.spoiler_text === 'string' ? body.spoiler_text : '' },
  };
}

/** Replies below a status; `null` when the status is gone. */
export async function descendantsOf(s: Session, id: string, label: string): Promise<{ ok: true; statuses: StatusView[] | null } | PlatformFailure> {
  const res = await rawCall(s.deps, { method: 'GET', instance: s.instance, path: `/api/v1/statuses/${encodeURIComponent(id)}/context`, token: s.token, label, signal: s.signal });
  if (res.sent !== true) return unansweredFailure(res, { label });
  if (res.status === 404) return { ok: true, statuses: null };
  if (res.status < 200 || res.status >= 300) return answeredFailure(res, s.deps.clock.now(), { label });
  const raw = asObject(res.body)?.descendants;
  const statuses = (Array.isArray(raw) ? raw : []).map(parseStatus).filter((v): v is StatusView => v !== undefined);
  return { ok: true, statuses };
}

/** The max_id of the Link header's rel="next", when there is a next page. */
export function nextMaxId(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (!m) continue;
    try {
      return new URL(m[1]!).searchParams.get('max_id') ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export async function accountStatuses(
  s: Session,
  accountId: string,
  maxId: string | undefined,
  label: string,
): Promise<{ ok: true; statuses: StatusView[]; next?: string } | PlatformFailure> {
  const res = await callInstance(s.deps, {
    method: 'GET',
    instance: s.instance,
    path: `/api/v1/accounts/${encodeURIComponent(accountId)}/statuses`,
    token: s.token,
    query: { limit: TIMELINE_PAGE_SIZE, max_id: maxId },
    label,
    signal: s.signal,
  });
  if (!res.ok) return res;
  const statuses = (Array.isArray(res.body) ? res.body : []).map(parseStatus).filter((v): v is StatusView => v !== undefined);
  const next = nextMaxId(res.headers.get('link'));
  return next ? { ok: true, statuses, next } : { ok: true, statuses };
}

/** Deletes a status; one already gone counts as deleted. */
export async function deleteStatus(s: Session, id: string, label: string): Promise<{ ok: true } | PlatformFailure> {
  const res = await rawCall(s.deps, { method: 'DELETE', instance: s.instance, path: `/api/v1/statuses/${encodeURIComponent(id)}`, token: s.token, label, signal: s.signal });
  if (res.sent === true && ((res.status >= 200 && res.status < 300) || res.status === 404)) return { ok: true };
  if (res.sent === 'unknown') {
    // Lost answer: the status is either gone now or still there; ask.
    const now = await getStatus(s, id, label);
    if (!now.ok) return now;
    if (now.status === null) return { ok: true };
  }
  return res.sent === true ? answeredFailure(res, s.deps.clock.now(), { label }) : unansweredFailure(res, { label });
}

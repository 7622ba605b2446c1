// Editing a published status: PUT /api/v1/statuses/:id (3.5+), same id afterwards, `edited_at` set
// (platforms.md §11.8). Mastodon sets no window and no count. The server's update takes every field as
// sent — a media_ids, spoiler_text or sensitive left out is cleared — so Herald reads the status first
// and sends its attachments, content warning, sensitivity and language back unchanged with the new text.
import { failure, type AccountMeta, type EditCapability, type EditRequest, type PublishOutcome, type ReconcileOutcome, type RuleViolation } from '../types.ts';
import { asString, callInstance, instanceOf, isFailure, unreadable } from './client.ts';
import type { PublishDeps } from './publish.ts';
import { domainOf, limitsOf } from './limits.ts';
import { getSource, getStatus, parseStatus, type Session } from './statuses.ts';
import { comparableText } from './reconcile.ts';
import { checkText } from './validate.ts';

function sessionOf(p: PublishDeps, request: EditRequest): Session | ReturnType<typeof failure> {
  const instance = instanceOf(request.account);
  if (isFailure(instance)) return instance;
  return { deps: p.deps, instance, token: request.account.accessToken };
}

export async function editStatus(p: PublishDeps, request: EditRequest): Promise<PublishOutcome> {
  const s = sessionOf(p, request);
  if (isFailure(s)) return s;
  const label = 'Mastodon refused the edit';
  const current = await getStatus(s, request.platformPostId, label);
  if (!current.ok) return current;
  if (!current.status) return failure('content_rejected', `${label}: the post no longer exists on ${domainOf(request.account.meta)}`, { httpStatus: 404 });
  const was = current.body;
  const body: Record<string, unknown> = {
    status: request.content,
    media_ids: current.status.mediaIds,
    spoiler_text: typeof was.spoiler_text === 'string' ? was.spoiler_text : '',
    sensitive: was.sensitive === true,
  };
  const language = asString(was.language);
  if (language) body.language = language;
  const res = await callInstance(p.deps, {
    method: 'PUT',
    instance: s.instance,
    path: `/api/v1/statuses/${encodeURIComponent(request.platformPostId)}`,
    token: s.token,
    body: { json: body },
    label,
    creates: true,
  });
  if (!res.ok) return res;
  const edited = parseStatus(res.body);
  if (!edited) return unreadable({ label, creates: true }, res.status);
  return { ok: true, platformPostId: edited.id, platformPostUrl: edited.url };
}

/** Whether an edit whose answer was lost was made: the status's source text is the text that was sent. */
export async function findEdit(p: PublishDeps, request: EditRequest): Promise<ReconcileOutcome> {
  const s = sessionOf(p, request);
  if (isFailure(s)) return s;
  const label = 'Mastodon did not show the post';
  const current = await getStatus(s, request.platformPostId, label);
  if (!current.ok) return current;
  // Gone: no edit of it can be seen, and none can be made.
  if (!current.status) return { ok: true, found: false };
  const source = await getSource(s, request.platformPostId, label);
  if (!source.ok) return source;
  if (!source.source) return { ok: true, found: false };
  if (comparableText(source.source.text) !== comparableText(request.content)) return { ok: true, found: false };
  return { ok: true, found: true, platformPostId: current.status.id, platformPostUrl: current.status.url };
}

export function validateEdit(content: string, account: { meta: AccountMeta }): RuleViolation[] {
  // The content warning stays as it is and counts too; the instance refuses an edit that is over the limit
  // with it, which Herald reports as the platform's refusal.
  return checkText(content, '', 'content', limitsOf(account.meta), `Mastodon (${domainOf(account.meta)})`);
}

export function mastodonEdit(p: PublishDeps): EditCapability {
  return {
    limits: { windowMs: null, maxEdits: null },
    validate: validateEdit,
    send: (request) => editStatus(p, request),
    find: (request) => findEdit(p, request),
  };
}

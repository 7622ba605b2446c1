// "Did the earlier attempt publish?" The checkpoint says which statuses of the chain the instance
// accepted and, for the next one, the key and media its create was sent with (saved before the call).
// That status is looked for in the account's own statuses since the send (minus a minute): by its
// attachment ids when it has media (ids do not change once attached), else by its source text. Found
// statuses are added to the checkpoint, so a new attempt resumes after them.
import type { AccountCredentials, PublishRequest, ReconcileOutcome } from '../types.ts';
import { instanceOf, isFailure, localIdOf } from './client.ts';
import { readCheckpoint, toCheckpoint, type MastodonCheckpoint, type PendingCreate } from './checkpoint.ts';
import { CLOCK_SKEW_MS, REPLAY_WINDOW_MS, TIMELINE_MAX_PAGES } from './info.ts';
import type { PublishDeps } from './publish.ts';
import { accountStatuses, getSource, type Session, type StatusView } from './statuses.ts';
import { chainOf, statusOptionsOf, type ChainItem } from './thread.ts';

/** At most this many candidates have their source text read. */
const MAX_SOURCE_LOOKUPS = 10;

/** Text as compared: line endings, Unicode form and surrounding space do not count. */
export function comparableText(text: string): string {
  return text.replace(/\r\n?/g, '\n').normalize('NFC').trim();
}

function sameIds(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');
}

type Search = { ok: true; match: StatusView | null; certain: boolean } | Extract<ReconcileOutcome, { ok: false }>;

/** The account's statuses since `since`, newest first; `complete` when the list reached back past it. */
async function recent(s: Session, accountId: string, since: number): Promise<{ ok: true; statuses: StatusView[]; complete: boolean } | Extract<ReconcileOutcome, { ok: false }>> {
  const statuses: StatusView[] = [];
  let maxId: string | undefined;
  for (let page = 0; page < TIMELINE_MAX_PAGES; page++) {
    const res = await accountStatuses(s, accountId, maxId, 'Mastodon did not list the account\'s statuses');
    if (!res.ok) return res;
    statuses.push(...res.statuses);
    const oldest = res.statuses.at(-1);
    if (!res.next || res.statuses.length === 0 || (oldest?.createdAt !== undefined && oldest.createdAt < since)) return { ok: true, statuses, complete: true };
    maxId = res.next;
  }
  return { ok: true, statuses, complete: false };
}

/** Looks for the status a create was sent for. `certain`: when no match, the list shows it is not there. */
export async function findSent(s: Session, account: AccountCredentials, cp: MastodonCheckpoint, pending: PendingCreate, item: ChainItem, spoilerText: string): Promise<Search> {
  const since = pending.sentAt - CLOCK_SKEW_MS;
  const listed = await recent(s, localIdOf(account), since);
  if (!listed.ok) return listed;
  const parent = cp.posted[pending.index - 1] ?? null;
  // Oldest first: the first matching status after the send is the one it made.
  const candidates = [...listed.statuses].reverse().filter((st) => (st.createdAt === undefined || st.createdAt >= since) && st.inReplyToId === parent);
  if (pending.mediaIds.length > 0) {
    const match = candidates.find((st) => sameIds(st.mediaIds, pending.mediaIds)) ?? null;
    return { ok: true, match, certain: listed.complete };
  }
  const wanted = comparableText(item.text);
  let lookups = 0;
  for (const st of candidates) {
    if (st.mediaIds.length > 0 || st.spoilerText !== spoilerText) continue;
    if (lookups++ >= MAX_SOURCE_LOOKUPS) return { ok: true, match: null, certain: false };
    const src = await getSource(s, st.id, 'Mastodon did not show a status\'s text');
    if (!src.ok) return src;
    if (src.source && comparableText(src.source.text) === wanted) return { ok: true, match: st, certain: true };
  }
  return { ok: true, match: null, certain: listed.complete };
}

export async function reconcileMastodon(p: PublishDeps, request: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  // The checkpoint (with the key) is saved before any create is sent: without one, nothing was sent.
  if (!cp) return { ok: true, found: false };
  const instance = instanceOf(request.account);
  if (isFailure(instance)) return instance;
  const chain = chainOf(request);
  const done = (): ReconcileOutcome => ({ ok: true, found: true, platformPostId: cp.posted[0]!, platformPostUrl: cp.firstUrl ?? `${instance}/statuses/${cp.posted[0]}` });
  if (cp.posted.length >= chain.length) return done();
  const pending = cp.pending;
  // The next status of the chain was never sent.
  if (!pending || pending.index !== cp.posted.length) return { ok: true, found: false };

  const session: Session = { deps: p.deps, instance, token: request.account.accessToken, signal: request.signal };
  const found = await findSent(session, request.account, cp, pending, chain[pending.index]!, statusOptionsOf(request.settings).spoilerText);
  if (!found.ok) return found;
  if (found.match) {
    cp.posted.push(found.match.id);
    if (pending.index === 0) cp.firstUrl = found.match.url;
    delete cp.pending;
    await request.saveCheckpoint(toCheckpoint(cp));
    // What remains of the chain was never sent: publishing resumes after what is there.
    return cp.posted.length >= chain.length ? done() : { ok: true, found: false };
  }
  if (found.certain) return { ok: true, found: false };
  // The list could not settle it, but within the key's hour a new send is answered with the status the
  // lost create made, if it made one: sending again is safe.
  if (p.deps.clock.now() - pending.sentAt < REPLAY_WINDOW_MS) return { ok: true, found: false };
  return { ok: true, found: 'unknown', message: 'too many recent statuses to be sure the post is not among them, and its Idempotency-Key has expired' };
}

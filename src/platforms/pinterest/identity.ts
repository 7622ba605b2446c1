// Who the token belongs to (GET /v5/user_account, §9.3) and which boards it can pin to (GET /v5/boards,
// §9.4). The boards are kept on the account's meta so that a target without a boardId is told which
// ones exist.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountMeta, type PlatformFailure } from '../types.ts';
import { asId, asString, callApi } from './client.ts';
import { MAX_BOARDS_IN_META } from './info.ts';

export interface PinterestAccount {
  id: string;
  username: string;
  displayName: string;
  avatarUrl?: string;
  accountType?: string;
}

export interface BoardRef {
  id: string;
  name: string;
  privacy: string;
}

export async function fetchAccount(deps: AdapterDeps, token: string, signal?: AbortSignal): Promise<{ ok: true; account: PinterestAccount } | PlatformFailure> {
  const res = await callApi(deps, { method: 'GET', path: '/v5/user_account', token, doing: 'reading the account', signal });
  if (!res.ok) return res;
  const b = res.body;
  const id = asId(b.id);
  const username = asString(b.username);
  if (!id || !username) return failure('platform_unavailable', 'Pinterest answered /v5/user_account without an id or username');
  const account: PinterestAccount = { id, username, displayName: asString(b.business_name) ?? username };
  const avatar = asString(b.profile_image);
  if (avatar) account.avatarUrl = avatar;
  const type = asString(b.account_type);
  if (type) account.accountType = type;
  return { ok: true, account };
}

/** The first page of the account's boards (owned and group boards), enough to name them in messages. */
export async function fetchBoards(deps: AdapterDeps, token: string, signal?: AbortSignal): Promise<{ ok: true; boards: BoardRef[] } | PlatformFailure> {
  const res = await callApi(deps, { method: 'GET', path: '/v5/boards', token, query: { page_size: 100 }, doing: 'listing boards', signal });
  if (!res.ok) return res;
  const items = Array.isArray(res.body.items) ? res.body.items : [];
  const boards: BoardRef[] = [];
  for (const raw of items) {
    const b = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const id = asId(b.id);
    if (!id) continue;
    boards.push({ id, name: asString(b.name) ?? id, privacy: asString(b.privacy) ?? 'PUBLIC' });
  }
  return { ok: true, boards: boards.slice(0, MAX_BOARDS_IN_META) };
}

export function accountMeta(account: PinterestAccount, boards: BoardRef[] | undefined): AccountMeta {
  const meta: AccountMeta = {};
  if (account.accountType) meta.accountType = account.accountType;
  if (boards) meta.boards = boards;
  return meta;
}

/** The boards remembered on the account (validate.ts names them when a target has no board). */
export function boardsOf(meta: AccountMeta | undefined): BoardRef[] {
  const raw = meta?.boards;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((b) => {
    const r = b && typeof b === 'object' ? (b as Record<string, unknown>) : {};
    return typeof r.id === 'string' && typeof r.name === 'string' ? [{ id: r.id, name: r.name, privacy: typeof r.privacy === 'string' ? r.privacy : 'PUBLIC' }] : [];
  });
}

// Who a grant belongs to (7.3): the member, from /v2/me (r_basicprofile, Community Management apps) or
// /v2/userinfo (openid, self-serve apps), and the Pages they may post as, from organizationAcls and the
// organizations lookup.
import type { AdapterDeps } from '../deps.ts';
import { failure, type ConnectedAccount, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asNumber, asObject, asString, callRest, callV2, restliList, type Json } from './api.ts';
import { isSuccess, linkedInFailure } from './errors.ts';
import { POSTING_ROLES, type LinkedInMeta } from './info.ts';

export interface Member {
  urn: string;
  username: string;
  displayName?: string;
  avatarUrl?: string;
}

const ME_PROJECTION = '(id,localizedFirstName,localizedLastName,vanityName,profilePicture(displayImage~:playableStreams))';

function largestPicture(profilePicture: unknown): string | undefined {
  const elements = asObject(asObject(profilePicture)['displayImage~']).elements;
  if (!Array.isArray(elements)) return undefined;
  const urls = elements.flatMap((e) => (Array.isArray(asObject(e).identifiers) ? (asObject(e).identifiers as unknown[]) : [])).map((i) => asString(asObject(i).identifier));
  return urls.filter((u): u is string => Boolean(u)).at(-1);
}

export async function fetchMember(deps: AdapterDeps, token: string, scopes: string[]): Promise<{ ok: true; member: Member } | PlatformFailure> {
  const now = deps.clock.now();
  if (scopes.includes('r_basicprofile') || !scopes.includes('openid')) {
    // REST.li projection syntax goes unencoded (LinkedIn's own client does the same for projections).
    const res = await callV2(deps, `/v2/me?projection=${ME_PROJECTION}`, token);
    if (!isSuccess(res)) return linkedInFailure(res, now, 'LinkedIn profile lookup failed');
    const b = asObject(res.body);
    const id = asString(b.id);
    if (!id) return failure('platform_unavailable', 'LinkedIn answered /v2/me without an id');
    const name = [asString(b.localizedFirstName), asString(b.localizedLastName)].filter(Boolean).join(' ') || undefined;
    const member: Member = { urn: `urn:li:person:${id}`, username: asString(b.vanityName) ?? name ?? id };
    if (name) member.displayName = name;
    const avatar = largestPicture(b.profilePicture);
    if (avatar) member.avatarUrl = avatar;
    return { ok: true, member };
  }
  const res = await callV2(deps, '/v2/userinfo', token);
  if (!isSuccess(res)) return linkedInFailure(res, now, 'LinkedIn userinfo failed');
  const b = asObject(res.body);
  const sub = asString(b.sub);
  if (!sub) return failure('platform_unavailable', 'LinkedIn answered /v2/userinfo without a sub');
  const name = asString(b.name);
  // No vanity name without r_basicprofile: the member's name stands in for a handle.
  const member: Member = { urn: `urn:li:person:${sub}`, username: name ?? sub };
  if (name) member.displayName = name;
  const picture = asString(b.picture);
  if (picture) member.avatarUrl = picture;
  return { ok: true, member };
}

export interface PageRole {
  urn: string;
  role: string;
}

const ACL_PAGE = 100;
const MAX_ACL_PAGES = 10;

/**
 * The Pages the member may post as: approved ADMINISTRATOR or CONTENT_ADMINISTRATOR roles. A grant
 * without the organization scopes (a self-serve app) has none: an empty list, not a failure.
 */
export async function fetchPageRoles(deps: AdapterDeps, token: string, scopes: string[]): Promise<{ ok: true; pages: PageRole[] } | PlatformFailure> {
  if (!scopes.includes('rw_organization_admin') && !scopes.includes('r_organization_admin')) return { ok: true, pages: [] };
  const byUrn = new Map<string, string>();
  for (let page = 0; page < MAX_ACL_PAGES; page++) {
    const res = await callRest(deps, {
      method: 'GET',
      path: '/rest/organizationAcls',
      token,
      query: { q: 'roleAssignee', state: 'APPROVED', start: page * ACL_PAGE, count: ACL_PAGE },
    });
    if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn could not list the Pages of this member');
    const body = asObject(res.body);
    const elements = Array.isArray(body.elements) ? body.elements : [];
    for (const raw of elements) {
      const e = asObject(raw);
      const urn = asString(e.organization) ?? asString(e.organizationTarget);
      const role = asString(e.role);
      if (!urn || !role || !(POSTING_ROLES as readonly string[]).includes(role) || e.state !== 'APPROVED') continue;
      if (!byUrn.has(urn) || role === 'ADMINISTRATOR') byUrn.set(urn, role);
    }
    const total = asNumber(asObject(body.paging).total);
    if (elements.length < ACL_PAGE || (total !== undefined && (page + 1) * ACL_PAGE >= total)) break;
  }
  return { ok: true, pages: [...byUrn].map(([urn, role]) => ({ urn, role })) };
}

interface PageNames {
  name?: string;
  vanityName?: string;
}

/** Batch lookup of Page names (organizations?ids=List(…)); a failed lookup leaves the names unknown. */
export async function fetchPageNames(deps: AdapterDeps, token: string, urns: string[]): Promise<Map<string, PageNames>> {
  const out = new Map<string, PageNames>();
  const ids = urns.map((u) => u.slice('urn:li:organization:'.length)).filter((id) => /^\d+$/.test(id));
  if (ids.length === 0) return out;
  const res = await callRest(deps, { method: 'GET', path: `/rest/organizations?ids=${restliList(ids)}`, token });
  if (!isSuccess(res)) return out;
  const results = asObject(asObject(res.body).results);
  for (const id of ids) {
    const org = asObject(results[id]);
    const names: PageNames = {};
    const name = asString(org.localizedName);
    const vanity = asString(org.vanityName);
    if (name) names.name = name;
    if (vanity) names.vanityName = vanity;
    out.set(`urn:li:organization:${id}`, names);
  }
  return out;
}

function meta(m: LinkedInMeta): Json {
  return { ...m };
}

/** The member and each Page as ConnectedAccounts sharing the one grant. */
export async function accountsOf(deps: AdapterDeps, grant: TokenGrant): Promise<{ ok: true; accounts: ConnectedAccount[] } | PlatformFailure> {
  const who = await fetchMember(deps, grant.accessToken, grant.scopes);
  if (!who.ok) return who;
  const { member } = who;
  const self: ConnectedAccount = { accountId: member.urn, username: member.username, grant, meta: meta({ kind: 'member', memberUrn: member.urn }) };
  if (member.displayName) self.displayName = member.displayName;
  if (member.avatarUrl) self.avatarUrl = member.avatarUrl;

  const roles = await fetchPageRoles(deps, grant.accessToken, grant.scopes);
  // The member connects even when LinkedIn will not list their Pages; only a dead token stops connect.
  if (!roles.ok && roles.category === 'auth_expired') return roles;
  const pages = roles.ok ? roles.pages : [];
  const names = await fetchPageNames(deps, grant.accessToken, pages.map((p) => p.urn));
  const pageAccounts = pages.map((p): ConnectedAccount => {
    const n = names.get(p.urn) ?? {};
    const account: ConnectedAccount = {
      accountId: p.urn,
      username: n.vanityName ?? n.name ?? p.urn,
      grant,
      meta: meta({ kind: 'organization', memberUrn: member.urn, role: p.role }),
    };
    if (n.name) account.displayName = n.name;
    return account;
  });
  return { ok: true, accounts: [self, ...pageAccounts] };
}

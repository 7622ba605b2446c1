// "Did the earlier attempt publish?" (7.11). The checkpoint answers first: no send recorded means no post.
// A Page's posts can be read (r_organization_social): the post is looked for among the author's posts
// since the send, by text and media. A member's own posts cannot be read by an ordinary app
// (r_member_social is partner-only), so there LinkedIn's duplicate rule is the evidence: publishing the
// same text again is refused with the earlier post's URN, which publish reports as this target's post.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformFailure, PublishRequest, ReconcileOutcome } from '../types.ts';
import { asNumber, asObject, asString, callRest, type Json } from './api.ts';
import { CLOCK_SKEW_MS, readCheckpoint, type LinkedInCheckpoint } from './checkpoint.ts';
import { isSuccess, linkedInFailure } from './errors.ts';
import { isOrganizationUrn, postUrl } from './info.ts';

const PAGE_SIZE = 50;
const MAX_PAGES = 4;

/** Text as compared: little-text escapes undone, Unicode normalised, whitespace collapsed. */
export function matchableText(text: string): string {
  return text.replace(/\\(.)/gsu, '$1').normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** The media URNs a post carries, in order. */
export function mediaIdsOf(post: Json): string[] {
  const content = asObject(post.content);
  const single = asString(asObject(content.media).id);
  if (single) return [single];
  const images = asObject(content.multiImage).images;
  return Array.isArray(images) ? images.map((i) => asString(asObject(i).id)).filter((id): id is string => Boolean(id)) : [];
}

export function isSamePost(post: Json, want: { text: string; mediaUrns: string[] }): boolean {
  if (matchableText(asString(post.commentary) ?? '') !== matchableText(want.text)) return false;
  if (want.mediaUrns.length === 0) return true;
  const ids = mediaIdsOf(post);
  return ids.length === want.mediaUrns.length && ids.every((id, i) => id === want.mediaUrns[i]);
}

export function canReadPosts(author: string, scopes: string[]): boolean {
  return isOrganizationUrn(author) ? scopes.includes('r_organization_social') : scopes.includes('r_member_social');
}

type Search = { ok: true; found: true; urn: string } | { ok: true; found: false | 'unknown' | 'unreadable' } | PlatformFailure;

/** Looks for the post among the author's posts created since the send (newest first). */
export async function searchAuthorPosts(deps: AdapterDeps, request: PublishRequest, cp: LinkedInCheckpoint, text: string): Promise<Search> {
  const since = cp.createSentAt! - CLOCK_SKEW_MS;
  const want = { text, mediaUrns: cp.media.filter((m) => m !== null).map((m) => m.urn) };
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callRest(deps, {
      method: 'GET',
      path: '/rest/posts',
      token: request.account.accessToken,
      query: { q: 'author', author: request.account.accountId, count: PAGE_SIZE, start: page * PAGE_SIZE, sortBy: 'CREATED' },
      restliMethod: 'FINDER',
      signal: request.signal,
    });
    if (res.sent === true && res.status === 403) return { ok: true, found: 'unreadable' };
    if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn post lookup failed');
    const elements = asObject(res.body).elements;
    const posts = Array.isArray(elements) ? elements.map(asObject) : [];
    for (const post of posts) {
      const created = asNumber(post.createdAt) ?? asNumber(post.publishedAt);
      if (created !== undefined && created < since) return { ok: true, found: false };
      const urn = asString(post.id);
      if (urn && isSamePost(post, want)) return { ok: true, found: true, urn };
    }
    if (posts.length < PAGE_SIZE) return { ok: true, found: false };
  }
  return { ok: true, found: 'unknown' };
}

export async function reconcileLinkedIn(deps: AdapterDeps, request: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  const found = (urn: string): ReconcileOutcome => ({ ok: true, found: true, platformPostId: urn, platformPostUrl: postUrl(urn) });
  if (cp.postUrn) return found(cp.postUrn);
  // The checkpoint is saved before the create call: without it, the post was never sent.
  if (cp.createSentAt === undefined) return { ok: true, found: false };

  if (canReadPosts(request.account.accountId, request.account.scopes)) {
    const search = await searchAuthorPosts(deps, request, cp, request.content);
    if (!search.ok) return search;
    if (search.found === true) return found(search.urn);
    if (search.found === false) return { ok: true, found: false };
    if (search.found === 'unknown') return { ok: true, found: 'unknown', message: 'too many recent LinkedIn posts to be sure the post is not among them' };
  }
  if (request.content.trim() === '') {
    return {
      ok: true,
      found: 'unknown',
      message: 'LinkedIn does not let this app read the account\'s posts, and a post without text is not caught by LinkedIn\'s duplicate rule',
    };
  }
  // Safe to publish again: an identical post by the same author is refused as a duplicate naming the
  // earlier one, which publish then reports as this target's post instead of posting twice.
  return { ok: true, found: false };
}

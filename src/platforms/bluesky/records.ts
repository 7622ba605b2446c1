// Writing, reading and deleting app.bsky.feed.post records in the account's repository, under record keys
// Herald chooses. The PDS never holds two records under one key, so a create repeated with the same key
// cannot post twice; but it answers that repeat with a plain 500, so after any doubtful create the key is
// read back (getRecord: found → it is published; RecordNotFound → it is not). docs/internal/bluesky-pds.md.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure } from '../types.ts';
import { asString, bodyOf, failureOf, isOk, xrpc } from './client.ts';
import { POST_COLLECTION } from './info.ts';

export interface StrongRef {
  uri: string;
  cid: string;
}

export interface RepoContext {
  deps: AdapterDeps;
  server: string;
  token: string;
  /** The account's DID: its repository. */
  repo: string;
  signal?: AbortSignal;
}

export type ReadBack = { ok: true; found: true; ref: StrongRef; value: Record<string, unknown> } | { ok: true; found: false } | PlatformFailure;

/** getRecord of one post (no token needed): found, positively absent, or a failure. */
export async function readPost(ctx: Pick<RepoContext, 'deps' | 'server' | 'signal'>, repo: string, rkey: string): Promise<ReadBack> {
  const res = await xrpc(ctx.deps, {
    server: ctx.server,
    nsid: 'com.atproto.repo.getRecord',
    method: 'GET',
    query: { repo, collection: POST_COLLECTION, rkey },
    signal: ctx.signal,
  });
  if (isOk(res)) {
    const body = bodyOf(res);
    const uri = asString(body.uri);
    const cid = asString(body.cid);
    if (!uri || !cid) return failure('platform_unavailable', 'Bluesky answered getRecord without a uri and cid');
    const value = body.value && typeof body.value === 'object' ? (body.value as Record<string, unknown>) : {};
    return { ok: true, found: true, ref: { uri, cid }, value };
  }
  const f = failureOf(ctx.deps, res, 'Bluesky could not be asked whether the post exists');
  if (f.platformCode === 'RecordNotFound') return { ok: true, found: false };
  // A read that got no answer says nothing, and a refusal of the read is not a refusal of the post.
  return f.category === 'content_rejected' ? { ...f, category: 'platform_unavailable' } : f;
}

/**
 * createRecord under `rkey`. A refusal (4xx) is returned as it is: nothing was written. A 5xx or a lost
 * answer is settled by reading the key back: found → the post is there (this create, or an earlier one
 * under the same key); absent → platform_unavailable, safe to retry with the same key; the read itself
 * failing → outcome_unknown, for reconcile to settle later.
 */
/** The platformCode of a key that holds another post (two posts drew the same TID): choose another key. */
export const KEY_TAKEN = 'RecordKeyTaken';

/** Whether a record read back is the one Herald wrote under that key (same text), not another post's. */
export function isOurs(value: Record<string, unknown>, text: string): boolean {
  return value.text === text;
}

export async function createPost(ctx: RepoContext, rkey: string, record: Record<string, unknown>, label: string): Promise<{ ok: true; ref: StrongRef } | PlatformFailure> {
  const res = await xrpc(ctx.deps, {
    server: ctx.server,
    nsid: 'com.atproto.repo.createRecord',
    method: 'POST',
    token: ctx.token,
    json: { repo: ctx.repo, collection: POST_COLLECTION, rkey, record },
    signal: ctx.signal,
  });
  if (isOk(res)) {
    const body = bodyOf(res);
    const uri = asString(body.uri);
    const cid = asString(body.cid);
    if (uri && cid) return { ok: true, ref: { uri, cid } };
  } else if (res.sent === false) {
    return failureOf(ctx.deps, res, label);
  } else if (res.sent === true && res.status < 500) {
    return failureOf(ctx.deps, res, label);
  }
  // 5xx, a 2xx without its uri, or no answer: did the record land?
  const why = res.sent === true ? `HTTP ${res.status}` : res.error;
  const back = await readPost(ctx, ctx.repo, rkey);
  if (!back.ok) return failure('outcome_unknown', `${label}: ${why}, and reading the post back failed (${back.message})`);
  if (back.found) {
    if (isOurs(back.value, String(record.text ?? ''))) return { ok: true, ref: back.ref };
    return failure('platform_unavailable', `${label}: the record key ${rkey} holds another post`, { platformCode: KEY_TAKEN });
  }
  const answered = res.sent === true ? failureOf(ctx.deps, res, label) : undefined;
  return failure('platform_unavailable', `${label}: ${why}; the post is not there, so it will be sent again under the same key`, {
    ...(answered?.platformCode ? { platformCode: answered.platformCode } : {}),
    ...(res.sent === true ? { httpStatus: res.status } : {}),
  });
}

/** deleteRecord: 200 whether or not the record was still there (idempotent, 10.14). */
export async function deletePost(ctx: RepoContext, rkey: string): Promise<{ ok: true } | PlatformFailure> {
  const res = await xrpc(ctx.deps, {
    server: ctx.server,
    nsid: 'com.atproto.repo.deleteRecord',
    method: 'POST',
    token: ctx.token,
    json: { repo: ctx.repo, collection: POST_COLLECTION, rkey },
    signal: ctx.signal,
  });
  if (isOk(res)) return { ok: true };
  return failureOf(ctx.deps, res, 'Bluesky refused to delete the post');
}

// From a checked create body to the rows a post is: the post row, its target rows, the job that publishes
// it and the events it announces. One place, so create, PATCH and bulk import store a post the same way.
import { errors, type ApiError } from '../contract/errors.ts';
import type { NewPost, TargetRow } from '../db/schema.ts';
import { postScheduled, type CatalogEvent } from '../events/catalog.ts';
import type { EnqueueJob } from '../jobs/queue.ts';
import { newId } from '../lib/ids.ts';
import { fromJson, toJson } from '../lib/json.ts';
import type { PlatformDescriptor } from '../platforms/descriptor.ts';
import type { Platform } from '../platforms/registry.ts';
import type { AccountMeta } from '../platforms/types.ts';
import { libraryViolations, type LibraryRows } from './library-media.ts';
import { postSettingsOf } from './post-settings.ts';
import { ruleError, type CreatePlan, type ResolvedTarget } from './rules.ts';
import type { CreatePostInput } from './schemas.ts';
import { derivePostStatus } from './status.ts';

export type Validators = Record<Platform, PlatformDescriptor['validate']>;

/** What the checks need of each account a post names. */
export type AccountsNamed = Map<string, { status: string; meta: string }>;

/** Each target's account: connected to this key and active. Every problem, in target order. */
export function accountProblems(targets: readonly ResolvedTarget[], accounts: AccountsNamed): { metas: Map<number, AccountMeta>; problems: ApiError[] } {
  const metas = new Map<number, AccountMeta>();
  const problems: ApiError[] = [];
  for (const t of targets) {
    const account = accounts.get(`${t.platform}:${t.accountId}`);
    const param = `platforms[${t.index}].accountId`;
    if (!account) {
      problems.push(errors.invalid(param, `no connected ${t.platform} account ${t.accountId} for this API key; connect it with GET /v1/connect/${t.platform}`));
    } else if (account.status !== 'active') {
      problems.push(errors.invalid(param, `${t.platform} account ${t.accountId} needs to be reconnected before it can publish (GET /v1/connect/${t.platform})`));
    } else {
      metas.set(t.index, fromJson<AccountMeta>(account.meta, {}));
    }
  }
  return { metas, problems };
}

/**
 * Every platform rule every target breaks (422s), by target: the platform's own rules, then its media
 * rules on the library media the target names (what the probe found, with fitting taken into account).
 */
export function ruleProblems(targets: readonly ResolvedTarget[], metas: Map<number, AccountMeta>, validators: Validators, library: LibraryRows = new Map()): Map<number, ApiError[]> {
  const out = new Map<number, ApiError[]>();
  for (const t of targets) {
    const meta = metas.get(t.index);
    if (!meta) continue;
    const violations = validators[t.platform](t.content, { meta });
    if (library.size > 0) violations.push(...libraryViolations(t.platform, t.content, library));
    out.set(
      t.index,
      violations.map((v) => ruleError(t, v)),
    );
  }
  return out;
}

/** The checks of create past the mode and the targets: accounts, then platform rules; throws the first. */
export function checkPublishable(targets: readonly ResolvedTarget[], accounts: AccountsNamed, validators: Validators, library?: LibraryRows): void {
  const { metas, problems } = accountProblems(targets, accounts);
  if (problems[0]) throw problems[0];
  for (const list of ruleProblems(targets, metas, validators, library).values()) if (list[0]) throw list[0];
}

export interface Composed {
  post: NewPost;
  targets: TargetRow[];
  jobs: EnqueueJob[];
  events: CatalogEvent[];
}

/** When a post in this plan publishes (null: not yet, a draft). */
export function runAtOf(plan: CreatePlan, now: number, fallbackDelayMs: number): number | null {
  if (plan.mode === 'draft') return null;
  if (plan.mode === 'now') return now + fallbackDelayMs;
  return plan.scheduledFor!;
}

/**
 * The rows of a post. `plan.scheduledFor` is the time it publishes (for a queued post, the slot it took).
 * `id` keeps the post's id (PATCH); `createdAt` its creation time.
 */
export function compose(input: {
  apiKeyId: string;
  body: CreatePostInput;
  plan: CreatePlan;
  now: number;
  fallbackDelayMs: number;
  id?: string;
  createdAt?: number;
  version?: number;
}): Composed {
  const { apiKeyId, body, plan, now } = input;
  const post: NewPost = {
    id: input.id ?? newId('post'),
    api_key_id: apiKeyId,
    content: body.content ?? null,
    media_items: JSON.stringify(body.mediaItems ?? []),
    status: 'draft',
    scheduled_for: plan.scheduledFor,
    timezone: plan.timezone,
    is_draft: plan.mode === 'draft' ? 1 : 0,
    tags: JSON.stringify(body.tags ?? []),
    post_settings: toJson(postSettingsOf(body)),
    created_at: input.createdAt ?? now,
    updated_at: now,
    published_at: null,
    version: input.version ?? 1,
    queued_slot: plan.mode === 'queue' ? plan.scheduledFor : null,
  };
  const runAt = plan.mode === 'now' ? now : plan.scheduledFor;
  const targets: TargetRow[] = (body.platforms ?? []).map((t, position) => ({
    id: newId('tgt'),
    post_id: post.id as string,
    api_key_id: apiKeyId,
    position,
    platform: t.platform,
    account_id: t.accountId,
    custom_content: t.customContent ?? null,
    custom_media: toJson(t.customMedia),
    platform_specific_data: toJson(t.platformSpecificData),
    status: 'pending',
    platform_post_id: null,
    platform_post_url: null,
    error: null,
    error_code: null,
    attempts: 0,
    attempt_id: null,
    attempt_started_at: null,
    lease_expires_at: null,
    next_attempt_at: plan.mode === 'draft' ? null : runAt,
    checkpoint: null,
    needs_reconcile: 0,
    holds_limit_slot: 0,
    published_at: null,
    edit_count: 0,
    edit_pending: null,
    original_platform_post_id: null,
    // A first comment waits for its target: the engine makes it pending when the target is published.
    comment_status: null,
    comment_id: null,
    comment_error: null,
    comment_error_code: null,
    comment_checkpoint: null,
    comment_attempt_id: null,
    comment_lease_expires_at: null,
    comment_next_attempt_at: null,
    comment_started_at: null,
    comment_attempts: 0,
    comment_needs_reconcile: 0,
    updated_at: now,
  }));
  post.status = derivePostStatus({ is_draft: post.is_draft, scheduled_for: post.scheduled_for ?? null }, targets, now);
  const jobAt = runAtOf(plan, now, input.fallbackDelayMs);
  // One job for the post: at its time it publishes every target in parallel.
  const jobs: EnqueueJob[] = jobAt === null ? [] : [{ queue: 'publish-post', payload: { postId: post.id as string }, runAt: jobAt }];
  const events: CatalogEvent[] = plan.mode === 'scheduled' || plan.mode === 'queue' ? [postScheduled(post.id as string, plan.scheduledFor!)] : [];
  return { post, targets, jobs, events };
}

// Create-time rules of API.md sections 5, 11 and 12 that need no database: the publishing mode and its
// contradictions, time zones, content-or-media, targets, and platform settings. Pure. Each check reports
// every problem it finds (POST /v1/posts/validate lists them all); create, PATCH and bulk stop at the
// first, in the same order as always: mode, then targets, then accounts, then platform rules.
import type { ValidateFunction } from 'ajv';
import { errors, type ApiError } from '../contract/errors.ts';
import { ajvToApiError, compileStrict } from '../contract/validation.ts';
import { PLATFORM_DESCRIPTORS, descriptorOf, type Platform } from '../platforms/registry.ts';
import { withCommonSettings } from '../platforms/schemas.ts';
import type { MediaItem, RuleViolation, TargetContent } from '../platforms/types.ts';
import { postSettingsOf } from './post-settings.ts';
import { canonicalTimeZone } from '../lib/time-zone.ts';
import { parseScheduledFor, resolveSchedule } from './schedule.ts';
import { targetContent } from './target-content.ts';
import type { CreatePostInput } from './schemas.ts';

/** `queue`: scheduled at the key's next free queue slot (API.md section 12). */
export type Mode = 'draft' | 'now' | 'scheduled' | 'queue';

export interface CreatePlan {
  mode: Mode;
  scheduledFor: number | null;
  timezone: string;
}

/** Decides draft / publish now / scheduled / queue, refusing contradictions ("Mode, exactly one of"). */
export function resolveMode(body: CreatePostInput, now: number): CreatePlan {
  const timezone = body.timezone === undefined ? 'UTC' : canonicalTimeZone(body.timezone);
  if (timezone === null) throw errors.invalid('timezone', `timezone "${body.timezone}" is not a known IANA time zone name (e.g. Europe/Paris)`);
  const hasSchedule = body.scheduledFor !== undefined && body.scheduledFor !== null;
  const queued = body.queue === true;

  if (queued) {
    const other = body.isDraft === true ? 'isDraft' : body.publishNow === true ? 'publishNow' : hasSchedule ? 'scheduledFor' : null;
    if (other) throw errors.invalid(other, `queue and ${other} contradict each other: a queued post takes the next free queue slot`);
    return { mode: 'queue', scheduledFor: null, timezone };
  }
  if (body.isDraft === true) {
    if (body.publishNow === true) throw errors.invalid('publishNow', 'isDraft and publishNow contradict each other: a draft is not published');
    if (!hasSchedule) return { mode: 'draft', scheduledFor: null, timezone };
    const parsed = parseScheduledFor(body.scheduledFor!, timezone);
    if (!parsed.ok) throw errors.invalid(parsed.param, parsed.message);
    return { mode: 'draft', scheduledFor: parsed.at, timezone };
  }
  if (body.publishNow === true) {
    if (hasSchedule) throw errors.invalid('scheduledFor', 'publishNow and scheduledFor contradict each other: leave scheduledFor out (or null) to publish at once');
    return { mode: 'now', scheduledFor: null, timezone };
  }
  if (hasSchedule) {
    const r = resolveSchedule(body.scheduledFor!, timezone, now);
    if (!r.ok) throw errors.invalid(r.param, r.message);
    return { mode: 'scheduled', scheduledFor: r.at, timezone };
  }
  throw errors.missing(
    'publishNow',
    'say how to publish: publishNow: true to publish at once, scheduledFor to schedule, queue: true for the next queue slot, or isDraft: true to save a draft',
  );
}

export interface ResolvedTarget {
  index: number;
  platform: Platform;
  accountId: string;
  content: TargetContent;
  /** Where the target's content, media and settings came from, for param paths. */
  customContent: boolean;
  customMedia: boolean;
  /** Setting names given in the target's platformSpecificData (they win over post-level settings). */
  targetSettingNames: Set<string>;
}

const settingsValidators = Object.fromEntries(
  PLATFORM_DESCRIPTORS.map((d) => [d.name, compileStrict<Record<string, unknown>>(withCommonSettings(d.settingsSchema))]),
) as Record<Platform, ValidateFunction<Record<string, unknown>>>;

const hasText = (s: string | undefined | null) => typeof s === 'string' && s.trim().length > 0;

/**
 * Content-or-media, platforms, duplicates and platform settings. Returns each target as it will publish,
 * with every problem found; a target with a problem of its own is left out of `targets`.
 */
export function checkTargets(body: CreatePostInput, mode: Mode): { targets: ResolvedTarget[]; problems: ApiError[] } {
  const targets = body.platforms ?? [];
  const sharedMedia = body.mediaItems ?? [];
  const sharedHasSomething = hasText(body.content) || sharedMedia.length > 0;
  const problems: ApiError[] = [];

  if (mode !== 'draft' && targets.length === 0) {
    problems.push(errors.missing('platforms', 'platforms is required: name at least one target ({platform, accountId}) for a post that is not a draft'));
  }
  const eachTargetHasSomething = targets.length > 0 && targets.every((t) => hasText(t.customContent) || (t.customMedia?.length ?? 0) > 0);
  if (!sharedHasSomething && !eachTargetHasSomething) {
    problems.push(errors.missing('content', 'content is required when no media is attached'));
  }

  const seen = new Map<string, number>();
  const resolved: ResolvedTarget[] = [];
  const postSettings = postSettingsOf(body) ?? {};
  targets.forEach((t, index) => {
    const key = `${t.platform}\u0000${t.accountId}`;
    if (seen.has(key)) {
      problems.push(errors.invalid(`platforms[${index}].accountId`, `platforms[${index}] repeats platforms[${seen.get(key)}] (${t.platform} account ${t.accountId})`));
      return;
    }
    seen.set(key, index);
    const specific = t.platformSpecificData ?? {};
    const validate = settingsValidators[t.platform];
    if (!validate(specific)) {
      problems.push(ajvToApiError(validate.errors ?? [], 'body', `platforms[${index}].platformSpecificData`));
      return;
    }
    resolved.push({
      index,
      platform: t.platform,
      accountId: t.accountId,
      content: targetContent({
        platform: t.platform,
        content: body.content,
        // Resolved before these checks (library-media.ts): every item has its type and URL.
        media: sharedMedia as MediaItem[],
        postSettings,
        customContent: t.customContent,
        customMedia: t.customMedia as MediaItem[] | undefined,
        platformSpecificData: specific,
      }),
      customContent: t.customContent !== undefined,
      customMedia: t.customMedia !== undefined,
      targetSettingNames: new Set(Object.keys(specific)),
    });
  });
  return { targets: resolved, problems };
}

/** As checkTargets, throwing the first problem (create, PATCH, bulk). */
export function resolveTargets(body: CreatePostInput, mode: Mode): ResolvedTarget[] {
  const { targets, problems } = checkTargets(body, mode);
  if (problems[0]) throw problems[0];
  return targets;
}

/** A platform rule's violation as the 422 the API answers, naming the field the caller sent. */
export function ruleError(target: ResolvedTarget, v: RuleViolation): ApiError {
  return errors.unprocessable(violationParam(target, v), `platforms[${target.index}] (${target.platform}): ${v.message}`);
}

/**
 * Turns a platform rule's target-relative field into the API param: the field the caller actually sent
 * (customContent over content, customMedia over mediaItems, platformSpecificData over the post-level
 * settings object).
 */
export function violationParam(target: ResolvedTarget, v: RuleViolation): string {
  const i = target.index;
  if (v.field === 'content') return target.customContent ? `platforms[${i}].customContent` : 'content';
  if (v.field.startsWith('media')) {
    const rest = v.field.slice('media'.length);
    return target.customMedia ? `platforms[${i}].customMedia${rest}` : `mediaItems${rest}`;
  }
  if (v.field.startsWith('settings.')) {
    const rest = v.field.slice('settings.'.length);
    const name = rest.split(/[.[]/)[0]!;
    const postLevel = descriptorOf(target.platform).postLevel;
    if (target.targetSettingNames.has(name) || !postLevel) return `platforms[${i}].platformSpecificData.${rest}`;
    return `${postLevel.field}.${rest}`;
  }
  return `platforms[${i}]`;
}

// "Did an earlier attempt make this Pin?" A Pin has no idempotency key (§9.7), so the answer comes from
// the board's Pins (GET /v5/boards/{id}/pins): one created since the first pin call (minus clock skew)
// with this target's description, title, link and kind. Pages are read until the list ends; the list's
// order is not documented (boards can be reordered by hand), so a partial read proves nothing.
import type { AdapterDeps } from '../deps.ts';
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { asId, asString, callApi } from './client.ts';
import { readCheckpoint, type PinKind } from './checkpoint.ts';
import { pinUrl, RECONCILE_SKEW_MS } from './info.ts';
import { readSettings } from './settings.ts';
import { mediaShape } from './validate.ts';

export interface LocateOptions {
  pageSize: number;
  maxPages: number;
}

export const DEFAULT_LOCATE: LocateOptions = { pageSize: 250, maxPages: 4 };

export interface ListedPin {
  id: string;
  boardId?: string;
  title: string;
  description: string;
  link: string;
  /** image, video, multiple_images… (media.media_type), when Pinterest says. */
  mediaType?: string;
  createdAt?: number;
}

export interface WantedPin {
  boardId: string;
  title: string;
  description: string;
  link: string;
  kind: PinKind;
}

/** Text as compared: Pinterest may normalise spacing; none of that should defeat a match. */
export function matchable(text: string | null | undefined): string {
  return (text ?? '').normalize('NFC').replace(/\s+/g, ' ').trim();
}

export function matchableLink(link: string | null | undefined): string {
  const raw = (link ?? '').trim();
  if (!raw) return '';
  try {
    return new URL(raw).href.replace(/\/$/, '');
  } catch {
    return raw;
  }
}

const MEDIA_TYPES: Record<PinKind, string[]> = { image: ['image'], carousel: ['multiple_images', 'multiple_mixed'], video: ['video'] };

export function parseListedPin(raw: unknown): ListedPin | undefined {
  const p = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
  const id = p ? asId(p.id) : undefined;
  if (!p || !id) return undefined;
  const media = p.media && typeof p.media === 'object' ? (p.media as Record<string, unknown>) : {};
  const created = typeof p.created_at === 'string' ? Date.parse(p.created_at) : NaN;
  const pin: ListedPin = {
    id,
    title: matchable(asString(p.title)),
    description: matchable(asString(p.description)),
    link: matchableLink(asString(p.link)),
  };
  const boardId = asId(p.board_id);
  if (boardId) pin.boardId = boardId;
  const mediaType = asString(media.media_type);
  if (mediaType) pin.mediaType = mediaType;
  if (Number.isFinite(created)) pin.createdAt = created;
  return pin;
}

export function matches(pin: ListedPin, want: WantedPin, since: number): boolean {
  if (pin.createdAt !== undefined && pin.createdAt < since) return false;
  if (pin.boardId !== undefined && pin.boardId !== want.boardId) return false;
  if (pin.mediaType !== undefined && !MEDIA_TYPES[want.kind].includes(pin.mediaType)) return false;
  return pin.description === matchable(want.description) && pin.title === matchable(want.title) && pin.link === matchableLink(want.link);
}

/** Picks the Pin an attempt made from a board's Pins, or says why it cannot. Pure. */
export function decide(pins: ListedPin[], want: WantedPin, since: number, complete: boolean): ReconcileOutcome {
  const candidates = pins.filter((p) => matches(p, want, since)).sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
  const identifiable = matchable(want.description) !== '' || matchable(want.title) !== '' || matchableLink(want.link) !== '';
  const first = candidates[0];
  if (first && identifiable) return { ok: true, found: true, platformPostId: first.id, platformPostUrl: pinUrl(first.id) };
  if (first) return { ok: true, found: 'unknown', message: 'a Pin without description, title or link cannot be told apart from others on the board' };
  if (!complete) return { ok: true, found: 'unknown', message: 'the board holds too many Pins to be sure the Pin is not among them' };
  return { ok: true, found: false };
}

export async function findPin(deps: AdapterDeps, options: LocateOptions, request: PublishRequest, pinSentAt: number): Promise<ReconcileOutcome> {
  const settings = readSettings(request.settings);
  const shape = mediaShape(request.media);
  if (!settings.boardId || 'error' in shape) return { ok: true, found: 'unknown', message: 'the target names no board or no valid media, so there is nowhere to look' };
  const want: WantedPin = { boardId: settings.boardId, title: settings.title ?? '', description: request.content, link: settings.link ?? '', kind: shape.kind };
  const since = pinSentAt - RECONCILE_SKEW_MS;
  const pins: ListedPin[] = [];
  let bookmark: string | undefined;
  for (let page = 0; page < options.maxPages; page++) {
    const res = await callApi(deps, {
      method: 'GET',
      path: `/v5/boards/${settings.boardId}/pins`,
      token: request.account.accessToken,
      query: { page_size: options.pageSize, bookmark },
      doing: 'looking for the Pin on its board',
      signal: request.signal,
    });
    if (!res.ok) {
      // The board is gone, and with it any Pin that was saved to it (OpenAPI example: 404 code 404
      // "Board not found."; code 40 elsewhere). A 404 without Pinterest's envelope proves nothing.
      if (res.httpStatus === 404 && (res.platformCode === '40' || res.platformCode === '404')) return { ok: true, found: false };
      return res;
    }
    for (const raw of Array.isArray(res.body.items) ? res.body.items : []) {
      const pin = parseListedPin(raw);
      if (pin) pins.push(pin);
    }
    bookmark = asString(res.body.bookmark);
    if (!bookmark) return decide(pins, want, since, true);
  }
  return decide(pins, want, since, false);
}

/**
 * Reconcile: the checkpoint says whether a Pin was ever asked for. It is saved before every pin call,
 * so without it no Pin can exist; with it, the board is searched.
 */
export async function reconcilePinterest(deps: AdapterDeps, options: LocateOptions, request: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (cp?.pinSentAt === undefined) return { ok: true, found: false };
  return findPin(deps, options, request, cp.pinSentAt);
}

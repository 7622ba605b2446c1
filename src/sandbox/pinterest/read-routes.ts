// Reads: the user account (§9.3), boards (§9.4), and Pins — the user's, a board's, one by id (§9.7) —
// each behind its OpenAPI scope set, paged with opaque bookmarks (null on the last page).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authenticate, avatarUrl, MESSAGES, pageSize, sendError, type PinterestContext } from './context.ts';
import { decodeBookmark, encodeBookmark } from './store.ts';
import { accountJson, boardJson } from './users.ts';
import { canSeeBoard, pinJson } from './views.ts';

type Query = Record<string, string | undefined>;

/** One page of `all`, or a 400 for a bookmark that belongs to another list or a bad page_size. */
function page<T>(reply: FastifyReply, list: string, all: T[], q: Query): { items: T[]; bookmark: string | null } | null {
  const size = pageSize(q.page_size);
  if (size === null) {
    sendError(reply, 400, 1, 'Invalid request: page_size must be an integer from 1 to 250');
    return null;
  }
  const offset = decodeBookmark(list, q.bookmark);
  if (offset === null) {
    sendError(reply, 400, 1, 'Invalid request: the bookmark is not valid');
    return null;
  }
  const items = all.slice(offset, offset + size);
  return { items, bookmark: offset + size < all.length ? encodeBookmark(list, offset + size) : null };
}

const PRIVACY_FILTERS = new Set(['ALL', 'PUBLIC', 'PROTECTED', 'SECRET', 'PUBLIC_AND_SECRET']);

export function registerReadRoutes(app: FastifyInstance, ctx: PinterestContext): void {
  app.get('/v5/user_account', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['user_accounts:read']);
    if (!caller) return reply;
    const count = ctx.store.pinsWhere((p) => p.ownerId === caller.user.id).length;
    return accountJson(caller.user, avatarUrl(ctx, req, caller.user), count);
  });

  app.get('/v5/boards', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['boards:read']);
    if (!caller) return reply;
    const q = req.query as Query;
    const privacy = q.privacy ?? 'ALL';
    if (!PRIVACY_FILTERS.has(privacy)) return sendError(reply, 400, 1, `Invalid request: privacy must be one of ${[...PRIVACY_FILTERS].join(', ')}`);
    const boards = caller.user.boards.filter(
      (b) => canSeeBoard(caller, b) && (privacy === 'ALL' || b.privacy === privacy || (privacy === 'PUBLIC_AND_SECRET' && b.privacy !== 'PROTECTED')),
    );
    const p = page(reply, `boards:${caller.user.id}:${privacy}`, boards, q);
    if (!p) return reply;
    const counts = (id: string) => ctx.store.pinsWhere((pin) => pin.boardId === id).length;
    return { items: p.items.map((b) => boardJson(b, caller.user, counts(b.id))), bookmark: p.bookmark };
  });

  app.get('/v5/boards/:board_id/pins', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['boards:read', 'pins:read']);
    if (!caller) return reply;
    const { board_id } = req.params as { board_id: string };
    const found = /^\d+$/.test(board_id) ? ctx.store.boardOf(board_id) : undefined;
    // Other users' boards are not shared with sandbox users; secret ones need the secret scopes.
    if (!found || found.owner.id !== caller.user.id || !canSeeBoard(caller, found.board) || (found.board.privacy === 'SECRET' && !caller.scopes.includes('pins:read_secret'))) {
      return sendError(reply, 404, 404, MESSAGES.boardNotFound);
    }
    const pins = ctx.store.pinsWhere((pin) => pin.boardId === board_id);
    const p = page(reply, `board:${board_id}`, pins, req.query as Query);
    if (!p) return reply;
    return { items: p.items.map((pin) => pinJson(pin, found.owner, caller.user.id)), bookmark: p.bookmark };
  });

  app.get('/v5/pins', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['boards:read', 'pins:read']);
    if (!caller) return reply;
    const secret = new Set(caller.user.boards.filter((b) => b.privacy === 'SECRET').map((b) => b.id));
    const readSecret = caller.scopes.includes('boards:read_secret') && caller.scopes.includes('pins:read_secret');
    const pins = ctx.store.pinsWhere((pin) => pin.ownerId === caller.user.id && (readSecret || !secret.has(pin.boardId)));
    const p = page(reply, `pins:${caller.user.id}`, pins, req.query as Query);
    if (!p) return reply;
    return { items: p.items.map((pin) => pinJson(pin, caller.user, caller.user.id)), bookmark: p.bookmark };
  });

  app.get('/v5/pins/:pin_id', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['boards:read', 'pins:read']);
    if (!caller) return reply;
    const pin = ctx.store.pins.get((req.params as { pin_id: string }).pin_id);
    const board = pin ? ctx.store.boardOf(pin.boardId) : undefined;
    if (!pin || !board || pin.ownerId !== caller.user.id || !canSeeBoard(caller, board.board)) return sendError(reply, 404, 50, MESSAGES.pinNotFound);
    return pinJson(pin, board.owner, caller.user.id);
  });
}

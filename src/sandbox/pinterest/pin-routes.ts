// Pin writes: create (§9.5) and delete (§9.8), both in the org_write category and behind the four
// scopes boards:read, boards:write, pins:read, pins:write. Editing (PATCH) is a beta this sandbox app
// does not have.
import type { FastifyInstance } from 'fastify';
import { authenticate, MESSAGES, sendError, takeWrite, type PinterestContext } from './context.ts';
import { checkPinCreate } from './pin-create.ts';
import { pinJson } from './views.ts';

export const WRITE_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write'] as const;

export function registerPinRoutes(app: FastifyInstance, ctx: PinterestContext): void {
  app.post('/v5/pins', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, WRITE_SCOPES);
    if (!caller || !takeWrite(ctx, caller, reply)) return reply;
    if (ctx.settings.trialAccess) return sendError(reply, 403, 29, MESSAGES.trialAccess);
    const checked = await checkPinCreate(ctx, caller, req.body);
    if ('code' in checked) return sendError(reply, checked.status, checked.code, checked.message);
    const pin = ctx.store.addPin({
      ownerId: caller.user.id,
      boardId: checked.board.id,
      title: checked.title,
      description: checked.description,
      link: checked.link,
      altText: checked.altText,
      mediaType: checked.mediaType,
      sourceType: checked.sourceType,
      media: checked.media,
      ...(checked.upload ? { mediaId: checked.upload.id } : {}),
    });
    if (checked.upload) checked.upload.usedByPin = pin.id;
    return reply.code(201).send(pinJson(pin, caller.user, caller.user.id));
  });

  app.delete('/v5/pins/:pin_id', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, WRITE_SCOPES);
    if (!caller || !takeWrite(ctx, caller, reply)) return reply;
    const pin = ctx.store.pins.get((req.params as { pin_id: string }).pin_id);
    if (!pin) return sendError(reply, 404, 404, MESSAGES.pinNotFound);
    if (pin.ownerId !== caller.user.id) return sendError(reply, 403, 403, 'Not authorized to access board or Pin.');
    ctx.store.deletePin(pin);
    return reply.code(204).send();
  });

  app.patch('/v5/pins/:pin_id', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, WRITE_SCOPES);
    if (!caller) return reply;
    // "This endpoint is currently in beta and not available to all apps" (OpenAPI 5.23.0).
    return sendError(reply, 403, 29, MESSAGES.notPermitted);
  });
}

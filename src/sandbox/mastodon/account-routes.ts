// The instance's description (/api/v2/instance and the older /api/v1/instance), the signed-in account
// (verify_credentials) and an account's statuses, newest first, paged with the Link header.
import type { FastifyInstance } from 'fastify';
import { authorize, authorizeIfToken, baseOf, bool, domainOf, str, type MastodonContext } from './context.ts';
import { TEXT, sendError } from './envelope.ts';
import { renderAccount, renderCredentialAccount, renderStatus, type View } from './serialize.ts';

const SUPPORTED_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/heic',
  'image/heif',
  'image/webp',
  'image/avif',
  'video/webm',
  'video/mp4',
  'video/quicktime',
  'video/ogg',
  'audio/wave',
  'audio/wav',
  'audio/x-wav',
  'audio/x-pn-wave',
  'audio/vnd.wave',
  'audio/ogg',
  'audio/vorbis',
  'audio/mpeg',
  'audio/mp3',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'audio/m4a',
  'audio/x-m4a',
  'audio/mp4',
  'audio/3gpp',
  'video/x-ms-asf',
];

export function registerAccountRoutes(app: FastifyInstance, ctx: MastodonContext): void {
  const view = (req: Parameters<typeof baseOf>[1], viewer: string | null): View => ({ ctx, base: baseOf(ctx, req), domain: domainOf(ctx, req), viewer });

  app.get('/api/v2/instance', async (req) => {
    const s = ctx.settings;
    const domain = domainOf(ctx, req);
    return {
      domain,
      title: 'Herald sandbox',
      version: s.version,
      source_url: 'https://github.com/mastodon/mastodon',
      description: 'A Mastodon instance emulated by Herald\'s sandbox.',
      usage: { users: { active_month: ctx.state.users.size } },
      thumbnail: { url: `${baseOf(ctx, req)}/avatars/original/missing.png` },
      icon: [],
      languages: ['en'],
      configuration: {
        urls: { streaming: `wss://${domain}`, status: null },
        vapid: { public_key: 'BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=' },
        accounts: { max_featured_tags: 10, max_pinned_statuses: 5 },
        statuses: { max_characters: s.maxCharacters, max_media_attachments: s.maxMediaAttachments, characters_reserved_per_url: s.charactersReservedPerUrl },
        media_attachments: {
          supported_mime_types: SUPPORTED_MIME_TYPES,
          description_limit: s.descriptionLimit,
          image_size_limit: s.imageSizeLimit,
          image_matrix_limit: 33_177_600,
          video_size_limit: s.videoSizeLimit,
          video_frame_rate_limit: 120,
          video_matrix_limit: 8_294_400,
        },
        polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
        translation: { enabled: false },
      },
      registrations: { enabled: false, approval_required: false, message: null },
      api_versions: { mastodon: 2 },
      contact: { email: '', account: null },
      rules: [],
    };
  });

  app.get('/api/v1/instance', async (req) => {
    const s = ctx.settings;
    return {
      uri: domainOf(ctx, req),
      title: 'Herald sandbox',
      version: s.version,
      configuration: {
        statuses: { max_characters: s.maxCharacters, max_media_attachments: s.maxMediaAttachments, characters_reserved_per_url: s.charactersReservedPerUrl },
        media_attachments: { supported_mime_types: SUPPORTED_MIME_TYPES, image_size_limit: s.imageSizeLimit, video_size_limit: s.videoSizeLimit },
      },
    };
  });

  app.get('/api/v1/accounts/verify_credentials', async (req, reply) => {
    const caller = authorize(ctx, req, reply, ['profile', 'read', 'read:accounts']);
    if (!caller) return reply;
    return renderCredentialAccount(view(req, caller.user!.id), caller.user!);
  });

  app.get('/api/v1/accounts/:id', async (req, reply) => {
    const auth = authorizeIfToken(ctx, req, reply, ['read', 'read:accounts']);
    if (!auth) return reply;
    const user = ctx.state.users.get((req.params as { id: string }).id);
    if (!user) return sendError(reply, 404, TEXT.recordNotFound);
    return renderAccount(view(req, auth.viewer?.id ?? null), user);
  });

  app.get('/api/v1/accounts/:id/statuses', async (req, reply) => {
    const auth = authorizeIfToken(ctx, req, reply, ['read', 'read:statuses']);
    if (!auth) return reply;
    const id = (req.params as { id: string }).id;
    const user = ctx.state.users.get(id);
    if (!user) return sendError(reply, 404, TEXT.recordNotFound);
    const q = req.query as Record<string, unknown>;
    const asked = Number(str(q.limit) ?? 20);
    // Larger limits are clamped, not refused.
    const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, 40) : 20;
    const viewer = auth.viewer?.id ?? null;
    let list = ctx.state.statusesOf(id, viewer);
    if (bool(q.exclude_replies)) list = list.filter((s) => s.inReplyToId === null || ctx.state.statuses.get(s.inReplyToId)?.accountId === id);
    if (bool(q.only_media)) list = list.filter((s) => s.mediaIds.length > 0);
    if (bool(q.pinned)) list = [];
    const big = (v: unknown) => (typeof str(v) === 'string' && /^\d+$/.test(str(v)!) ? BigInt(str(v)!) : undefined);
    const maxId = big(q.max_id);
    const sinceId = big(q.since_id);
    const minId = big(q.min_id);
    if (maxId !== undefined) list = list.filter((s) => BigInt(s.id) < maxId);
    if (sinceId !== undefined) list = list.filter((s) => BigInt(s.id) > sinceId);
    let page: typeof list;
    if (minId !== undefined) {
      // The statuses right after min_id, still shown newest first.
      page = list.filter((s) => BigInt(s.id) > minId).reverse().slice(0, limit).reverse();
    } else {
      page = list.slice(0, limit);
    }
    const v = view(req, viewer);
    const links: string[] = [];
    const base = `https://${v.domain}/api/v1/accounts/${id}/statuses`;
    if (page.length === limit) links.push(`<${base}?limit=${limit}&max_id=${page.at(-1)!.id}>; rel="next"`);
    if (page.length > 0) links.push(`<${base}?limit=${limit}&min_id=${page[0]!.id}>; rel="prev"`);
    if (links.length > 0) reply.header('link', links.join(', '));
    return page.map((s) => renderStatus(v, s));
  });
}

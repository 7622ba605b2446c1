// LinkedIn emulator: OAuth (www.linkedin.com/oauth/v2), identity (/v2/me, /v2/userinfo), Pages
// (organizationAcls, organizations), media uploads (images, videos, documents and their upload URLs),
// posts and comments (api.linkedin.com/rest), at LinkedIn's own paths below the emulator's root.
// Every /rest/* call needs a served LinkedIn-Version and the REST.li 2.0 protocol header.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { installBodyParsers, MAX_UPLOAD_BYTES } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type EmulatorOptions } from '../kit/emulator.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { VIDEO_RULES } from '../../platforms/linkedin/info.ts';
import { registerCommentRoutes } from './comment-routes.ts';
import type { LinkedInContext, LinkedInSandboxSettings } from './context.ts';
import { illegal, renderFault, sendRestError } from './envelope.ts';
import { registerMediaRoutes } from './media-routes.ts';
import { ACCESS_TTL_MS, REFRESH_TTL_MS, registerOAuthRoutes } from './oauth-routes.ts';
import { registerOrgRoutes } from './org-routes.ts';
import { registerPostRoutes } from './post-routes.ts';
import { IdMint } from './store.ts';

/**
 * LinkedIn app products and the scopes they grant. The Community Management API must be the only
 * product on its app (LinkedIn's portal says so; postiz-app#1658, n8n-io/n8n#7451), so an app is one
 * or the other.
 */
export const PRODUCT_SCOPES = {
  community_management: ['r_basicprofile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin', 'r_organization_admin'],
  self_serve: ['openid', 'profile', 'email', 'w_member_social'],
} as const;

export interface LinkedInEmulatorOptions extends EmulatorOptions {
  /** The app's product (default community_management: member and Pages). */
  product?: keyof typeof PRODUCT_SCOPES;
  /** A partner app: may read members' own posts and comments (r_member_social). */
  partner?: boolean;
  /** Refresh tokens are issued (programmatic refresh; default false, as for most apps). */
  programmaticRefresh?: boolean;
  /** Video part size (LinkedIn: 4 MiB); tests shrink it. */
  partBytes?: number;
  dailyPostsPerMember?: number;
}

export interface LinkedInEmulator extends Emulator {
  /** Live switches; reset() restores the options. */
  readonly settings: LinkedInSandboxSettings;
}

const MONTH_NAMES = /^(\d{4})(\d{2})(?:\.(\d{2}))?$/;

/** Whether a LinkedIn-Version is served at `now`: from its month, for `months` months. */
export function isActiveVersion(version: string, now: number, months: number): boolean {
  const m = MONTH_NAMES.exec(version);
  if (!m) return false;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  const d = new Date(now);
  const age = d.getUTCFullYear() * 12 + d.getUTCMonth() - (Number(m[1]) * 12 + month - 1);
  return age >= 0 && age < months;
}

function versionChecks(app: FastifyInstance, ctx: LinkedInContext): void {
  const prefix = app.prefix;
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const path = (req.url.split('?')[0] ?? '').slice(prefix.length);
    if (!path.startsWith('/rest/')) return;
    const version = req.headers['linkedin-version'];
    if (typeof version !== 'string' || version === '') {
      // The body of this answer is unconfirmed (platforms.md 7.14).
      return sendRestError(reply, { status: 400, code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });
    }
    if (!isActiveVersion(version, ctx.now(), ctx.settings.versionMonths)) {
      const long = /^\d{6}$/.test(version) ? `${version}01` : version.replace('.', '');
      return sendRestError(reply, { status: 426, code: 'NONEXISTENT_VERSION', message: `Requested version ${long} is not active` });
    }
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') {
      return sendRestError(reply, illegal('The X-Restli-Protocol-Version header must be 2.0.0 for this resource'));
    }
  });
}

export function createLinkedInEmulator(options: LinkedInEmulatorOptions = {}): LinkedInEmulator {
  const now = options.now ?? Date.now;
  const initial = (): LinkedInSandboxSettings => ({
    processingMs: options.processingMs ?? 50,
    partBytes: options.partBytes ?? VIDEO_RULES.partBytes,
    dailyPostsPerMember: options.dailyPostsPerMember ?? 150,
    programmaticRefresh: options.programmaticRefresh ?? false,
    versionMonths: 12,
  });
  const settings = initial();
  const base = createEmulatorBase();
  const oauth = new OAuthServer({ now, tokenPrefix: 'AQ', codeTtlMs: 30 * 60_000, accessTtlMs: ACCESS_TTL_MS, refreshTtlMs: REFRESH_TTL_MS, rotateRefresh: false });
  const scopes = new Set<string>(PRODUCT_SCOPES[options.product ?? 'community_management']);
  if (options.partner) scopes.add('r_member_social');
  const ctx: LinkedInContext = {
    clientId: options.clientId ?? SANDBOX_APP.clientId,
    clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
    appScopes: scopes,
    now,
    oauth,
    ledger: base.ledger,
    ids: new IdMint(),
    settings,
    members: new Map(),
    media: new Map(),
    posts: new Map(),
    comments: [],
    dailyPosts: new Map(),
    consentAt: new Map(),
  };

  const emu: LinkedInEmulator = {
    name: 'linkedin',
    platforms: ['linkedin'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth,
    settings,
    async plugin(app: FastifyInstance) {
      installBodyParsers(app);
      // Upload URLs take any bytes (the adapter sends application/octet-stream; others send the type).
      app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_req, body, done) => done(null, body));
      installCommon(app, emu);
      versionChecks(app, ctx);
      app.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
        return sendRestError(reply, { status, code: status === 500 ? 'INTERNAL_SERVER_ERROR' : 'ILLEGAL_ARGUMENT', message: err.message ?? 'request failed' });
      });
      registerOAuthRoutes(app, ctx, app.prefix);
      registerOrgRoutes(app, ctx);
      registerMediaRoutes(app, ctx, app.prefix);
      registerPostRoutes(app, ctx);
      registerCommentRoutes(app, ctx);
    },
    errorFor: renderFault,
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      ctx.ids.reset();
      ctx.members.clear();
      ctx.media.clear();
      ctx.posts.clear();
      ctx.comments.length = 0;
      ctx.dailyPosts.clear();
      ctx.consentAt.clear();
      Object.assign(settings, initial());
    },
  };
  return emu;
}

// Pinterest emulator: the consent page (www.pinterest.com/oauth/), API v5 (api.pinterest.com/v5/…)
// and the S3 upload host behind upload_url, at Pinterest's own paths below the emulator's root.
// Every answer carries x-pinterest-rid; errors use Pinterest's {code, message} envelope.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { installBodyParsers } from '../kit/body.ts';
import { createEmulatorBase, installCommon, SANDBOX_APP, type Emulator, type EmulatorOptions } from '../kit/emulator.ts';
import { OAuthServer } from '../kit/oauth.ts';
import { sendError, type PinterestContext, type PinterestSandboxSettings } from './context.ts';
import { renderFault, s3Xml, UPLOAD_PATH } from './faults.ts';
import { createImageFetcher, type ImageFetcher } from './images.ts';
import { registerMediaRoutes } from './media-routes.ts';
import { registerOAuthRoutes } from './oauth-routes.ts';
import { registerPinRoutes } from './pin-routes.ts';
import { registerReadRoutes } from './read-routes.ts';
import { PinterestStore } from './store.ts';

export interface PinterestEmulatorOptions extends EmulatorOptions {
  /** org_write calls per user per minute (the real figure is unconfirmed, §9.10). Default 60. */
  writesPerMinute?: number;
  /** How long a registered upload's policy stays valid. Default 1 hour (unconfirmed, §9.13). */
  uploadPolicyTtlMs?: number;
  /** Let image_url sources point at private and loopback addresses (tests serve media on 127.0.0.1). */
  allowPrivateImageUrls?: boolean;
  /** Replaces the image downloader altogether. */
  fetchImage?: ImageFetcher;
  /** Behave like an app with Trial access: no Pins in production (403 code 29). */
  trialAccess?: boolean;
}

export interface PinterestEmulator extends Emulator {
  /** Live switches; reset() restores the options. */
  readonly settings: PinterestSandboxSettings;
  readonly store: PinterestStore;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Path patterns of the API, so that a known path with a wrong method answers 405 code 5. */
const KNOWN_PATHS = [
  /^\/oauth\/$/,
  /^\/v5\/oauth\/token(\/revoke)?$/,
  /^\/v5\/user_account$/,
  /^\/v5\/boards(\/[^/]+\/pins)?$/,
  /^\/v5\/pins(\/[^/]+)?$/,
  /^\/v5\/media(\/[^/]+)?$/,
  /^\/pinterest-media-upload\/$/,
];

export function createPinterestEmulator(options: PinterestEmulatorOptions = {}): PinterestEmulator {
  const now = options.now ?? Date.now;
  const initial = (): PinterestSandboxSettings => ({
    processingMs: options.processingMs ?? 50,
    writesPerMinute: options.writesPerMinute ?? 60,
    uploadPolicyTtlMs: options.uploadPolicyTtlMs ?? 60 * MINUTE_MS,
    trialAccess: options.trialAccess ?? false,
  });
  const settings = initial();
  const base = createEmulatorBase();
  const oauth = new OAuthServer({
    now,
    // Tokens read pina… / pinr… as Pinterest's do (token debugger page).
    tokenPrefix: 'pin',
    // Code lifetime unconfirmed (§9.13); ten minutes is the common figure.
    codeTtlMs: 10 * MINUTE_MS,
    accessTtlMs: 30 * DAY_MS,
    refreshTtlMs: 60 * DAY_MS,
    // Continuous refresh: every refresh hands out a new refresh token. Whether the old one keeps working
    // is unconfirmed; the emulator takes the strict reading and kills it.
    rotateRefresh: true,
  });
  const store = new PinterestStore(base.ledger, now, () => settings.processingMs);
  const ctx: PinterestContext = {
    clientId: options.clientId ?? SANDBOX_APP.clientId,
    clientSecret: options.clientSecret ?? SANDBOX_APP.clientSecret,
    now,
    oauth,
    store,
    settings,
    fetchImage: options.fetchImage ?? createImageFetcher({ allowPrivateNetworks: options.allowPrivateImageUrls ?? false }),
    uploadSecret: randomBytes(32).toString('hex'),
    prefix: '',
  };

  const emu: PinterestEmulator = {
    name: 'pinterest',
    platforms: ['pinterest'],
    ledger: base.ledger,
    faults: base.faults,
    calls: base.calls,
    latencyMs: base.latencyMs,
    oauth,
    settings,
    store,
    async plugin(app: FastifyInstance) {
      ctx.prefix = app.prefix;
      installBodyParsers(app);
      installCommon(app, emu);
      app.addHook('onSend', async (_req, reply, payload) => {
        reply.header('x-pinterest-rid', String(BigInt(`0x${randomBytes(7).toString('hex')}`)));
        return payload;
      });
      app.setNotFoundHandler(async (req, reply) => {
        const path = (req.url.split('?')[0] ?? '').slice(app.prefix.length) || '/';
        if (KNOWN_PATHS.some((p) => p.test(path))) return sendError(reply, 405, 5, 'Method not allowed.');
        return sendError(reply, 404, 404, 'Not found.');
      });
      // Bodies Fastify cannot parse (and any bug) still answer in Pinterest's envelope.
      app.setErrorHandler(async (err: { statusCode?: number; message?: string }, req, reply) => {
        if (req.url.includes(UPLOAD_PATH)) {
          // The storage host answers in S3's XML, a body over the limit included.
          const [status, code, message] = err.statusCode === 413 ? [400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'] : [400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.'];
          return reply.code(status).type('application/xml').send(s3Xml(code, message));
        }
        const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? 400 : 500;
        return status === 400 ? sendError(reply, 400, 1, `Invalid request: ${err.message ?? 'the body could not be read'}`) : sendError(reply, 500, 12, 'Something went wrong on our end. Sorry about that.');
      });
      registerOAuthRoutes(app, ctx);
      registerReadRoutes(app, ctx);
      registerPinRoutes(app, ctx);
      registerMediaRoutes(app, ctx);
    },
    errorFor: renderFault,
    reset() {
      base.ledger.clear();
      base.faults.clear();
      base.calls.length = 0;
      emu.latencyMs = 0;
      oauth.reset();
      store.reset();
      Object.assign(settings, initial());
    },
  };
  return emu;
}

// The HTTP side of a runtime: rate limiters, the dashboard's session and routes, and the Fastify app with
// every /v1 route and the public plugins (dashboard, media files, sandbox emulators).
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { loadDashboardAssets } from '../dashboard/assets.ts';
import { EVENT_NAMES } from '../events/catalog.ts';
import { buildApp } from '../http/app.ts';
import { createInFlight } from '../http/in-flight.ts';
import { createRateLimiter } from '../http/rate-limit.ts';
import { accountsRoutes } from '../http/routes/accounts.ts';
import { connectRoutes } from '../http/routes/connect.ts';
import { dashboardRoutes } from '../http/routes/dashboard.ts';
import { mediaRoutes } from '../http/routes/media.ts';
import { publicMediaRoutes } from '../http/routes/media-public.ts';
import { postsRoutes } from '../http/routes/posts.ts';
import { postsBulkRoutes } from '../http/routes/posts-bulk.ts';
import { postChangesRoutes } from '../http/routes/posts-changes.ts';
import { queueRoutes } from '../http/routes/queue.ts';
import { webhooksRoutes } from '../http/routes/webhooks.ts';
import { sessionCookieName } from '../http/session-guard.ts';
import type { AccountsService } from '../accounts/accounts-service.ts';
import type { ConnectService } from '../accounts/connect-service.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { KeysService } from '../keys/keys-service.ts';
import type { MediaService } from '../media/media-service.ts';
import type { createPublicFiles } from '../media/public-files.ts';
import type { Metrics } from '../observability/metrics.ts';
import { PLATFORM_DESCRIPTORS } from '../platforms/registry.ts';
import type { BulkService } from '../posts/bulk-service.ts';
import type { CalendarDal } from '../posts/calendar-dal.ts';
import type { PostsService } from '../posts/posts-service.ts';
import type { UpdateService } from '../posts/update-service.ts';
import type { ValidateService } from '../posts/validate-service.ts';
import type { EditService } from '../publishing/edit.ts';
import type { RetryService } from '../publishing/retry.ts';
import type { UnpublishService } from '../publishing/unpublish.ts';
import type { QueueService } from '../queue/queue-service.ts';
import { sandboxPlugin } from '../sandbox/index.ts';
import type { Emulator } from '../sandbox/kit/emulator.ts';
import type { SessionsService } from '../sessions/sessions-service.ts';
import type { DeliveriesReader } from '../webhooks/deliveries-read.ts';
import type { WebhookDelivery } from '../webhooks/delivery.ts';
import type { WebhookSettings } from '../webhooks/webhooks-settings.ts';

export interface HttpDeps {
  config: Config;
  log: Logger;
  version: string;
  db: Db;
  serveApi: boolean;
  publicUrl(): string;
  metrics: Metrics;
  keys: KeysService;
  sessions: SessionsService;
  idempotency: IdempotencyStore;
  posts: PostsService;
  validate: ValidateService;
  bulk: BulkService;
  updates: UpdateService;
  retry: RetryService;
  edit: EditService;
  unpublish: UnpublishService;
  postingQueue: QueueService;
  connect: ConnectService;
  accounts: AccountsService;
  webhookSettings: WebhookSettings;
  webhooks: WebhookDelivery;
  deliveriesReader: DeliveriesReader;
  media: MediaService;
  publicFiles: ReturnType<typeof createPublicFiles>;
  calendar: CalendarDal;
  emulators: Emulator[];
}

export async function createHttp(d: HttpDeps) {
  const { config } = d;
  const keyLimiter = await createRateLimiter({ points: config.rateLimitPerMinute, durationSeconds: 60, keyPrefix: 'key', pgPool: d.db.pgPool });
  const badKeyLimiter = await createRateLimiter({ points: config.authFailuresPerMinute, durationSeconds: 60, keyPrefix: 'badkey', pgPool: d.db.pgPool });

  const secureCookie = new URL(config.publicUrl).protocol === 'https:';
  const session = { sessions: d.sessions, cookieName: sessionCookieName(secureCookie), publicUrl: d.publicUrl };
  const dashboard = dashboardRoutes({
    assets: loadDashboardAssets(),
    sessions: d.sessions,
    calendar: d.calendar,
    platforms: PLATFORM_DESCRIPTORS.map((p) => ({
      platform: p.name,
      displayName: p.info.displayName,
      connect: p.info.connect ?? 'oauth',
      available: Boolean(config.platforms[p.name]) || config.sandbox,
    })),
    events: EVENT_NAMES,
    cookie: { name: session.cookieName, secure: secureCookie },
    publicUrl: d.publicUrl,
    auth: { keys: d.keys, keyLimiter, badKeyLimiter, session },
    badKeyLimiter,
  });

  const inFlight = createInFlight();
  const app = await buildApp({
    inFlight,
    log: d.log,
    version: d.version,
    publicUrl: config.publicUrl,
    keys: d.keys,
    keyLimiter,
    badKeyLimiter,
    session,
    idempotency: d.idempotency,
    metrics: d.metrics,
    ready: () => d.db.ping(),
    apiRoutes: d.serveApi,
    trustProxyHops: config.trustProxyHops,
    v1Plugins: [
      postsRoutes({ posts: d.posts }),
      postsBulkRoutes({ validate: d.validate, bulk: d.bulk }),
      postChangesRoutes({ updates: d.updates, retry: d.retry, edit: d.edit, unpublish: d.unpublish }),
      queueRoutes(d.postingQueue),
      connectRoutes(d.connect),
      accountsRoutes(d.accounts),
      webhooksRoutes({ settings: d.webhookSettings, delivery: d.webhooks, reader: d.deliveriesReader }),
      mediaRoutes({ media: d.media, maxBytes: config.media.maxBytes }),
    ],
    publicPlugins: [
      { prefix: '', plugin: dashboard },
      { prefix: '/media', plugin: publicMediaRoutes(d.publicFiles) },
      ...(d.emulators.length > 0 ? [{ prefix: '/sandbox', plugin: sandboxPlugin(d.emulators) }] : []),
    ],
  });
  return { app, inFlight, keyLimiter };
}

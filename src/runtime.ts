// The composition root: builds every dependency once from the validated configuration and wires them.
// Nothing below reads the environment; tests build a runtime with their own config and clock. The parts
// with a life of their own sit beside it in src/runtime/: where Herald is reached and each platform's app
// (platform-apps.ts), the outbound clients (outbound.ts), the HTTP app (http.ts), start and stop
// (lifecycle.ts), the media store (media-store.ts) and start-up secrets (secrets.ts).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAccountsDal } from './accounts/accounts-dal.ts';
import { createAccountsService } from './accounts/accounts-service.ts';
import { createConnectDal } from './accounts/connect-dal.ts';
import { createConnectService } from './accounts/connect-service.ts';
import { createCredentialsDal } from './accounts/credentials-dal.ts';
import { createCredentialsService, type CredentialsService } from './accounts/credentials.ts';
import type { Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createCalendarDal } from './posts/calendar-dal.ts';
import { createSessionsDal } from './sessions/sessions-dal.ts';
import { createSessionsService } from './sessions/sessions-service.ts';
import { createIdempotencyStore } from './idempotency/idempotency-store.ts';
import { createKeysDal } from './keys/keys-dal.ts';
import { createKeysService, type KeysService } from './keys/keys-service.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createSecretBox, type SecretBox } from './lib/crypto.ts';
import { createPgSignals } from './jobs/pg-signals.ts';
import { adoptPgBossJobs } from './jobs/pgboss-adopt.ts';
import { queuePolicies, type JobQueue } from './jobs/queue.ts';
import { createTableQueue } from './jobs/table-queue.ts';
import { createMediaDal, type PostMediaRow } from './media/media-dal.ts';
import { createMediaService, type MediaService } from './media/media-service.ts';
import { createProber } from './media/probe.ts';
import { originalPath } from './media/present.ts';
import { createPublicFiles } from './media/public-files.ts';
import { createMediaPreparer } from './publishing/prepare-media.ts';
import type { MediaStore } from './media/store.ts';
import { checkOutboundUrl, resolvesToPublic } from './net/address.ts';
import { createLogger } from './observability/logger.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import type { PublishTiming } from './platforms/deps.ts';
import type { PlatformDescriptor } from './platforms/descriptor.ts';
import { createPlatformHttp } from './platforms/http.ts';
import { createPlatformRegistry, type PlatformRegistry } from './platforms/registry.ts';
import { PLATFORM_DESCRIPTORS, PLATFORMS } from './platforms/registry.ts';
import { createPostsDal } from './posts/posts-dal.ts';
import { createBulkService } from './posts/bulk-service.ts';
import type { Validators } from './posts/compose.ts';
import { createPostsService } from './posts/posts-service.ts';
import { createValidateService } from './posts/validate-service.ts';
import { createUnpublishService } from './publishing/unpublish.ts';
import { createUpdateService } from './posts/update-service.ts';
import { createQueueDal } from './queue/queue-dal.ts';
import { createQueueService } from './queue/queue-service.ts';
import { createCommentRunner } from './publishing/comments.ts';
import { createEditService } from './publishing/edit.ts';
import { createEditsDal } from './publishing/edits-dal.ts';
import { createRetryService } from './publishing/retry.ts';
import { createAttemptsStore } from './publishing/attempts.ts';
import { createPublishingEngine, type PublishingEngine } from './publishing/engine.ts';
import { createLimits } from './publishing/limits.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './publishing/policy.ts';
import type { Emulator } from './sandbox/kit/emulator.ts';
import { createDeliveriesDal } from './webhooks/deliveries-dal.ts';
import { createDeliveriesReader } from './webhooks/deliveries-read.ts';
import { createWebhookDelivery, type WebhookDelivery } from './webhooks/delivery.ts';
import { createOutbox } from './webhooks/outbox.ts';
import { createWebhookSender } from './webhooks/sender.ts';
import { createSettingsDal } from './webhooks/settings-dal.ts';
import { createWebhookSettings } from './webhooks/webhooks-settings.ts';
import { createHttp } from './runtime/http.ts';
import { createLifecycle } from './runtime/lifecycle.ts';
import { openMediaStore } from './runtime/media-store.ts';
import { createOutbound } from './runtime/outbound.ts';
import { createPlatformApps } from './runtime/platform-apps.ts';
import { encryptionKey } from './runtime/secrets.ts';

export { ensureFirstKey } from './runtime/secrets.ts';

export type Role = 'api' | 'worker' | 'all';

export interface RuntimeOptions {
  role: Role;
  log?: Logger;
  clock?: Clock;
  /** Tuning that tests shorten; production uses the defaults. */
  retryPolicy?: RetryPolicy;
  leaseMs?: number;
  timing?: PublishTiming;
  /** How often the worker looks for orphaned targets. */
  sweepIntervalMs?: number;
  /** How often the worker refreshes tokens nearing expiry. */
  tokenCareIntervalMs?: number;
  queuePollMs?: number;
  version?: string;
  /** How long a webhook receiver has to answer (default 10 s, API.md section 7). */
  webhookTimeoutMs?: number;
}

export interface Runtime {
  config: Config;
  log: Logger;
  db: Db;
  app: FastifyInstance;
  keys: KeysService;
  queue: JobQueue;
  engine: PublishingEngine;
  /** Webhook delivery: the job handler, redelivery, test sends, sweep and purge. */
  webhooks: WebhookDelivery;
  metrics: Metrics;
  adapters: PlatformRegistry;
  box: SecretBox;
  credentials: CredentialsService;
  /** The media library (uploads, the public URL, retention). */
  media: MediaService;
  mediaStore: MediaStore;
  /** The built-in emulators when the sandbox is on. */
  emulators: Emulator[];
  /** Where the API listens once started. */
  url(): string;
  /** How callers reach the API (HERALD_PUBLIC_URL, else where it listens). */
  publicUrl(): string;
  /** The hourly clean-up (expired idempotency keys, OAuth states, rate-limit windows, old webhook history). */
  maintenance(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Test sends name the registry's first platform, with a post URL of its own shape. */
function sampleTarget(d: PlatformDescriptor) {
  return { platform: d.name, platformPostUrl: (id: string) => d.postUrlExample.replace('{id}', id) };
}

export async function createRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const log = options.log ?? createLogger({ level: config.logLevel });
  const clock = options.clock ?? systemClock;
  const leaseMs = options.leaseMs ?? config.publishLeaseMs;
  const policies = queuePolicies(leaseMs, config.workerConcurrency);
  const role = options.role;
  const serveApi = role !== 'worker';
  const runWorkers = role !== 'api';

  const db = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    poolSize: config.dbPoolSize,
    backgroundCheckpoints: true,
    onIdleError: (err) => log.warn({ err }, 'an idle database connection failed; the pool replaces it'),
  });
  await migrateToLatest(db);
  const adopted = await adoptPgBossJobs(db, clock.now());
  if (adopted > 0) log.info({ jobs: adopted }, 'moved waiting jobs from pg-boss into the jobs table');
  const box = createSecretBox(encryptionKey(config, log));
  const metrics = createMetrics();
  // Only processes that run jobs listen for them (one more connection each).
  const queue: JobQueue = createTableQueue({
    db: db.kysely,
    write: db.write,
    dialect: db.dialect,
    clock,
    log,
    pollMs: options.queuePollMs,
    policies,
    signals: db.dialect === 'postgres' && runWorkers ? createPgSignals({ connectionString: db.connectionString!, log }) : undefined,
  });

  const where = createPlatformApps(config, { serveApi, log });
  const { emulators, appConfig, publicUrl, sandboxOrigins } = where;
  const mediaStore = openMediaStore(config);
  const net = createOutbound(config, sandboxOrigins, mediaStore);
  const mediaDal = createMediaDal({ db: db.kysely, dialect: db.dialect, clock });
  const prober = createProber({ ffprobePath: config.media.ffprobePath, timeoutMs: 60_000, maxImagePixels: 268_402_689 });
  const timing = options.timing ?? { pollIntervalMs: 2_000, maxProcessingMs: 10 * 60_000 };
  const adapters = createPlatformRegistry((platform) => ({
    app: appConfig(platform),
    http: createPlatformHttp({
      timeoutMs: config.platformTimeoutMs,
      onCall: (call) => metrics.platformCalls.observe({ platform, status: String(call.status) }, call.durationMs / 1000),
    }),
    serverHttp: createPlatformHttp({
      timeoutMs: config.platformTimeoutMs,
      fetch: net.serverFetch.fetch,
      onCall: (call) => metrics.platformCalls.observe({ platform, status: String(call.status) }, call.durationMs / 1000),
    }),
    media: net.mediaFetcher,
    clock,
    timing,
  }));

  const outbox = createOutbox({ clock, queue });
  const connectDal = createConnectDal({ db: db.kysely });
  const credentials = createCredentialsService({
    dal: createCredentialsDal({ db: db.kysely }),
    write: db.write,
    box,
    clock,
    log,
    adapters,
    outbox,
    // Called only once requests run, when `connect` (below) exists.
    serverApp: (id) => connect.appById(id),
    // Longer than the slowest refresh call, so a live refresher never loses its lease.
    refreshLeaseMs: config.platformTimeoutMs * 2 + 5_000,
    onRefreshFailure: (platform) => metrics.tokenRefreshFailures.inc({ platform }),
  });
  const attempts = createAttemptsStore({ db: db.kysely, write: db.write, writeFrom: db.writeFrom, writeOne: db.writeOne, dialect: db.dialect, queue, outbox, leaseMs });
  const engine = createPublishingEngine({
    db: db.kysely,
    clock,
    log,
    attempts,
    limits: createLimits({ write: db.write, dialect: db.dialect }),
    adapters,
    credentials,
    metrics,
    policy: options.retryPolicy ?? DEFAULT_RETRY_POLICY,
    leaseMs,
    media: createMediaPreparer({
      dal: mediaDal,
      store: mediaStore,
      write: db.write,
      clock,
      log,
      publicBase: publicUrl,
      presignSeconds: config.media.store.kind === 's3' ? config.media.store.urlTtlSeconds : 0,
    }),
    callTimeoutMs: config.platformTimeoutMs,
  });

  const comments = createCommentRunner({
    db: db.kysely,
    write: db.write,
    writeOne: db.writeOne,
    clock,
    log,
    queue,
    adapters,
    credentials,
    policy: options.retryPolicy ?? DEFAULT_RETRY_POLICY,
    leaseMs,
  });

  const keys = createKeysService({ dal: createKeysDal({ db: db.kysely }), write: db.write, clock });
  const sessions = createSessionsService({ dal: createSessionsDal({ db: db.kysely }), write: db.write, clock, keys });
  const accountsDal = createAccountsDal({ db: db.kysely });
  const connect = createConnectService({
    dal: connectDal,
    write: db.write,
    clock,
    box,
    outbox,
    adapters,
    unavailable: new Set(PLATFORMS.filter((p) => !config.platforms[p] && !config.sandbox)),
    defaultServerUrl: (platform) => appConfig(platform).apiUrl,
    refuseServer: async (url) => {
      if (config.allowPrivateNetworks || sandboxOrigins().includes(url.origin)) return null;
      const check = checkOutboundUrl(url.toString(), false);
      if (!check.ok) return `${url.origin} ${check.message}`;
      return (await resolvesToPublic(url.hostname.replace(/^\[|\]$/g, '')))
        ? null
        : `${url.hostname} resolves to a private, loopback or reserved address (HERALD_ALLOW_PRIVATE_NETWORKS=true allows it)`;
    },
  });
  const accounts = createAccountsService({
    write: db.write,
    clock,
    log,
    dal: accountsDal,
    outbox,
    adapters,
    credentials,
    healthTimeoutMs: Math.min(10_000, config.platformTimeoutMs * 2),
    expiryWarningMs: config.expiryWarningDays * 24 * 60 * 60_000,
  });
  const idempotency = createIdempotencyStore({
    write: db.write,
    writeOne: db.writeOne,
    writeEach: db.writeEach,
    clock,
    // Renewed while the request runs: after a crash its key is free again within a lease.
    leaseMs,
    maxHoldMs: config.publishWaitMs + 60_000,
    onRenewError: (err) => log.warn({ err }, 'could not renew idempotency claims; trying again'),
  });
  const postsDal = createPostsDal({ db: db.kysely, dialect: db.dialect });
  const validators = Object.fromEntries(PLATFORM_DESCRIPTORS.map((d) => [d.name, d.validate])) as Validators;
  const postingQueue = createQueueService({ dal: createQueueDal({ db: db.kysely }), write: db.write, clock, dialect: db.dialect });
  const urlOf = (row: PostMediaRow) => `${publicUrl()}${originalPath(row)}`;
  // Creates and PATCHes record the uses in their write, which fails for a file deleted since it was read.
  const libraryReader = { getMany: mediaDal.getForPostsCached, urlOf };
  const posts = createPostsService({
    write: db.write,
    writeOne: db.writeOne,
    writeEach: db.writeEach,
    clock,
    posts: postsDal,
    accounts: accountsDal,
    outbox,
    queue,
    idempotency,
    validators,
    publisher: engine,
    publishWaitMs: config.publishWaitMs,
    slots: postingQueue,
    library: libraryReader,
    mediaUses: mediaDal,
  });
  const updates = createUpdateService({
    write: db.write,
    clock,
    posts: postsDal,
    queue,
    outbox,
    idempotency,
    service: posts,
    slots: postingQueue,
    publisher: engine,
    publishWaitMs: config.publishWaitMs,
    mediaUses: mediaDal,
  });

  const media = createMediaService({
    write: db.write,
    dialect: db.dialect,
    clock,
    log,
    dal: mediaDal,
    store: mediaStore,
    prober,
    idempotency,
    publicBase: publicUrl,
    openUrl: net.openImport,
    maxBytes: config.media.maxBytes,
    quotaBytes: config.media.quotaBytes,
    retentionDays: config.media.retentionDays,
    importTimeoutMs: config.media.importTimeoutMs,
  });

  const bulk = createBulkService({ clock, posts, idempotency, publisher: engine, queue });
  const unpublish = createUnpublishService({ write: db.write, clock, posts: postsDal, accounts: accountsDal, credentials, adapters, outbox });
  const retry = createRetryService({ write: db.write, clock, posts: postsDal, queue, engine, publishWaitMs: config.publishWaitMs, get: posts.get });
  const edit = createEditService({ write: db.write, clock, posts: postsDal, accounts: accountsDal, edits: createEditsDal(), credentials, adapters, outbox,
    // A claim outlives the slowest edit: the send and a lookup of two versions, each with its time-out.
    claimMs: config.platformTimeoutMs * 6 + 5_000,
  });

  const deliveriesDal = createDeliveriesDal({ db: db.kysely, write: db.write });
  const settingsDal = createSettingsDal({ db: db.kysely, write: db.write });
  const webhookSettings = createWebhookSettings({
    write: db.write,
    clock,
    box,
    dal: settingsDal,
    deliveries: deliveriesDal,
    allowPrivateNetworks: config.allowPrivateNetworks,
    allowLoopback: config.allowLoopback,
  });
  const webhooks = createWebhookDelivery({
    db: db.kysely,
    write: db.write,
    clock,
    log,
    queue,
    deliveries: deliveriesDal,
    settingsDal,
    settings: webhookSettings,
    // A guarded client, as for media: the address rule is checked again on every send.
    sender: createWebhookSender({ client: net.webhooks, clock, userAgent: `Herald-Webhooks/${options.version ?? '0.1.0'}`, timeoutMs: options.webhookTimeoutMs }),
    retrySchedule: config.webhookRetrySchedule,
    leaseMs: policies['deliver-webhook'].leaseMs,
    sample: sampleTarget(PLATFORM_DESCRIPTORS[0]!),
    onAttempt: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
  });
  const deliveriesReader = createDeliveriesReader({ clock, dal: deliveriesDal });

  const { app, inFlight, keyLimiter } = await createHttp({
    config,
    log,
    version: options.version ?? '0.1.0',
    db,
    serveApi,
    publicUrl,
    metrics,
    keys,
    sessions,
    idempotency,
    posts,
    validate: createValidateService({ clock, accounts: accountsDal, validators, library: { getMany: mediaDal.getForPosts, urlOf } }),
    bulk,
    updates,
    retry,
    edit,
    unpublish,
    postingQueue,
    connect,
    accounts,
    webhookSettings,
    webhooks,
    deliveriesReader,
    media,
    publicFiles: createPublicFiles({ dal: mediaDal, store: mediaStore }),
    calendar: createCalendarDal({ db: db.kysely }),
    emulators,
  });

  if (runWorkers) {
    queue.register('publish-post', ({ postId }) => engine.processPost(postId));
    queue.register('publish-target', ({ targetId }) => engine.processTarget(targetId));
    queue.register('publish-comment', ({ targetId }) => comments.process(targetId));
    queue.register('deliver-webhook', ({ deliveryId }) => webhooks.process(deliveryId));
  }

  const lifecycle = createLifecycle({
    log,
    db,
    app,
    inFlight,
    queue,
    metrics,
    serveApi,
    runWorkers,
    listen: { host: config.host, port: config.port },
    describe: () => ({ url: where.url(), role, database: db.describe, sandbox: config.sandbox }),
    listeningAt: where.listeningAt,
    mediaStore,
    emulators,
    checkFfprobe: () => prober.checkFfprobe(),
    sweepAttempts: () => Promise.all([engine.sweep(), comments.sweep()]),
    // A dead process's attempts are found within a lease and a third of one after it stopped renewing them.
    sweepIntervalMs: options.sweepIntervalMs ?? Math.min(15_000, Math.max(1_000, Math.floor(leaseMs / 3))),
    tokenCare: async () => {
      await credentials.refreshDue();
      await credentials.announceExpiring(config.expiryWarningDays * 24 * 60 * 60_000);
    },
    tokenCareIntervalMs: options.tokenCareIntervalMs ?? 10 * 60_000,
    sweepWebhooks: () => webhooks.sweep(),
    webhookSweepIntervalMs: options.sweepIntervalMs ?? 15_000,
    maintenanceParts: [
      ['idempotency purge', () => idempotency.purgeExpired()],
      ['oauth state purge', () => connect.purgeExpired()],
      // Both limiters share one table on PostgreSQL; one purge covers them.
      ['rate-limit purge', () => keyLimiter.purgeExpired()],
      ['webhook retention purge', () => webhooks.purge()],
      ['media retention purge', () => media.purgeUnused()],
      ['dashboard session purge', () => sessions.purgeExpired()],
    ],
    drainWork: (ms) => engine.drain(ms),
    closeOutbound: () => net.close(),
  });

  return {
    config,
    log,
    db,
    app,
    keys,
    queue,
    engine,
    webhooks,
    metrics,
    adapters,
    box,
    credentials,
    media,
    mediaStore,
    maintenance: lifecycle.maintenance,
    emulators,
    url: where.url,
    publicUrl,
    start: lifecycle.start,
    stop: lifecycle.stop,
  };
}

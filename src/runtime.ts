// The composition root: builds every dependency once from the validated configuration and wires them.
// Nothing below reads the environment; tests build a runtime with their own config and clock.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAccountsDal } from './accounts/accounts-dal.ts';
import { createAccountsService } from './accounts/accounts-service.ts';
import { createConnectDal } from './accounts/connect-dal.ts';
import { createConnectService } from './accounts/connect-service.ts';
import { createCredentialsDal } from './accounts/credentials-dal.ts';
import { createCredentialsService, type CredentialsService } from './accounts/credentials.ts';
import type { Config } from './config.ts';
import { ensurePrivateDir, openDatabase, type Db } from './db/database.ts';
import { exclusive } from './db/dialect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { buildApp } from './http/app.ts';
import { createInFlight } from './http/in-flight.ts';
import { accountsRoutes } from './http/routes/accounts.ts';
import { connectRoutes } from './http/routes/connect.ts';
import { webhooksRoutes } from './http/routes/webhooks.ts';
import { dashboardRoutes } from './http/routes/dashboard.ts';
import { sessionCookieName } from './http/session-guard.ts';
import { loadDashboardAssets } from './dashboard/assets.ts';
import { EVENT_NAMES } from './events/catalog.ts';
import { createCalendarDal } from './posts/calendar-dal.ts';
import { createSessionsDal } from './sessions/sessions-dal.ts';
import { createSessionsService } from './sessions/sessions-service.ts';
import { createIdempotencyStore } from './idempotency/idempotency-store.ts';
import { createRateLimiter } from './http/rate-limit.ts';
import { createKeysDal } from './keys/keys-dal.ts';
import { createKeysService, type CreatedKey, type KeysService } from './keys/keys-service.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { createSecretBox, type SecretBox } from './lib/crypto.ts';
import { createPgSignals } from './jobs/pg-signals.ts';
import { adoptPgBossJobs } from './jobs/pgboss-adopt.ts';
import { queuePolicies, type JobQueue } from './jobs/queue.ts';
import { createTableQueue } from './jobs/table-queue.ts';
import { createMediaFetcher } from './net/media-fetcher.ts';
import { createDiskStore, type DiskStore } from './media/disk-store.ts';
import { createMediaDal } from './media/media-dal.ts';
import { createMediaService, type MediaService } from './media/media-service.ts';
import { createProber } from './media/probe.ts';
import { originalPath } from './media/present.ts';
import { createPublicFiles } from './media/public-files.ts';
import { createMediaPreparer } from './media/publish-media.ts';
import { createS3Store } from './media/s3-store.ts';
import type { MediaStore } from './media/store.ts';
import type { MediaRow } from './db/schema.ts';
import { mediaRoutes } from './http/routes/media.ts';
import { publicMediaRoutes } from './http/routes/media-public.ts';
import { createOutboundClient } from './net/outbound.ts';
import { createServerFetch } from './net/server-fetch.ts';
import { checkOutboundUrl, resolvesToPublic } from './net/address.ts';
import { createLogger } from './observability/logger.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import type { PlatformAppConfig, PublishTiming } from './platforms/deps.ts';
import type { PlatformDescriptor } from './platforms/descriptor.ts';
import { createPlatformHttp } from './platforms/http.ts';
import { createPlatformRegistry, type PlatformRegistry } from './platforms/registry.ts';
import { PLATFORM_DESCRIPTORS, PLATFORMS, descriptorOf, type Platform } from './platforms/registry.ts';
import { createPostsDal } from './posts/posts-dal.ts';
import { createBulkService } from './posts/bulk-service.ts';
import type { Validators } from './posts/compose.ts';
import { createPostsService } from './posts/posts-service.ts';
import { createValidateService } from './posts/validate-service.ts';
import { createUnpublishService } from './publishing/unpublish.ts';
import { postsRoutes } from './http/routes/posts.ts';
import { postsBulkRoutes } from './http/routes/posts-bulk.ts';
import { postChangesRoutes } from './http/routes/posts-changes.ts';
import { queueRoutes } from './http/routes/queue.ts';
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
import { closeEmulators, createEmulators, sandboxPlugin } from './sandbox/index.ts';
import { SANDBOX_APP, type Emulator } from './sandbox/kit/emulator.ts';
import { createDeliveriesDal } from './webhooks/deliveries-dal.ts';
import { createDeliveriesReader } from './webhooks/deliveries-read.ts';
import { createWebhookDelivery, type WebhookDelivery } from './webhooks/delivery.ts';
import { createOutbox } from './webhooks/outbox.ts';
import { createWebhookSender } from './webhooks/sender.ts';
import { createSettingsDal } from './webhooks/settings-dal.ts';
import { createWebhookSettings } from './webhooks/webhooks-settings.ts';

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

/** The encryption key: from the configuration, or (embedded only) a key file generated on first start. */
function encryptionKey(config: Config, log: Logger): Buffer {
  if (config.encryptionKey) return config.encryptionKey;
  const file = join(config.dataDir, 'encryption.key');
  if (existsSync(file)) {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600); // left readable by an older Herald
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  ensurePrivateDir(config.dataDir);
  const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32)));
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  log.info({ file }, 'generated the token encryption key; back it up with the database');
  return key;
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

  // Platforms without credentials are served by the built-in emulators when the sandbox is on. Their
  // URLs depend on where Herald listens, so they are read when used, not fixed here.
  let listeningUrl = `http://127.0.0.1:${config.port}`;
  const publicUrl = () => (config.publicUrlIsDefault ? listeningUrl : config.publicUrl);
  // Built in, the sandbox keeps its state (accounts, tokens, posts, uploads) in the data directory, so a
  // restart does not break a walk-through. `herald sandbox` and the tests' own emulators stay in memory.
  const emulators =
    config.sandbox && serveApi
      ? createEmulators({
          // The emulators download Herald's own media from where Herald is reached, as the platforms would.
          mediaOrigins: () => sandboxOrigins(),
          persistence: {
            dir: join(config.dataDir, 'sandbox'),
            onError: (err, file) => log.warn({ err, file }, 'the sandbox could not read or write its state file; it goes on in memory'),
          },
        })
      : [];
  const appConfig = (platform: Platform): PlatformAppConfig => {
    const real = config.platforms[platform];
    const { app, sandbox } = descriptorOf(platform);
    if (real && (real.explicit || !config.sandbox)) return real;
    const root = () => `/sandbox/${sandbox.mount}`;
    return {
      clientId: SANDBOX_APP.clientId,
      clientSecret: SANDBOX_APP.clientSecret,
      apiVersion: real?.apiVersion ?? app.version?.default ?? '',
      // The emulators live in the API process: a worker reaches them through the public URL.
      get apiUrl() {
        return `${serveApi ? listeningUrl : publicUrl()}${root()}`;
      },
      get tokenUrl() {
        return this.apiUrl;
      },
      get authUrl() {
        return sandbox.authPath ? `${publicUrl()}${root()}${sandbox.authPath}` : '';
      },
    };
  };

  // The sandbox's own files and emulators live on loopback; they are the one private origin user-named
  // URLs (media, servers) may reach without HERALD_ALLOW_PRIVATE_NETWORKS.
  const sandboxOrigins = () => (config.sandbox ? [new URL(listeningUrl).origin, new URL(publicUrl()).origin] : []);
  const outbound = createOutboundClient({ allowPrivateNetworks: config.allowPrivateNetworks, userAgent: 'Herald (+https://github.com/herald)' });
  // Webhook receivers may also be on this machine's loopback when allowLoopback (the sandbox default).
  const webhookOutbound = config.allowLoopback && !config.allowPrivateNetworks
    ? createOutboundClient({ allowPrivateNetworks: false, allowLoopback: true, userAgent: 'Herald (+https://github.com/herald)' })
    : outbound;
  const trustedOutbound = createOutboundClient({ allowPrivateNetworks: true, userAgent: 'Herald' });
  const mediaFetcher = createMediaFetcher(outbound, {
    timeoutMs: 60_000,
    // The sandbox's own sample files live on loopback; they are the one private origin media may use.
    trusted: config.sandbox ? { origins: sandboxOrigins, client: trustedOutbound } : undefined,
  });
  const mediaStore = openMediaStore(config);
  const mediaDal = createMediaDal({ db: db.kysely });
  const prober = createProber({ ffprobePath: config.media.ffprobePath, timeoutMs: 60_000, maxImagePixels: 268_402_689 });
  const timing = options.timing ?? { pollIntervalMs: 2_000, maxProcessingMs: 10 * 60_000 };
  const serverFetch = createServerFetch({ allowPrivateNetworks: config.allowPrivateNetworks, trustedOrigins: sandboxOrigins });
  const adapters = createPlatformRegistry((platform) => ({
    app: appConfig(platform),
    http: createPlatformHttp({
      timeoutMs: config.platformTimeoutMs,
      onCall: (call) => metrics.platformCalls.observe({ platform, status: String(call.status) }, call.durationMs / 1000),
    }),
    serverHttp: createPlatformHttp({
      timeoutMs: config.platformTimeoutMs,
      fetch: serverFetch.fetch,
      onCall: (call) => metrics.platformCalls.observe({ platform, status: String(call.status) }, call.durationMs / 1000),
    }),
    media: mediaFetcher,
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
  const attempts = createAttemptsStore({ db: db.kysely, write: db.write, writeOne: db.writeOne, dialect: db.dialect, queue, outbox, leaseMs });
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
  const libraryReader = { getMany: mediaDal.getMany, urlOf: (row: MediaRow) => `${publicUrl()}${originalPath(row)}` };
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
    openUrl: async (url) => {
      const timeoutMs = config.media.importTimeoutMs;
      let origin: string | null = null;
      try {
        origin = new URL(url).origin;
      } catch {
        origin = null;
      }
      if (origin === null || !sandboxOrigins().includes(origin)) return outbound.open({ method: 'GET', url, timeoutMs, maxRedirects: 3 });
      // The sandbox's own files live on loopback (the one private origin allowed, like the media fetcher's);
      // a redirect from there is followed by the guarded client, so the trust stays with that origin.
      const res = await trustedOutbound.open({ method: 'GET', url, timeoutMs, maxRedirects: 0 });
      const location = res.ok && res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!res.ok || !location) return res;
      await res.body?.cancel().catch(() => {});
      return outbound.open({ method: 'GET', url: new URL(location, url).toString(), timeoutMs, maxRedirects: 2 });
    },
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
    sender: createWebhookSender({ client: webhookOutbound, clock, userAgent: `Herald-Webhooks/${options.version ?? '0.1.0'}`, timeoutMs: options.webhookTimeoutMs }),
    retrySchedule: config.webhookRetrySchedule,
    leaseMs: policies['deliver-webhook'].leaseMs,
    sample: sampleTarget(PLATFORM_DESCRIPTORS[0]!),
    onAttempt: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
  });
  const deliveriesReader = createDeliveriesReader({ clock, dal: deliveriesDal });

  const keyLimiter = await createRateLimiter({ points: config.rateLimitPerMinute, durationSeconds: 60, keyPrefix: 'key', pgPool: db.pgPool });
  const badKeyLimiter = await createRateLimiter({ points: config.authFailuresPerMinute, durationSeconds: 60, keyPrefix: 'badkey', pgPool: db.pgPool });

  const secureCookie = new URL(config.publicUrl).protocol === 'https:';
  const session = { sessions, cookieName: sessionCookieName(secureCookie), publicUrl };
  const dashboard = dashboardRoutes({
    assets: loadDashboardAssets(),
    sessions,
    calendar: createCalendarDal({ db: db.kysely }),
    platforms: PLATFORM_DESCRIPTORS.map((d) => ({
      platform: d.name,
      displayName: d.info.displayName,
      connect: d.info.connect ?? 'oauth',
      available: Boolean(config.platforms[d.name]) || config.sandbox,
    })),
    events: EVENT_NAMES,
    cookie: { name: session.cookieName, secure: secureCookie },
    publicUrl,
    auth: { keys, keyLimiter, badKeyLimiter, session },
    badKeyLimiter,
  });

  const inFlight = createInFlight();
  const app = await buildApp({
    inFlight,
    log,
    version: options.version ?? '0.1.0',
    publicUrl: config.publicUrl,
    keys,
    keyLimiter,
    badKeyLimiter,
    session,
    idempotency,
    metrics,
    ready: () => db.ping(),
    apiRoutes: serveApi,
    trustProxyHops: config.trustProxyHops,
    v1Plugins: [
      postsRoutes({ posts }),
      postsBulkRoutes({ validate: createValidateService({ clock, accounts: accountsDal, validators, library: libraryReader }), bulk }),
      postChangesRoutes({ updates, retry, edit, unpublish }),
      queueRoutes(postingQueue),
      connectRoutes(connect),
      accountsRoutes(accounts),
      webhooksRoutes({ settings: webhookSettings, delivery: webhooks, reader: deliveriesReader }),
      mediaRoutes({ media, maxBytes: config.media.maxBytes }),
    ],
    publicPlugins: [
      { prefix: '', plugin: dashboard },
      { prefix: '/media', plugin: publicMediaRoutes(createPublicFiles({ dal: mediaDal, store: mediaStore })) },
      ...(emulators.length > 0 ? [{ prefix: '/sandbox', plugin: sandboxPlugin(emulators) }] : []),
    ],
  });

  if (runWorkers) {
    queue.register('publish-post', ({ postId }) => engine.processPost(postId));
    queue.register('publish-target', ({ targetId }) => engine.processTarget(targetId));
    queue.register('publish-comment', ({ targetId }) => comments.process(targetId));
    queue.register('deliver-webhook', ({ deliveryId }) => webhooks.process(deliveryId));
  }

  /** Hourly on workers: drops what can no longer be used. Each part runs even when another fails. */
  const maintenance = async (): Promise<void> => {
    const parts: [string, () => Promise<unknown>][] = [
      ['idempotency purge', () => idempotency.purgeExpired()],
      ['oauth state purge', () => connect.purgeExpired()],
      // Both limiters share one table on PostgreSQL; one purge covers them.
      ['rate-limit purge', () => keyLimiter.purgeExpired()],
      ['webhook retention purge', () => webhooks.purge()],
      ['media retention purge', () => media.purgeUnused()],
      ['dashboard session purge', () => sessions.purgeExpired()],
    ];
    for (const [what, run] of parts) await run().catch((err: unknown) => log.error({ err }, `${what} failed`));
  };

  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, task: () => Promise<unknown>, what: string) => {
    const t = setInterval(() => void task().catch((err: unknown) => log.error({ err }, `${what} failed`)), ms);
    t.unref();
    timers.push(t);
  };

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
    maintenance,
    emulators,
    url: () => listeningUrl,
    publicUrl,
    async start() {
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      if (address && typeof address === 'object') {
        const host = address.family === 'IPv6' ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
        listeningUrl = `http://${host}:${address.port}`;
      }
      // Temporary files of uploads a crash cut short (older than an hour: no live upload is that slow to start).
      if (mediaStore.kind === 'disk') {
        void (mediaStore as DiskStore).removeStaleTemporaries(60 * 60_000).catch((err: unknown) => log.warn({ err }, 'sweeping stale media uploads failed'));
      }
      // Without ffprobe every video upload answers 503 MEDIA_PROBE_UNAVAILABLE: say so now, not at the first one.
      if (serveApi) {
        void prober.checkFfprobe().then((found) => {
          if (!found.ok) log.warn({ setting: 'HERALD_FFPROBE_PATH', reason: found.message }, 'ffprobe cannot be run: video uploads and imports will answer 503 MEDIA_PROBE_UNAVAILABLE until it can');
        });
      }
      if (runWorkers) {
        await queue.start();
        const sweep = () => Promise.all([engine.sweep(), comments.sweep()]);
        await sweep();
        // A dead process's attempts are found within a lease and a third of one after it stopped renewing them.
        every(options.sweepIntervalMs ?? Math.min(15_000, Math.max(1_000, Math.floor(leaseMs / 3))), sweep, 'recovery sweep');
        const tokenCare = async () => {
          await credentials.refreshDue();
          await credentials.announceExpiring(config.expiryWarningDays * 24 * 60 * 60_000);
        };
        every(options.tokenCareIntervalMs ?? 10 * 60_000, tokenCare, 'token care');
        await webhooks.sweep();
        every(options.sweepIntervalMs ?? 15_000, () => webhooks.sweep(), 'webhook sweep');
        void maintenance();
        every(60 * 60_000, maintenance, 'maintenance');
      }
      every(15_000, async () => {
        const depth = await queue.depth();
        for (const [name, n] of Object.entries(depth)) metrics.queueDepth.set({ queue: name }, n);
      }, 'queue depth');
      log.info({ url: listeningUrl, role, database: db.describe, sandbox: config.sandbox }, 'Herald is running');
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      // Stop accepting, let in-flight requests finish, then the work in hand, then the database. Each
      // step runs even when an earlier one fails (a database already gone must not keep the process up).
      const steps: [string, () => Promise<unknown>][] = [
        ['http', () => app.close()],
        // Handlers whose clients left are still running: the database stays until they answer.
        ['requests', () => inFlight.drain(10_000)],
        // No request reaches the emulators any more: what they hold is final.
        ['sandbox state', () => closeEmulators(emulators)],
        ['publishing', () => engine.drain(10_000)],
        ['queue', () => queue.stop()],
        ['outbound', () => Promise.all([...[...new Set([outbound, webhookOutbound, trustedOutbound])].map((c) => c.close()), serverFetch.close()])],
        ['media store', async () => {
          if (mediaStore.kind === 's3') (mediaStore as ReturnType<typeof createS3Store>).close();
        }],
        ['database', () => db.close()],
      ];
      for (const [what, step] of steps) {
        await step().catch((err: unknown) => log.warn({ err }, `stopping ${what} failed`));
      }
    },
  };
}

/** The media store the configuration names (API.md section 10). */
function openMediaStore(config: Config): MediaStore {
  const s = config.media.store;
  if (s.kind === 'disk') {
    mkdirSync(s.root, { recursive: true, mode: 0o700 });
    return createDiskStore({ root: s.root });
  }
  return createS3Store({
    bucket: s.bucket,
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    forcePathStyle: s.forcePathStyle,
    tmpDir: tmpdir(),
    connectTimeoutMs: Math.min(5_000, s.timeoutMs),
    requestTimeoutMs: s.timeoutMs,
  });
}

/**
 * On the very first start of an empty database one key is created, so the service is usable at once;
 * one only, even when several API processes start together.
 */
export async function ensureFirstKey(db: Db, keys: KeysService): Promise<CreatedKey | null> {
  return db.write(async (trx) => {
    await exclusive(db.dialect, trx, 'herald:first-key');
    if ((await keys.count(trx)) > 0) return null;
    return keys.create('default', trx);
  });
}

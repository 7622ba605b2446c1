// Configuration is read from the environment once, at start-up, validated, and passed down.
// A wrong value stops start-up with a message naming the setting (API.md section 8).
import type { AppSettingsSpec } from './platforms/descriptor.ts';
import { PLATFORM_DESCRIPTORS, type Platform } from './platforms/registry.ts';

/** One platform's app settings, read from the names its descriptor gives (descriptor.app). */
export interface PlatformSettings {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  /** '' for platforms with no consent page. */
  authUrl: string;
  /** Where tokens are exchanged, refreshed and revoked; apiUrl when the platform has no separate host. */
  tokenUrl: string;
  /** The pinned API version ('' when the platform has none). */
  apiVersion: string;
  /** False when nothing of it was set: a platform that needs no app then follows the sandbox. */
  explicit: boolean;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Base64 of 32 bytes, or null to use (or create) the key file in the data dir (embedded only). */
  encryptionKey: Buffer | null;
  publicUrl: string;
  /** True when HERALD_PUBLIC_URL was not set: the public URL then follows where the server listens. */
  publicUrlIsDefault: boolean;
  sandbox: boolean;
  /** Credentials and endpoints per platform; null when its app is not configured (sandbox or unavailable). */
  platforms: Record<Platform, PlatformSettings | null>;
  allowPrivateNetworks: boolean;
  /**
   * Webhook receivers on this machine's loopback addresses are allowed (private ranges are not): on by
   * default in the sandbox, where a local receiver is the usual first test. HERALD_ALLOW_PRIVATE_NETWORKS
   * decides when set (true: all private addresses; false: none, in the sandbox too).
   */
  allowLoopback: boolean;
  publishWaitMs: number;
  rateLimitPerMinute: number;
  /** Trust X-Forwarded-For from this many proxies in front (for per-address limits); 0: none. */
  trustProxyHops: number;
  /** Requests with a bad key allowed per client address per minute. */
  authFailuresPerMinute: number;
  /** Seconds between webhook delivery attempts. */
  webhookRetrySchedule: number[];
  logLevel: string;
  /** Time-out of a single platform call. */
  platformTimeoutMs: number;
  /**
   * How long a publish attempt owns its target without a heartbeat: after a crash, the work it held is
   * reconciled and resumed once this has passed.
   */
  publishLeaseMs: number;
  /** Jobs of each publishing queue and webhook deliveries one process runs at once. */
  workerConcurrency: number;
  /** PostgreSQL: connections each process keeps for queries (a worker adds one that listens for jobs). */
  dbPoolSize: number;
  /** account.expiring and the health warning come this long before a token that cannot be renewed ends. */
  expiryWarningDays: number;
  /** The media library (API.md section 10). */
  media: MediaSettings;
}

/** Where library media lives: a folder on this machine, or an S3 bucket that every process shares. */
export type MediaStoreSettings =
  | { kind: 'disk'; root: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | null;
      /** Both null: the AWS SDK's default chain (environment, instance role). */
      accessKeyId: string | null;
      secretAccessKey: string | null;
      forcePathStyle: boolean;
      /** How long a presigned GET minted for a publishing target stays valid. */
      urlTtlSeconds: number;
      /** How long an S3 request may stay silent (no byte either way) before it counts as failed. */
      timeoutMs: number;
    };

export interface MediaSettings {
  store: MediaStoreSettings;
  /** Largest upload or import, in bytes. */
  maxBytes: number;
  /** Media no post has used for this many days is deleted with its renditions. */
  retentionDays: number;
  /** Bytes one API key may store (originals and renditions). */
  quotaBytes: number;
  /** ffprobe's path or name on PATH. */
  ffprobePath: string;
  /** An import (POST /v1/media/import) must have its whole file within this time. */
  importTimeoutMs: number;
}

export class ConfigError extends Error {
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
    this.setting = setting;
  }
}

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 30, 120, 600, 1800, 3600, 10800, 21600, 43200, 86400];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string): boolean | undefined {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return undefined;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** Base URLs lose a trailing slash (paths are appended); full URLs such as consent pages keep theirs. */
function httpUrl(env: Env, name: string, fallback: string, kind: 'base' | 'full' = 'base'): string {
  const raw = str(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, `must use http or https, got "${raw}"`);
  return kind === 'base' ? raw.replace(/\/+$/, '') : raw;
}

function encryptionKey(env: Env): Buffer | null {
  const raw = str(env, 'HERALD_ENCRYPTION_KEY');
  if (raw === undefined) return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/_-]+=*$/.test(raw)) {
    throw new ConfigError('HERALD_ENCRYPTION_KEY', 'must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)');
  }
  return key;
}

function retrySchedule(env: Env): number[] {
  const raw = str(env, 'HERALD_WEBHOOK_RETRY_SCHEDULE');
  if (raw === undefined) return DEFAULT_WEBHOOK_RETRY_SCHEDULE;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) {
    throw new ConfigError('HERALD_WEBHOOK_RETRY_SCHEDULE', `must be comma-separated seconds such as "5,30,120", got "${raw}"`);
  }
  return parts.map(Number);
}

/**
 * A platform's settings by the names its descriptor gives. A platform that needs app credentials and
 * has none is null: the sandbox serves it, or it is unavailable (its connect routes say so).
 */
function platformSettings(env: Env, app: AppSettingsSpec): PlatformSettings | null {
  const urlSettings = [app.apiUrl, app.authUrl, app.tokenUrl].filter((u) => u !== undefined);
  // Checked whether or not the app is configured, so a typo is caught before it matters.
  let apiVersion = '';
  if (app.version) {
    apiVersion = str(env, app.version.setting) ?? app.version.default;
    if (!app.version.pattern.test(apiVersion)) {
      throw new ConfigError(app.version.setting, `must look like ${app.version.example}, got "${apiVersion}"`);
    }
  }
  let clientId = '';
  let clientSecret = '';
  if (app.credentials) {
    const { id: idName, secret: secretName } = app.credentials;
    const id = str(env, idName);
    const secret = str(env, secretName);
    if (id && !secret) throw new ConfigError(secretName, `is required when ${idName} is set`);
    if (secret && !id) throw new ConfigError(idName, `is required when ${secretName} is set`);
    if (!id || !secret) return null;
    clientId = id;
    clientSecret = secret;
  }
  const apiUrl = httpUrl(env, app.apiUrl.setting, app.apiUrl.default, app.apiUrl.kind);
  return {
    clientId,
    clientSecret,
    apiUrl,
    authUrl: app.authUrl ? httpUrl(env, app.authUrl.setting, app.authUrl.default, app.authUrl.kind) : '',
    tokenUrl: app.tokenUrl ? httpUrl(env, app.tokenUrl.setting, app.tokenUrl.default, app.tokenUrl.kind) : apiUrl,
    apiVersion,
    explicit: Boolean(app.credentials) || urlSettings.some((u) => str(env, u.setting) !== undefined),
  };
}

const GIB = 1024 * 1024 * 1024;

function mediaSettings(env: Env, dataDir: string): MediaSettings {
  const kind = (str(env, 'HERALD_MEDIA_STORE') ?? 'disk').toLowerCase();
  let store: MediaStoreSettings;
  if (kind === 'disk') {
    store = { kind: 'disk', root: `${dataDir.replace(/\/+$/, '')}/media` };
  } else if (kind === 's3') {
    const bucket = str(env, 'HERALD_S3_BUCKET');
    if (!bucket) throw new ConfigError('HERALD_S3_BUCKET', 'is required with HERALD_MEDIA_STORE=s3');
    const accessKeyId = str(env, 'HERALD_S3_ACCESS_KEY_ID') ?? null;
    const secretAccessKey = str(env, 'HERALD_S3_SECRET_ACCESS_KEY') ?? null;
    if (accessKeyId && !secretAccessKey) throw new ConfigError('HERALD_S3_SECRET_ACCESS_KEY', 'is required when HERALD_S3_ACCESS_KEY_ID is set');
    if (secretAccessKey && !accessKeyId) throw new ConfigError('HERALD_S3_ACCESS_KEY_ID', 'is required when HERALD_S3_SECRET_ACCESS_KEY is set');
    store = {
      kind: 's3',
      bucket,
      region: str(env, 'HERALD_S3_REGION') ?? 'us-east-1',
      endpoint: str(env, 'HERALD_S3_ENDPOINT') === undefined ? null : httpUrl(env, 'HERALD_S3_ENDPOINT', ''),
      accessKeyId,
      secretAccessKey,
      forcePathStyle: bool(env, 'HERALD_S3_FORCE_PATH_STYLE') ?? false,
      // SigV4 presigned URLs live at most 7 days.
      urlTtlSeconds: int(env, 'HERALD_S3_URL_TTL_SECONDS', 6 * 3600, 60, 7 * 24 * 3600),
      // A store that stops answering costs each request up to three of these (the SDK tries three times)
      // before the client gets 503: 20 s keeps that within a load balancer's usual minute.
      timeoutMs: int(env, 'HERALD_S3_TIMEOUT_MS', 20_000, 100, 600_000),
    };
  } else {
    throw new ConfigError('HERALD_MEDIA_STORE', `must be disk or s3, got "${kind}"`);
  }
  return {
    store,
    maxBytes: int(env, 'HERALD_MEDIA_MAX_BYTES', GIB, 1, 64 * GIB),
    retentionDays: int(env, 'HERALD_MEDIA_RETENTION_DAYS', 30, 1, 36_500),
    quotaBytes: int(env, 'HERALD_MEDIA_QUOTA_BYTES', 10 * GIB, 1, Number.MAX_SAFE_INTEGER),
    ffprobePath: str(env, 'HERALD_FFPROBE_PATH') ?? 'ffprobe',
    importTimeoutMs: int(env, 'HERALD_MEDIA_IMPORT_TIMEOUT_MS', 10 * 60_000, 100, 24 * 3_600_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';
  const databaseUrl = str(env, 'DATABASE_URL') ?? null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  const key = encryptionKey(env);
  if (databaseUrl && !key) {
    throw new ConfigError('HERALD_ENCRYPTION_KEY', 'is required with PostgreSQL (32 random bytes in base64, the same on every process)');
  }
  // Listening on every interface is not an address anyone can use: default to loopback then.
  const reachableHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const publicUrl = httpUrl(env, 'HERALD_PUBLIC_URL', `http://${reachableHost}:${port}`);

  const platforms = {} as Record<Platform, PlatformSettings | null>;
  for (const d of PLATFORM_DESCRIPTORS) platforms[d.name] = platformSettings(env, d.app);
  const sandbox = bool(env, 'HERALD_SANDBOX') ?? !PLATFORM_DESCRIPTORS.some((d) => d.app.credentials && platforms[d.name]);

  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  const dataDir = str(env, 'HERALD_DATA_DIR') ?? './.herald';
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    encryptionKey: key,
    publicUrl,
    publicUrlIsDefault: str(env, 'HERALD_PUBLIC_URL') === undefined,
    sandbox,
    platforms,
    allowPrivateNetworks: bool(env, 'HERALD_ALLOW_PRIVATE_NETWORKS') ?? false,
    allowLoopback: bool(env, 'HERALD_ALLOW_PRIVATE_NETWORKS') ?? sandbox,
    publishWaitMs: int(env, 'HERALD_PUBLISH_WAIT_MS', 30_000, 0, 300_000),
    rateLimitPerMinute: int(env, 'HERALD_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    authFailuresPerMinute: int(env, 'HERALD_AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    trustProxyHops: int(env, 'HERALD_TRUST_PROXY_HOPS', 0, 0, 10),
    webhookRetrySchedule: retrySchedule(env),
    logLevel,
    platformTimeoutMs: int(env, 'HERALD_PLATFORM_TIMEOUT_MS', 30_000, 100, 600_000),
    publishLeaseMs: int(env, 'HERALD_PUBLISH_LEASE_MS', 10_000, 1_000, 3_600_000),
    workerConcurrency: int(env, 'HERALD_WORKER_CONCURRENCY', 64, 1, 10_000),
    dbPoolSize: int(env, 'HERALD_DB_POOL_SIZE', 10, 1, 1_000),
    expiryWarningDays: int(env, 'HERALD_EXPIRY_WARNING_DAYS', 7, 1, 60),
    media: mediaSettings(env, dataDir),
  };
}

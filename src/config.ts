// Configuration is read from the environment once, at start-up, validated, and passed down.
// A wrong value stops start-up with a message naming the setting (API.md section 8).
import { PLATFORMS, type Platform } from './platforms/types.ts';

export interface PlatformSettings {
  clientId: string;
  clientSecret: string;
  apiUrl: string;
  authUrl: string;
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
  /** Credentials and endpoints per platform; null when neither configured nor sandboxed. */
  platforms: Record<Platform, PlatformSettings | null>;
  graphApiVersion: string;
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

/** Real endpoints, used unless a *_API_URL / *_AUTH_URL setting says otherwise. */
interface PlatformEnv {
  prefix: string;
  id: string;
  secret: string;
  apiVar: string;
  apiUrl: string;
  authUrl: string;
}
const META: PlatformEnv = {
  prefix: 'HERALD_FACEBOOK',
  id: 'APP_ID',
  secret: 'APP_SECRET',
  apiVar: 'GRAPH_URL',
  apiUrl: 'https://graph.facebook.com',
  authUrl: 'https://www.facebook.com/dialog/oauth',
};
const PLATFORM_ENV: Record<Platform, PlatformEnv> = {
  twitter: { prefix: 'HERALD_TWITTER', id: 'CLIENT_ID', secret: 'CLIENT_SECRET', apiVar: 'API_URL', apiUrl: 'https://api.x.com', authUrl: 'https://x.com/i/oauth2/authorize' },
  facebook: META,
  // Instagram connects through Facebook Login: same Meta app, same endpoints.
  instagram: META,
  threads: { prefix: 'HERALD_THREADS', id: 'APP_ID', secret: 'APP_SECRET', apiVar: 'API_URL', apiUrl: 'https://graph.threads.net', authUrl: 'https://threads.net/oauth/authorize' },
  tiktok: { prefix: 'HERALD_TIKTOK', id: 'CLIENT_KEY', secret: 'CLIENT_SECRET', apiVar: 'API_URL', apiUrl: 'https://open.tiktokapis.com', authUrl: 'https://www.tiktok.com/v2/auth/authorize/' },
};

/** Where each platform's emulator lives below the sandbox root, and its consent page path. */
export const SANDBOX_ROUTES: Record<Platform, { emulator: string; authPath: string }> = {
  twitter: { emulator: 'twitter', authPath: '/i/oauth2/authorize' },
  facebook: { emulator: 'meta', authPath: '/dialog/oauth' },
  instagram: { emulator: 'meta', authPath: '/dialog/oauth' },
  threads: { emulator: 'threads', authPath: '/oauth/authorize' },
  tiktok: { emulator: 'tiktok', authPath: '/v2/auth/authorize/' },
};

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

  const configured = new Map<Platform, { clientId: string; clientSecret: string }>();
  for (const platform of PLATFORMS) {
    const e = PLATFORM_ENV[platform];
    const id = str(env, `${e.prefix}_${e.id}`);
    const secret = str(env, `${e.prefix}_${e.secret}`);
    if (id && !secret) throw new ConfigError(`${e.prefix}_${e.secret}`, `is required when ${e.prefix}_${e.id} is set`);
    if (secret && !id) throw new ConfigError(`${e.prefix}_${e.id}`, `is required when ${e.prefix}_${e.secret} is set`);
    if (id && secret) configured.set(platform, { clientId: id, clientSecret: secret });
  }
  const sandbox = bool(env, 'HERALD_SANDBOX') ?? configured.size === 0;

  const platforms = {} as Record<Platform, PlatformSettings | null>;
  for (const platform of PLATFORMS) {
    const e = PLATFORM_ENV[platform];
    const creds = configured.get(platform);
    if (creds) {
      platforms[platform] = {
        ...creds,
        apiUrl: httpUrl(env, `${e.prefix}_${e.apiVar}`, e.apiUrl),
        authUrl: httpUrl(env, `${e.prefix}_AUTH_URL`, e.authUrl, 'full'),
      };
    } else {
      // Without credentials a platform is served by its built-in emulator when the sandbox is on
      // (the runtime fills it in, since emulator URLs depend on where Herald listens), else unavailable.
      platforms[platform] = null;
    }
  }

  const graphApiVersion = str(env, 'HERALD_GRAPH_API_VERSION') ?? 'v25.0';
  if (!/^v\d+\.\d+$/.test(graphApiVersion)) {
    throw new ConfigError('HERALD_GRAPH_API_VERSION', `must look like v25.0, got "${graphApiVersion}"`);
  }
  const logLevel = (str(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  return {
    port,
    host,
    dataDir: str(env, 'HERALD_DATA_DIR') ?? './.herald',
    databaseUrl,
    encryptionKey: key,
    publicUrl,
    publicUrlIsDefault: str(env, 'HERALD_PUBLIC_URL') === undefined,
    sandbox,
    platforms,
    graphApiVersion,
    allowPrivateNetworks: bool(env, 'HERALD_ALLOW_PRIVATE_NETWORKS') ?? false,
    allowLoopback: bool(env, 'HERALD_ALLOW_PRIVATE_NETWORKS') ?? sandbox,
    publishWaitMs: int(env, 'HERALD_PUBLISH_WAIT_MS', 30_000, 0, 300_000),
    rateLimitPerMinute: int(env, 'HERALD_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
    authFailuresPerMinute: int(env, 'HERALD_AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000),
    trustProxyHops: int(env, 'HERALD_TRUST_PROXY_HOPS', 0, 0, 10),
    webhookRetrySchedule: retrySchedule(env),
    logLevel,
    platformTimeoutMs: int(env, 'HERALD_PLATFORM_TIMEOUT_MS', 30_000, 100, 600_000),
    publishLeaseMs: int(env, 'HERALD_PUBLISH_LEASE_MS', 60_000, 1_000, 3_600_000),
  };
}

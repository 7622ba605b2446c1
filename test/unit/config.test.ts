import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { PLATFORM_DESCRIPTORS } from '../../src/platforms/registry.ts';

const key = Buffer.alloc(32, 7).toString('base64');

test('defaults: embedded database, sandbox on, loopback', () => {
  const c = loadConfig({});
  assert.equal(c.port, 3000);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.dataDir, './.herald');
  assert.equal(c.databaseUrl, null);
  assert.equal(c.sandbox, true);
  assert.equal(c.publicUrl, 'http://127.0.0.1:3000');
  assert.equal(c.publicUrlIsDefault, true);
  assert.equal(c.publishWaitMs, 30_000);
  assert.equal(c.rateLimitPerMinute, 600);
  assert.equal(c.allowPrivateNetworks, false);
  assert.deepEqual(c.webhookRetrySchedule, [5, 30, 120, 600, 1800, 3600, 10800, 21600, 43200, 86400]);
  // Platforms that need app credentials have none yet; those without an app of Herald's (per-server
  // registration, app passwords) have their default URLs.
  for (const d of PLATFORM_DESCRIPTORS) assert.equal(c.platforms[d.name] === null, Boolean(d.app.credentials), d.name);
});

test('listening on every interface still gives a usable public URL', () => {
  assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl, 'http://127.0.0.1:8080');
  assert.equal(loadConfig({ HOST: '::' }).publicUrl, 'http://[::1]:3000');
  assert.equal(loadConfig({ HERALD_PUBLIC_URL: 'https://herald.example.com/' }).publicUrl, 'https://herald.example.com');
});

test('platform credentials switch a platform to the real API and the sandbox off', () => {
  const c = loadConfig({ HERALD_TWITTER_CLIENT_ID: 'id', HERALD_TWITTER_CLIENT_SECRET: 'secret' });
  assert.equal(c.sandbox, false);
  assert.deepEqual(c.platforms.twitter, {
    clientId: 'id',
    clientSecret: 'secret',
    apiUrl: 'https://api.x.com',
    authUrl: 'https://x.com/i/oauth2/authorize',
    tokenUrl: 'https://api.x.com',
    apiVersion: '',
    explicit: true,
  });
  assert.equal(c.platforms.facebook, null);
  const meta = loadConfig({ HERALD_FACEBOOK_APP_ID: 'a', HERALD_FACEBOOK_APP_SECRET: 'b', HERALD_FACEBOOK_GRAPH_URL: 'http://127.0.0.1:9/meta/' });
  assert.equal(meta.platforms.instagram?.apiUrl, 'http://127.0.0.1:9/meta', 'Instagram rides on the Facebook app');
  const tiktok = loadConfig({ HERALD_TIKTOK_CLIENT_KEY: 'k', HERALD_TIKTOK_CLIENT_SECRET: 's' });
  assert.equal(tiktok.platforms.tiktok?.authUrl, 'https://www.tiktok.com/v2/auth/authorize/', 'consent URLs keep their trailing slash');
  assert.equal(loadConfig({ HERALD_TWITTER_CLIENT_ID: 'id', HERALD_TWITTER_CLIENT_SECRET: 's', HERALD_SANDBOX: 'true' }).sandbox, true);
});

test('a wrong value stops start-up naming the setting', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'http' }, /^PORT:/],
    [{ PORT: '70000' }, /^PORT:/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL:/],
    [{ DATABASE_URL: 'postgres://x/y' }, /^HERALD_ENCRYPTION_KEY: is required with PostgreSQL/],
    [{ HERALD_ENCRYPTION_KEY: 'too-short' }, /^HERALD_ENCRYPTION_KEY:/],
    [{ HERALD_SANDBOX: 'maybe' }, /^HERALD_SANDBOX:/],
    [{ HERALD_TWITTER_CLIENT_SECRET: 's' }, /^HERALD_TWITTER_CLIENT_ID: is required/],
    [{ HERALD_WEBHOOK_RETRY_SCHEDULE: '5,soon' }, /^HERALD_WEBHOOK_RETRY_SCHEDULE:/],
    [{ HERALD_PUBLIC_URL: 'ftp://x' }, /^HERALD_PUBLIC_URL:/],
    [{ HERALD_GRAPH_API_VERSION: '25' }, /^HERALD_GRAPH_API_VERSION:/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL:/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
  }
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://x/y', HERALD_ENCRYPTION_KEY: key }).encryptionKey?.length, 32);
  assert.deepEqual(loadConfig({ HERALD_WEBHOOK_RETRY_SCHEDULE: '0.5, 2,10' }).webhookRetrySchedule, [0.5, 2, 10]);
});

test('loopback webhook receivers: allowed by default in the sandbox only; HERALD_ALLOW_PRIVATE_NETWORKS decides when set', () => {
  assert.equal(loadConfig({}).allowLoopback, true, 'sandbox on');
  assert.equal(loadConfig({}).allowPrivateNetworks, false, 'private ranges stay closed');
  const real = { HERALD_TWITTER_CLIENT_ID: 'id', HERALD_TWITTER_CLIENT_SECRET: 'secret' };
  assert.equal(loadConfig(real).allowLoopback, false, 'sandbox off');
  assert.equal(loadConfig({ ...real, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' }).allowLoopback, true);
  assert.equal(loadConfig({ HERALD_ALLOW_PRIVATE_NETWORKS: 'false' }).allowLoopback, false, 'an explicit false holds in the sandbox too');
});

test('media settings: the disk store under the data dir by default, S3 with its bucket, limits validated', () => {
  const d = loadConfig({ HERALD_DATA_DIR: '/var/herald/' }).media;
  assert.deepEqual(d.store, { kind: 'disk', root: '/var/herald/media' });
  assert.deepEqual([d.maxBytes, d.retentionDays, d.quotaBytes, d.ffprobePath], [1024 ** 3, 30, 10 * 1024 ** 3, 'ffprobe']);
  const s3 = loadConfig({
    HERALD_MEDIA_STORE: 's3',
    HERALD_S3_BUCKET: 'media',
    HERALD_S3_ENDPOINT: 'http://127.0.0.1:9000/',
    HERALD_S3_ACCESS_KEY_ID: 'id',
    HERALD_S3_SECRET_ACCESS_KEY: 'secret',
    HERALD_S3_FORCE_PATH_STYLE: 'true',
  }).media.store;
  assert.deepEqual(s3, { kind: 's3', bucket: 'media', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', accessKeyId: 'id', secretAccessKey: 'secret', forcePathStyle: true, urlTtlSeconds: 21_600, timeoutMs: 20_000 });
  const cases: [Record<string, string>, RegExp][] = [
    [{ HERALD_MEDIA_STORE: 'ftp' }, /^HERALD_MEDIA_STORE:/],
    [{ HERALD_MEDIA_STORE: 's3' }, /^HERALD_S3_BUCKET: is required/],
    [{ HERALD_MEDIA_STORE: 's3', HERALD_S3_BUCKET: 'b', HERALD_S3_ACCESS_KEY_ID: 'id' }, /^HERALD_S3_SECRET_ACCESS_KEY:/],
    [{ HERALD_MEDIA_STORE: 's3', HERALD_S3_BUCKET: 'b', HERALD_S3_ENDPOINT: 'minio:9000' }, /^HERALD_S3_ENDPOINT:/],
    [{ HERALD_MEDIA_MAX_BYTES: '1GB' }, /^HERALD_MEDIA_MAX_BYTES:/],
    [{ HERALD_MEDIA_RETENTION_DAYS: '0' }, /^HERALD_MEDIA_RETENTION_DAYS:/],
    [{ HERALD_MEDIA_QUOTA_BYTES: '-1' }, /^HERALD_MEDIA_QUOTA_BYTES:/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (err: unknown) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
  }
});

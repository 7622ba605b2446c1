// The OpenAPI document exactly as a running Herald serves it at /openapi.json, built in-process on a
// throw-away database: what the SDK is generated from and what the OpenAPI lint checks.
//   node scripts/openapi.ts            prints it
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { createRuntime } from '../src/runtime.ts';

/** Where the document says the API is (the default address): fixed, so the document is reproducible. */
const DOCUMENT_URL = 'http://127.0.0.1:3000';

export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-openapi-'));
  const config = loadConfig({
    HERALD_DATA_DIR: dataDir,
    HERALD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    HERALD_PUBLIC_URL: DOCUMENT_URL,
    LOG_LEVEL: 'silent',
  });
  const runtime = await createRuntime(config, { role: 'api', log: pino({ level: 'silent' }) });
  try {
    await runtime.app.ready();
    return JSON.parse(JSON.stringify(runtime.app.swagger())) as Record<string, unknown>;
  } finally {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`);
}

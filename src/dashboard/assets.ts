// The dashboard's built files (src/dashboard/dist, written by scripts/build-dashboard.ts and committed),
// read once at start and kept in memory with their gzip form. Asset names carry a hash of their content,
// so they are cached for a year; the page itself is revalidated on every visit.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const DIST_DIR = join(import.meta.dirname, 'dist');

export interface StaticFile {
  body: Buffer;
  gzip: Buffer;
  contentType: string;
  etag: string;
}

export interface DashboardAssets {
  /** index.html, or null when the dashboard was not built. */
  page: StaticFile | null;
  /** By file name below /app/assets/. */
  assets: Map<string, StaticFile>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

function fileOf(path: string): StaticFile {
  const body = readFileSync(path);
  return {
    body,
    gzip: gzipSync(body, { level: 9 }),
    contentType: TYPES[extname(path)] ?? 'application/octet-stream',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}

export function loadDashboardAssets(dir = DIST_DIR): DashboardAssets {
  const index = join(dir, 'index.html');
  const assetsDir = join(dir, 'assets');
  const assets = new Map<string, StaticFile>();
  if (existsSync(assetsDir)) for (const name of readdirSync(assetsDir)) assets.set(name, fileOf(join(assetsDir, name)));
  return { page: existsSync(index) ? fileOf(index) : null, assets };
}

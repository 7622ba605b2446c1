// Builds the dashboard (web/) into src/dashboard/dist with esbuild: one JavaScript bundle (Preact and the
// pages) and one stylesheet, their names carrying a hash of their content, and index.html naming them.
// The output is committed, so Herald needs no build step at install or start (the Docker image copies
// src/ as it is); test/unit/dashboard/build.test.ts fails when it is stale.
//
//   npm run build:dashboard
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIR = join(ROOT, 'web');
export const OUT_DIR = join(ROOT, 'src', 'dashboard', 'dist');

/** The built files, by path relative to OUT_DIR. */
export async function buildDashboard(): Promise<Map<string, Buffer>> {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { app: join(WEB_DIR, 'src', 'main.tsx'), style: join(WEB_DIR, 'src', 'styles.css') },
    entryNames: '[name]-[hash]',
    outdir: join(OUT_DIR, 'assets'),
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome111', 'firefox113', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'eof',
    charset: 'utf8',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const files = new Map<string, Buffer>();
  let js = '';
  let css = '';
  for (const out of result.outputFiles) {
    const rel = relative(OUT_DIR, out.path).split('\\').join('/');
    files.set(rel, Buffer.from(out.contents));
    if (rel.endsWith('.js')) js = rel.slice('assets/'.length);
    if (rel.endsWith('.css')) css = rel.slice('assets/'.length);
  }
  const html = readFileSync(join(WEB_DIR, 'index.html'), 'utf8').replace('{{js}}', js).replace('{{css}}', css);
  files.set('index.html', Buffer.from(html));
  return files;
}

export function writeDashboard(files: Map<string, Buffer>): void {
  rmSync(OUT_DIR, { recursive: true, force: true });
  for (const [rel, body] of files) {
    const path = join(OUT_DIR, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = await buildDashboard();
  writeDashboard(files);
  for (const [rel, body] of files) process.stdout.write(`${rel}  ${body.length} bytes\n`);
}

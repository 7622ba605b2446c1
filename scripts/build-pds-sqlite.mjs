// `npm install`'s postinstall: compiles the better-sqlite3 that @atproto/pds (a dev dependency, the real Bluesky
// PDS the tests start) depends on, for the Node that runs the tests (the project's pinned `node` dev dependency).
//
// Why by hand: that better-sqlite3 (12.x, not Herald's own 13.x, which ships N-API binaries) is a V8-ABI addon
// whose own install script first downloads a prebuilt binary from outside the npm registry (impossible here),
// then runs node-gyp against the headers npm is set to use (this machine's npmrc: nodedir=/usr, the system
// Node 20), which gives a binary Node 22 refuses (NODE_MODULE_VERSION 115, wants 127). package.json's
// allowScripts therefore denies that script, and this one builds it against the pinned Node's own headers,
// taken from the pinned Node's npm package (node-<platform>-<arch>, from the npm registry).
//
// Plain JavaScript, so any Node can run it; it always builds for and checks with node_modules/.bin/node.
// Nothing to do (exit 0) when the PDS is not installed (`--omit=dev`) or its binary already loads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => console.log(`build-pds-sqlite: ${msg}`);
const fail = (msg) => {
  console.error(`build-pds-sqlite: ${msg}`);
  process.exit(1);
};

const pdsPackage = join(root, 'node_modules', '@atproto', 'pds', 'package.json');
if (!existsSync(pdsPackage)) process.exit(0);
const sqliteDir = dirname(createRequire(pdsPackage).resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(readFileSync(join(sqliteDir, 'package.json'), 'utf8')).version;

const node = join(root, 'node_modules', '.bin', 'node');
if (!existsSync(node)) fail(`${node} is missing: the pinned Node (dev dependency "node") must be installed first`);
const loads = () =>
  spawnSync(node, ['-e', `new (require(${JSON.stringify(sqliteDir)}))(':memory:').close()`], { encoding: 'utf8' });
if (loads().status === 0) process.exit(0);

const version = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim(); // v22.x.y
const platformPackage = `node-${process.platform}-${process.arch}`;

/** A directory D with D/include/node/node_version.h of exactly `version`, for node-gyp's --nodedir. */
function headers() {
  const matches = (dir) => {
    try {
      const h = readFileSync(join(dir, 'include', 'node', 'node_version.h'), 'utf8');
      const part = (name) => new RegExp(`#define ${name} (\\d+)`).exec(h)?.[1];
      return `v${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}` === version;
    } catch {
      return false;
    }
  };
  // The `node` package installs the binary's own package beside it, headers included (a later `npm install`
  // may prune it); else a copy this script unpacked before; else unpack one now.
  const installed = join(root, 'node_modules', 'node', 'node_modules', platformPackage);
  if (matches(installed)) return installed;
  const cached = join(root, 'node_modules', '.cache', 'herald-node-headers', version);
  if (matches(cached)) return cached;

  const work = mkdtempSync(join(tmpdir(), 'herald-node-headers-'));
  try {
    const npm = process.env.npm_execpath
      ? [process.execPath, [process.env.npm_execpath]]
      : ['npm', []];
    const pack = spawnSync(npm[0], [...npm[1], 'pack', `${platformPackage}@${version.slice(1)}`, '--silent', '--pack-destination', work], {
      encoding: 'utf8',
    });
    const tgz = pack.stdout.trim().split('\n').pop();
    if (pack.status !== 0 || !tgz) fail(`npm pack ${platformPackage}@${version.slice(1)} failed:\n${pack.stderr}`);
    const untar = spawnSync('tar', ['-xzf', join(work, tgz), '-C', work, 'package/include'], { encoding: 'utf8' });
    if (untar.status !== 0) fail(`could not unpack the Node headers:\n${untar.stderr}`);
    mkdirSync(dirname(cached), { recursive: true });
    rmSync(cached, { recursive: true, force: true });
    renameSync(join(work, 'package'), cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!matches(cached)) fail(`the headers unpacked to ${cached} are not those of Node ${version}`);
  return cached;
}

const nodeGyp =
  process.env.npm_config_node_gyp ||
  (process.env.npm_execpath && join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
if (!nodeGyp || !existsSync(nodeGyp)) fail('node-gyp not found (run this through npm: `npm install` or `npm rebuild`)');

const started = Date.now();
const nodedir = headers();
const env = { ...process.env };
delete env.npm_config_nodedir; // --nodedir below decides; this one would point at another Node's headers
const build = spawnSync(node, [nodeGyp, 'rebuild', '--release', `--nodedir=${nodedir}`, '--jobs=2'], {
  cwd: sqliteDir,
  env,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (build.status !== 0) fail(`node-gyp failed in ${sqliteDir}:\n${build.stdout}\n${build.stderr}`);
const check = loads();
if (check.status !== 0) fail(`built, but Node ${version} still cannot load it:\n${check.stderr}`);
say(`better-sqlite3 ${sqliteVersion} for @atproto/pds built for Node ${version} in ${Math.round((Date.now() - started) / 1000)} s`);

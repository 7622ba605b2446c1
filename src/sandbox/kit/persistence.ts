// The sandbox's state on disk, so that restarting Herald does not break a walk-through: each emulator's
// OAuth codes and tokens, its ledger, and its own state (snapshot/restore) in <dir>/<mount>.json.
// Written after changes (at most once per debounce interval) and on close, atomically (a temporary file
// renamed over the old one), readable by the owner only (0600), and bounded (PersistLimits).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { watchEmulator, type Emulator, type PersistLimits } from './emulator.ts';
import type { LedgerEntry } from './ledger.ts';
import type { OAuthSnapshot } from './oauth.ts';

export const SNAPSHOT_VERSION = 1;

export const DEFAULT_PERSIST_LIMITS: PersistLimits = { ledger: 5_000, tokens: 20_000, items: 5_000 };

export interface EmulatorSnapshot {
  version: typeof SNAPSHOT_VERSION;
  name: string;
  savedAt: string;
  oauth: OAuthSnapshot;
  ledger: LedgerEntry[];
  /** What the emulator's own snapshot() returned. */
  own?: unknown;
}

export interface PersistenceOptions {
  /** Directory of the files, created (0700) when missing: <dir>/<mount>.json. */
  dir: string;
  /** Longest a change waits before it is written (default 500 ms). */
  debounceMs?: number;
  limits?: Partial<PersistLimits>;
  /** A file that cannot be read or written (default: ignored; the sandbox goes on in memory). */
  onError?: (err: unknown, file: string) => void;
}

export function snapshotEmulator(emu: Emulator, limits: PersistLimits = DEFAULT_PERSIST_LIMITS): EmulatorSnapshot {
  const snap: EmulatorSnapshot = {
    version: SNAPSHOT_VERSION,
    name: emu.name,
    savedAt: new Date().toISOString(),
    oauth: emu.oauth.snapshot(limits.tokens),
    ledger: emu.ledger.snapshot(limits.ledger),
  };
  const own = emu.snapshot?.(limits);
  if (own !== undefined) snap.own = own;
  return snap;
}

/** Takes a saved snapshot back into an emulator; refuses one of another emulator or version. */
export function restoreEmulator(emu: Emulator, data: unknown): void {
  const snap = data as Partial<EmulatorSnapshot> | null;
  if (!snap || typeof snap !== 'object' || snap.version !== SNAPSHOT_VERSION) throw new Error(`not a version ${SNAPSHOT_VERSION} sandbox snapshot`);
  if (snap.name !== emu.name) throw new Error(`a snapshot of the ${String(snap.name)} emulator, not ${emu.name}`);
  if (!snap.oauth || !Array.isArray(snap.oauth.codes) || !Array.isArray(snap.oauth.tokens) || !Array.isArray(snap.ledger)) {
    throw new Error('the snapshot lacks its OAuth state or ledger');
  }
  emu.oauth.restore(snap.oauth);
  emu.ledger.restore(snap.ledger);
  if (snap.own !== undefined) emu.restore?.(snap.own);
}

export interface EmulatorPersistence {
  readonly file: string;
  /** Writes pending changes now. */
  flush(): Promise<void>;
  /** Writes pending changes and stops watching. */
  close(): Promise<void>;
}

const persisted = new WeakMap<Emulator, EmulatorPersistence>();
let tempSeq = 0;

/**
 * Restores the emulator from <dir>/<name>.json when the file exists, then saves it there after changes.
 * A file that cannot be read is set aside (<name>.json.unreadable) rather than overwritten blindly.
 */
export function persistEmulator(emu: Emulator, options: PersistenceOptions): EmulatorPersistence {
  const limits = { ...DEFAULT_PERSIST_LIMITS, ...options.limits };
  const debounceMs = options.debounceMs ?? 500;
  const file = join(options.dir, `${emu.name}.json`);
  const onError = options.onError ?? (() => {});

  try {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    // An unwritable place does not stop the sandbox: it runs in memory, and each write reports its failure.
    onError(err, file);
  }
  if (existsSync(file)) {
    try {
      restoreEmulator(emu, JSON.parse(readFileSync(file, 'utf8')));
    } catch (err) {
      onError(err, file);
      emu.reset();
      try {
        renameSync(file, `${file}.unreadable`);
        chmodSync(`${file}.unreadable`, 0o600);
      } catch (renameErr) {
        onError(renameErr, file);
      }
    }
  }

  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const write = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return writing;
    dirty = false;
    const text = JSON.stringify(snapshotEmulator(emu, limits));
    writing = writing.then(async () => {
      const temp = `${file}.${process.pid}.${++tempSeq}.tmp`;
      try {
        await mkdir(options.dir, { recursive: true, mode: 0o700 });
        await writeFile(temp, text, { mode: 0o600 });
        await chmod(temp, 0o600);
        await rename(temp, file);
      } catch (err) {
        onError(err, file);
        await rm(temp, { force: true }).catch(() => {});
      }
    });
    return writing;
  };

  const unwatch = watchEmulator(emu, () => {
    dirty = true;
    if (!timer) {
      timer = setTimeout(() => void write(), debounceMs);
      timer.unref();
    }
  });

  const handle: EmulatorPersistence = {
    file,
    flush: write,
    async close() {
      unwatch();
      await write();
      persisted.delete(emu);
    },
  };
  persisted.set(emu, handle);
  return handle;
}

/** Writes what the emulators changed and stops saving them (on shutdown); emulators without a file are skipped. */
export async function closePersistence(emulators: readonly Emulator[]): Promise<void> {
  await Promise.all(emulators.map((emu) => persisted.get(emu)?.close()));
}

/** The newest `max` of a list, kept in their order; `at` tells an item's time (ties: the later in the list). */
export function newest<T>(items: Iterable<T>, max: number, at: (item: T) => number): T[] {
  const all = [...items];
  if (all.length <= max) return all;
  const keep = new Set(
    all
      .map((item, index) => ({ index, time: at(item) }))
      .sort((a, b) => b.time - a.time || b.index - a.index)
      .slice(0, max)
      .map((e) => e.index),
  );
  return all.filter((_, index) => keep.has(index));
}

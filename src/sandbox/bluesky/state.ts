// What the emulated PDS holds: accounts (handle, e-mail, app passwords, status), each account's
// repository of records, its blobs (deleted with the last record that uses them), and the counters of
// its rate limits.
import { createHash } from 'node:crypto';
import { RATE_LIMITS } from '../../platforms/bluesky/info.ts';
import { encodeTid } from '../../platforms/bluesky/tid.ts';
import { XrpcError, rateLimitHeaders } from './xrpc.ts';

export interface Account {
  did: string;
  handle: string;
  email: string;
  /** App passwords by name (xxxx-xxxx-xxxx-xxxx). */
  appPasswords: Map<string, string>;
  active: boolean;
  status?: 'takendown' | 'suspended' | 'deactivated';
}

export interface StoredRecord {
  uri: string;
  cid: string;
  value: Record<string, unknown>;
  /** Blob cids the record references. */
  blobs: string[];
}

export interface StoredBlob {
  cid: string;
  mimeType: string;
  size: number;
  /** Kept for small blobs only (served by getBlob); large ones are counted, not held. */
  bytes?: Buffer;
  /** Records that reference it; a blob never referenced is temporary. */
  refs: Set<string>;
}

export interface Repo {
  records: Map<string, Map<string, StoredRecord>>;
  blobs: Map<string, StoredBlob>;
  /** Write points spent: [time, points]. */
  writes: [number, number][];
  rev: bigint;
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A did:plc-looking identifier derived from a handle, stable across restarts. */
export function didForHandle(handle: string): string {
  const digest = createHash('sha256').update(`herald-sandbox:${handle}`).digest();
  let out = '';
  for (let i = 0; i < 24; i++) out += B32[digest[i]! % 32];
  return `did:plc:${out}`;
}

export const APP_PASSWORD_RE = /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/;

export class PdsState {
  readonly accounts = new Map<string, Account>();
  readonly repos = new Map<string, Repo>();
  /** createSession attempts per identifier. */
  readonly signIns = new Map<string, number[]>();

  byIdentifier(identifier: string): Account | undefined {
    const id = identifier.toLowerCase();
    for (const a of this.accounts.values()) if (a.did === identifier || a.handle === id || a.email === id) return a;
    return undefined;
  }

  byRepo(repo: string): Account | undefined {
    return repo.startsWith('did:') ? this.accounts.get(repo) : this.byIdentifier(repo);
  }

  add(account: Account): Account {
    this.accounts.set(account.did, account);
    this.repos.set(account.did, { records: new Map(), blobs: new Map(), writes: [], rev: 0n });
    return account;
  }

  repoOf(did: string): Repo {
    const repo = this.repos.get(did);
    if (!repo) throw new XrpcError(400, 'InvalidRequest', `Could not find repo: ${did}`);
    return repo;
  }

  nextRev(repo: Repo, now: number): string {
    const micros = BigInt(now) * 1000n;
    repo.rev = micros > repo.rev ? micros : repo.rev + 1n;
    return encodeTid(repo.rev, 0);
  }

  /** Spends write points (create 3, update 2, delete 1) or answers the PDS's 429. */
  spendWritePoints(repo: Repo, points: number, now: number, limits: { perHour: number; perDay: number }): void {
    const hour = 3600_000;
    const day = 24 * hour;
    repo.writes = repo.writes.filter(([t]) => t > now - day);
    const sum = (since: number) => repo.writes.reduce((n, [t, p]) => (t > since ? n + p : n), 0);
    for (const [limit, windowMs] of [
      [limits.perHour, hour],
      [limits.perDay, day],
    ] as const) {
      if (sum(now - windowMs) + points > limit) {
        const oldest = repo.writes.find(([t]) => t > now - windowMs)?.[0] ?? now;
        throw new XrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', rateLimitHeaders(limit, windowMs / 1000, oldest + windowMs, now));
      }
    }
    repo.writes.push([now, points]);
  }

  /** createSession: 30 per 5 minutes and 300 a day per identifier (10.11). */
  countSignIn(identifier: string, now: number): void {
    const five = 5 * 60_000;
    const day = 24 * 3600_000;
    const times = (this.signIns.get(identifier) ?? []).filter((t) => t > now - day);
    for (const [limit, windowMs] of [
      [RATE_LIMITS.createSessionPerDay, day],
      [RATE_LIMITS.createSessionPer5Min, five],
    ] as const) {
      const inWindow = times.filter((t) => t > now - windowMs);
      if (inWindow.length >= limit) {
        this.signIns.set(identifier, times);
        throw new XrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded', rateLimitHeaders(limit, windowMs / 1000, inWindow[0]! + windowMs, now));
      }
    }
    times.push(now);
    this.signIns.set(identifier, times);
  }

  clear(): void {
    this.accounts.clear();
    this.repos.clear();
    this.signIns.clear();
  }
}

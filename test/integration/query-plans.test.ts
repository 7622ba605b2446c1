// How the embedded database runs the statements of the hot requests. SQLite keeps no statistics (Herald
// never runs ANALYZE), so where a query could use two indexes it may pick the one that reads more: reading
// a post's library media or accounts by `api_key_id = ? and id in (…)` once read the key's whole library or
// all its accounts through the key's index, a cost that grew with the key and that no answer showed. Every
// statement a create, a validate, a list and a publish run is recorded as better-sqlite3 runs it and its
// plan asked of SQLite: none may read a whole table, nor a key's rows through an index by the key alone
// when the query names the rows it wants. SQLite only: PostgreSQL plans from statistics.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { connectAccount } from '../helpers/connect.ts';
import { publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { usingPostgres } from '../helpers/herald.ts';
import { uploadOk } from '../helpers/media.ts';

// better-sqlite3 statements share one prototype: its run methods are wrapped to record what runs.
const probe = new Database(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'all' | 'run' | 'get' | 'iterate', (...args: unknown[]) => unknown>;
probe.close();
let recording: Set<string> | null = null;
for (const method of ['all', 'run', 'get', 'iterate'] as const) {
  const original = statementProto[method];
  statementProto[method] = function (this: { source: string }, ...args: unknown[]) {
    recording?.add(this.source);
    return original.apply(this, args);
  };
}

let w: World;
let dataFile: string;
let accounts: { platform: string; accountId: string }[];
let media: string[];

before(async () => {
  if (usingPostgres) return;
  w = await startWorld();
  dataFile = `${w.h.runtime.config.dataDir}/herald.db`;
  accounts = [];
  for (const platform of ['twitter', 'threads', 'linkedin'] as const) accounts.push({ platform, accountId: (await connectAccount(w.h, platform)).accountId });
  // More accounts and files than the post names, so a plan that reads the key's rows reads more than it needs.
  for (let i = 0; i < 3; i++) await connectAccount(w.h, 'twitter');
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
  media = [];
  for (let i = 0; i < 6; i++) media.push((await uploadOk(w.h, jpeg, 'image/jpeg')).id);
});
after(() => w?.close());

/** The statements `fn` runs, with the plan SQLite gives each (steps joined by " | "). */
async function plansOf(fn: () => Promise<void>): Promise<Map<string, string>> {
  const ran = new Set<string>();
  recording = ran;
  try {
    await fn();
  } finally {
    recording = null;
  }
  const reader = new Database(dataFile, { readonly: true });
  try {
    const plans = new Map<string, string>();
    for (const source of ran) {
      if (!/^\s*(select|update|delete|insert|with)\b/i.test(source)) continue;
      const values = Array((source.match(/\?/g) ?? []).length).fill(null);
      const steps = reader.prepare(`explain query plan ${source}`).all(...values) as { detail: string }[];
      plans.set(source, steps.map((s) => s.detail).join(' | '));
    }
    return plans;
  } finally {
    reader.close();
  }
}

/** Plans that read a table whole, or a key's rows by the key alone while the statement names its rows. */
function wasteful(plans: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [source, plan] of plans) {
    const scans = plan.split(' | ').filter((step) => /^SCAN (?!\d+-ROW VALUES CLAUSE|CONSTANT ROW)/.test(step));
    // A search of table T by the key alone, where the statement's own filter on T (not a subquery's) names rows.
    const byKeyAlone = plan.split(' | ').some((step) => {
      const table = /^SEARCH (\w+) USING (?:COVERING )?INDEX \S+ \(api_key_id=\?\)$/.exec(step)?.[1];
      return table !== undefined && new RegExp(`from "${table}" where [^()]*"(id|account_id|post_id)" (=|in \\()`).test(source);
    });
    if (scans.length > 0 || byKeyAlone) out.push(`${plan}\n    ${source.slice(0, 300)}`);
  }
  return out;
}

test('a create naming library media and accounts, a validate and a list read only the rows they name', { skip: usingPostgres && 'SQLite plans only' }, async () => {
  const body = {
    content: 'plans',
    scheduledFor: new Date(Date.now() + 86_400_000 * 30).toISOString(),
    mediaItems: media.slice(0, 4).map((mediaId) => ({ mediaId })),
    platforms: accounts,
  };
  const plans = await plansOf(async () => {
    for (const key of [crypto.randomUUID(), undefined]) {
      const res = await w.h.request('POST', '/v1/posts', { body, headers: key ? { 'idempotency-key': key } : {} });
      assert.equal(res.status, 201, res.text);
    }
    const validated = await w.h.request('POST', '/v1/posts/validate', { body });
    assert.equal(validated.status, 200, validated.text);
    assert.equal((await w.h.request('GET', '/v1/posts?limit=20')).status, 200);
  });
  const reads = [...plans.keys()];
  // The reads this test is about ran (so a renamed table or column cannot make it pass by running nothing).
  assert.ok(reads.some((s) => /from "media" where .*"id" in/.test(s)), reads.join('\n'));
  assert.ok(reads.some((s) => /from "accounts" where .*"account_id" in/.test(s)), reads.join('\n'));
  assert.deepEqual(wasteful(plans), []);
});

test('publishing a post with library media to three platforms reads only the rows it names', { skip: usingPostgres && 'SQLite plans only' }, async () => {
  const plans = await plansOf(async () => {
    const post = await publishNow(w.h, { content: 'plans, published', mediaItems: [{ mediaId: media[4] }], platforms: accounts });
    const final = await waitFinal(w.h, post.id);
    assert.equal(final.status, 'published', JSON.stringify(final));
  });
  assert.ok([...plans.keys()].some((s) => /from "post_targets"/.test(s)));
  assert.deepEqual(wasteful(plans), []);
});

test('the token-care sweeps read only the accounts whose tokens end soon', { skip: usingPostgres && 'SQLite plans only' }, async () => {
  const plans = await plansOf(async () => {
    await w.h.runtime.credentials.refreshDue();
    await w.h.runtime.credentials.announceExpiring(7 * 86_400_000);
  });
  assert.ok([...plans.keys()].some((s) => /from "accounts" where .*"token_expires_at" </.test(s)), [...plans.keys()].join('\n'));
  assert.deepEqual(wasteful(plans), []);
});

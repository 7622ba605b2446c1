// Scale-out figures on PostgreSQL that do not depend on how busy the machine is: what idle processes ask
// of the database, and how soon work held by a process killed with SIGKILL is taken up again.
//   idle:          one API process and two workers with nothing to do; statements per second in all.
//   worker crash:  two workers publishing through slow emulators; one is killed mid-attempt; how long
//                  until each of its targets is claimed again, and whether anything was posted twice.
//   API crash:     publishNow requests in flight on an API process that is killed; the clients send the
//                  same requests (same Idempotency-Key) to a second API process until they get an answer.
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../src/db/database.ts';
import { benchDatabase, connect, createKey, load1, percentile, startEmulators, startHerald, type ServerProcess } from './lib.ts';
import type { PostgresServer } from './postgres.ts';

export interface IdleFigures {
  seconds: number;
  statementsPerSecond: number;
  top: { calls: number; query: string }[];
  load: number;
}

export async function benchIdle(postgres: PostgresServer, seconds = 60): Promise<IdleFigures> {
  const database = await benchDatabase(postgres);
  const env = { ...database.env, HERALD_SANDBOX: 'false' };
  createKey(env);
  const procs: ServerProcess[] = [];
  try {
    procs.push(await startHerald(env, ['--role', 'api']));
    procs.push(await startHerald(env, ['--role', 'worker']));
    procs.push(await startHerald(env, ['--role', 'worker']));
    // Start-up work (first sweeps, the hourly purge's first run) is over after a few seconds.
    await new Promise((r) => setTimeout(r, 15_000));
    await postgres.resetStatements();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const s = await postgres.statements(database.name!);
    if (!s) throw new Error('pg_stat_statements is not loaded on this server');
    return { seconds, statementsPerSecond: Math.round((s.calls / seconds) * 100) / 100, top: s.top, load: load1() };
  } finally {
    for (const p of procs) await p.stop();
    await database.drop();
  }
}

export interface CrashFigures {
  /** Worker kill: targets the dead worker held, and seconds from the kill until each was claimed again. */
  worker: { held: number; pickupP50Seconds: number; pickupMaxSeconds: number; published: number; duplicates: number };
  /** API kill: publishNow requests cut off, seconds from the kill until each replay got its 201, ids kept. */
  api: { requests: number; answeredP50Seconds: number; answeredMaxSeconds: number; sameIds: number; conflictsBefore: number; duplicates: number };
  leaseMs: number;
  load: number;
}

async function ledgerDuplicates(emulators: { url: string; mounts: string[] }, prefix: string): Promise<{ posts: number; duplicates: number }> {
  let posts = 0;
  let duplicates = 0;
  for (const mount of emulators.mounts) {
    const ledger = ((await (await fetch(`${emulators.url}/${mount}/__sandbox/ledger?kind=post`)).json()) as { posts: { accountId: string; text: string }[] }).posts;
    const seen = new Set<string>();
    for (const e of ledger.filter((e) => e.text.startsWith(prefix))) {
      posts++;
      if (seen.has(`${e.accountId}|${e.text}`)) duplicates++;
      seen.add(`${e.accountId}|${e.text}`);
    }
  }
  return { posts, duplicates };
}

export async function benchCrash(postgres: PostgresServer): Promise<CrashFigures> {
  const database = await benchDatabase(postgres);
  const emulators = await startEmulators();
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_PUBLISH_WAIT_MS: '60000' };
  const key = createKey(env);
  const procs = new Map<string, ServerProcess>();
  const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  const api = async (url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  try {
    for (const name of ['api-1', 'api-2', 'worker-1', 'worker-2']) procs.set(name, await startHerald(env, ['--role', name.replace(/-\d$/, '')]));
    const front = procs.get('api-1')!.url;
    const pages = await connect(front, key, 'facebook', { sandbox_pages: '20' });

    // --- A worker dies mid-attempt. Calls take 4 s, so each worker holds many attempts at once.
    await emulators.setLatency(4_000);
    const due = Date.now() + 3_000;
    for (let i = 0; i < 80; i++) {
      const r = await api(front, 'POST', '/v1/posts', { content: `crash w ${i}`, scheduledFor: new Date(due).toISOString(), platforms: [{ platform: 'facebook', accountId: pages[i % pages.length] }] });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    }
    const inFlight = async () => db.kysely.selectFrom('post_targets').select(['id', 'attempt_id']).where('status', '=', 'publishing').execute();
    while ((await inFlight()).length < 40) await new Promise((r) => setTimeout(r, 50));
    const before = new Map((await inFlight()).map((t) => [t.id, t.attempt_id]));
    const killedAt = Date.now();
    procs.get('worker-1')!.child.kill('SIGKILL');
    procs.delete('worker-1');
    // The survivor's attempts end when their calls do (4 s); the dead one's stay `publishing` under its
    // attempt id until another claims them with a new one.
    const pickedUp = new Map<string, number>();
    const finishedByOwner = new Set<string>();
    while (Date.now() - killedAt < 40_000 && pickedUp.size + finishedByOwner.size < before.size) {
      const now = await db.kysely.selectFrom('post_targets').select(['id', 'attempt_id', 'status']).where('id', 'in', [...before.keys()]).execute();
      for (const t of now) {
        if (pickedUp.has(t.id) || finishedByOwner.has(t.id)) continue;
        if (t.attempt_id !== null && t.attempt_id !== before.get(t.id)) pickedUp.set(t.id, (Date.now() - killedAt) / 1000);
        else if (t.attempt_id === null) finishedByOwner.add(t.id);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await emulators.setLatency(0);
    while ((await db.kysely.selectFrom('post_targets').select('id').where('status', 'in', ['pending', 'publishing']).execute()).length > 0) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const pickups = [...pickedUp.values()];
    const w = await ledgerDuplicates(emulators, 'crash w ');

    // --- An API process dies with publishNow requests in flight; the clients turn to the other one.
    await emulators.setLatency(3_000);
    const requests = Array.from({ length: 20 }, (_, i) => ({ key: randomUUID(), body: { content: `crash a ${i}`, publishNow: true, platforms: [{ platform: 'facebook', accountId: pages[i % pages.length] }] } }));
    const cut = requests.map((r) => api(front, 'POST', '/v1/posts', r.body, { 'idempotency-key': r.key }).catch(() => null));
    while ((await inFlight()).length < 20) await new Promise((r) => setTimeout(r, 50));
    const apiKilledAt = Date.now();
    procs.get('api-1')!.child.kill('SIGKILL');
    procs.delete('api-1');
    await Promise.all(cut);
    const other = procs.get('api-2')!.url;
    let conflictsBefore = 0;
    const answered = await Promise.all(
      requests.map(async (r) => {
        for (;;) {
          const res = await api(other, 'POST', '/v1/posts', r.body, { 'idempotency-key': r.key });
          if (res.status === 201) return { at: (Date.now() - apiKilledAt) / 1000, id: res.body.id as string };
          if (res.status !== 409) throw new Error(`replay answered ${res.status}: ${JSON.stringify(res.body)}`);
          conflictsBefore++;
          await new Promise((done) => setTimeout(done, 250));
        }
      }),
    );
    // Each answer names the post the cut-off request created (one post per key), and that post publishes once.
    const ids = new Set(answered.map((a) => a.id));
    const made = await db.kysely.selectFrom('posts').select('id').where('content', 'like', 'crash a %').execute();
    await emulators.setLatency(0);
    while ((await db.kysely.selectFrom('post_targets').select('id').where('status', 'in', ['pending', 'publishing']).execute()).length > 0) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const a = await ledgerDuplicates(emulators, 'crash a ');
    const times = answered.map((x) => x.at);
    return {
      worker: {
        held: pickups.length,
        pickupP50Seconds: percentile(pickups, 50),
        pickupMaxSeconds: Math.max(...pickups),
        published: w.posts,
        duplicates: w.duplicates,
      },
      api: {
        requests: requests.length,
        answeredP50Seconds: percentile(times, 50),
        answeredMaxSeconds: Math.max(...times),
        sameIds: made.length === requests.length && ids.size === requests.length ? requests.length : made.filter((m) => ids.has(m.id)).length,
        conflictsBefore,
        duplicates: a.duplicates + Math.max(0, made.length - requests.length),
      },
      leaseMs: 10_000,
      load: load1(),
    };
  } finally {
    await db.close();
    for (const p of procs.values()) await p.stop();
    await emulators.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startPostgres } = await import('./postgres.ts');
  const postgres = await startPostgres();
  try {
    if (process.argv[2] !== 'crash') console.log(JSON.stringify(await benchIdle(postgres, Number(process.env.BENCH_IDLE_SECONDS ?? 60)), null, 2));
    if (process.argv[2] !== 'idle') console.log(JSON.stringify(await benchCrash(postgres), null, 2));
  } finally {
    await postgres.stop();
  }
}

// The baseline: a bare Fastify endpoint inserting one row into the same database Herald uses, with the
// driver directly: better-sqlite3 (WAL, the default checkpointing) on the embedded database, a pg pool of
// the same size as Herald's (HERALD_DB_POOL_SIZE, default 10) on PostgreSQL. Herald's create endpoint is
// measured against it.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Fastify from 'fastify';

let insert: (id: string, body: string, at: number) => Promise<unknown> | unknown;
let close: () => Promise<void>;
if (process.env.DATABASE_URL) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.HERALD_DB_POOL_SIZE ?? 10) });
  await pool.query('create table if not exists bench_baseline (id text primary key, body text not null, created_at bigint not null)');
  insert = (id, body, at) => pool.query('insert into bench_baseline (id, body, created_at) values ($1, $2, $3)', [id, body, at]);
  close = () => pool.end();
} else {
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(join(process.env.HERALD_DATA_DIR!, 'herald.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('create table if not exists bench_baseline (id text primary key, body text not null, created_at integer not null)');
  const statement = db.prepare('insert into bench_baseline (id, body, created_at) values (?, ?, ?)');
  insert = (id, body, at) => statement.run(id, body, at);
  close = async () => {
    db.close();
  };
}
const app = Fastify();
app.post('/rows', async (req, reply) => {
  const id = randomUUID();
  await insert(id, JSON.stringify(req.body), Date.now());
  return reply.code(201).send({ id });
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`baseline listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => void app.close().then(close).then(() => process.exit(0)));

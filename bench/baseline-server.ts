// The baseline: a bare Fastify endpoint inserting one row into the same database file with
// better-sqlite3 directly (WAL, the default checkpointing). Herald's create endpoint is measured against it.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

const db = new SQLite(join(process.env.HERALD_DATA_DIR!, 'herald.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('create table if not exists bench_baseline (id text primary key, body text not null, created_at integer not null)');
const insert = db.prepare('insert into bench_baseline (id, body, created_at) values (?, ?, ?)');
const app = Fastify();
app.post('/rows', async (req, reply) => {
  const id = randomUUID();
  insert.run(id, JSON.stringify(req.body), Date.now());
  return reply.code(201).send({ id });
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`baseline listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => void app.close().then(() => db.close()).then(() => process.exit(0)));

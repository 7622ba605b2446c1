// The baseline: a bare Fastify endpoint that inserts one row into the same database file, with the same
// driver and query builder Herald uses. Herald's create endpoint is measured against it.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';

const db = openDatabase({ dataDir: process.env.HERALD_DATA_DIR!, databaseUrl: process.env.DATABASE_URL ?? null });
await sql`create table if not exists bench_baseline (id text primary key, body text not null, created_at bigint not null)`.execute(db.kysely);
const app = Fastify();
app.post('/rows', async (req, reply) => {
  const id = randomUUID();
  await sql`insert into bench_baseline (id, body, created_at) values (${id}, ${JSON.stringify(req.body)}, ${Date.now()})`.execute(db.kysely);
  return reply.code(201).send({ id });
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
console.log(`baseline listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
process.on('SIGTERM', () => void app.close().then(() => db.close()).then(() => process.exit(0)));

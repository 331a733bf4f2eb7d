/**
 * The bare baseline: the least a Fastify + better-sqlite3 server can do for the same requests,
 * with none of svc's work (keys, rate limits, validation, change log, counters, multi-tenancy).
 * Same SQLite settings as svc's store (WAL, synchronous = NORMAL). Run by bench/ in its own
 * process, like svc: `BARE_DB=<file> PORT=<port> node --import tsx bench/baseline/bare-server.ts`.
 *
 *   POST /docs        one JSON object → 201 the row as a document       (bare insert)
 *   GET  /docs/:id    → 200 the document, or 404                        (bare get by id)
 *   POST /bulk        {documents: [...]} → 201 in one transaction       (bare bulk insert, and seeding)
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.BARE_DB ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO docs (id, data, created_at) VALUES (?, ?, ?)');
const select = db.prepare<[string], { data: string; created_at: string }>('SELECT data, created_at FROM docs WHERE id = ?');

type Json = Record<string, unknown>;
const store = (body: Json, now: string): Json => {
  const id = randomUUID();
  insert.run(id, JSON.stringify(body), now);
  return { id, ...body, createdAt: now };
};
const insertMany = db.transaction((bodies: Json[], now: string) => bodies.map((b) => store(b, now)));

const app = Fastify({ logger: false, bodyLimit: 16 * 2 ** 20 });
app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Body: Json }>('/docs', async (req, reply) => reply.code(201).send(store(req.body, new Date().toISOString())));
app.get<{ Params: { id: string } }>('/docs/:id', async (req, reply) => {
  const row = select.get(req.params.id);
  if (!row) return reply.code(404).send({ error: 'not found' });
  return { id: req.params.id, ...(JSON.parse(row.data) as Json), createdAt: row.created_at };
});
app.post<{ Body: { documents: Json[] } }>('/bulk', async (req, reply) =>
  reply.code(201).send({ documents: insertMany(req.body.documents, new Date().toISOString()) }),
);

await app.listen({ port: Number(process.env.PORT ?? 8799), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

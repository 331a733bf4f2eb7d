/**
 * The bare baseline of the rules scenario's lists: Fastify + better-sqlite3 with the owner as a
 * column of its own and one index on (owner, created_at, id), the least a server can do to list one
 * user's documents, with none of svc's work (keys, sessions, rules, filter compilation, JSON paths,
 * multi-tenancy). Same SQLite settings as svc's store (WAL, synchronous = NORMAL). Run by bench/ in
 * its own process: `BARE_DB=<file> PORT=<port> node --import tsx bench/baseline/bare-owned.ts`.
 *
 *   POST /bulk                    {documents: [...]} (each with `owner`) → 201, one transaction (seeding)
 *   GET  /docs?owner=<id>&limit=n → 200 {documents, total, limit, offset}: the owner's first n by
 *                                   createdAt and how many they have (svc's list answer, by owner)
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.BARE_DB ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, owner TEXT NOT NULL, data TEXT NOT NULL, created_at TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS docs_owner ON docs (owner, created_at, id)`);
const insert = db.prepare('INSERT INTO docs (id, owner, data, created_at) VALUES (?, ?, ?, ?)');
const page = db.prepare<[string, number], { id: string; data: string; created_at: string }>(
  'SELECT id, data, created_at FROM docs WHERE owner = ? ORDER BY created_at, id LIMIT ?',
);
const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM docs WHERE owner = ?');

type Json = Record<string, unknown>;
const insertMany = db.transaction((bodies: Json[], now: string) =>
  bodies.map((b) => {
    const id = randomUUID();
    insert.run(id, String(b.owner), JSON.stringify(b), now);
    return { id, ...b, createdAt: now };
  }),
);

const app = Fastify({ logger: false, bodyLimit: 16 * 2 ** 20 });
app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Body: { documents: Json[] } }>('/bulk', async (req, reply) =>
  reply.code(201).send({ documents: insertMany(req.body.documents, new Date().toISOString()) }),
);
app.get<{ Querystring: { owner: string; limit?: string } }>('/docs', async (req) => {
  const limit = Number(req.query.limit ?? 20);
  const documents = page.all(req.query.owner, limit).map((r) => ({ id: r.id, ...(JSON.parse(r.data) as Json), createdAt: r.created_at }));
  return { documents, total: count.get(req.query.owner)?.n ?? 0, limit, offset: 0 };
});

await app.listen({ port: Number(process.env.PORT ?? 8797), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

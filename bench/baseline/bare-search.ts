/**
 * The bare baseline of the `search` scenario: the least a Fastify + better-sqlite3 server can do to
 * answer a ranked full-text search, with none of svc's work (keys, validation, tenants, rules, its
 * own tokenizer and rank). One FTS5 table (unicode61, no diacritics folding) holding the text
 * fields, bm25 as the rank, the page and the total in two prepared statements. Same SQLite settings
 * as svc's store (WAL, synchronous = NORMAL). Run by bench/ in its own process:
 * `BARE_DB=<file> PORT=<port> node --import tsx bench/baseline/bare-search.ts`.
 *
 *   POST /bulk           {documents: [{title, body, ...}]} → 201 in one transaction (seeding)
 *   GET  /search?q=a+b   → 200 {documents (20, best first), total}: every word by prefix, ANDed
 */
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.BARE_DB ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL);
  CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(id UNINDEXED, title, body, tokenize = 'unicode61 remove_diacritics 0')`);
const insert = db.prepare('INSERT INTO docs (id, data, created_at) VALUES (?, ?, ?)');
const insertText = db.prepare('INSERT INTO docs_fts (id, title, body) VALUES (?, ?, ?)');
const page = db.prepare<[string], { id: string; data: string; created_at: string }>(
  'SELECT d.id, d.data, d.created_at FROM docs_fts f JOIN docs d ON d.id = f.id WHERE docs_fts MATCH ? ORDER BY bm25(docs_fts), d.id LIMIT 20',
);
const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM docs_fts WHERE docs_fts MATCH ?');

type Json = Record<string, unknown>;
const insertMany = db.transaction((bodies: Json[], now: string) =>
  bodies.map((b) => {
    const id = randomUUID();
    insert.run(id, JSON.stringify(b), now);
    insertText.run(id, String(b.title ?? ''), String(b.body ?? ''));
    return { id, ...b, createdAt: now };
  }),
);

const app = Fastify({ logger: false, bodyLimit: 64 * 2 ** 20 });
app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Body: { documents: Json[] } }>('/bulk', async (req, reply) =>
  reply.code(201).send({ documents: insertMany(req.body.documents, new Date().toISOString()) }),
);
app.get<{ Querystring: { q: string } }>('/search', async (req) => {
  const match = req.query.q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replaceAll('"', '""')}"*`)
    .join(' ');
  const documents = page.all(match).map((r) => ({ id: r.id, ...(JSON.parse(r.data) as Json), createdAt: r.created_at }));
  return { documents, total: count.get(match)?.n ?? 0 };
});

await app.listen({ port: Number(process.env.PORT ?? 8799), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

/**
 * The peers benchmark's bare floor (issue 30), for `npm run bench -- bulk`: what a developer measures
 * here is what the side-by-side comparison with Parse Server shows its users. Row for row the
 * `bare` server of that comparison: Fastify + better-sqlite3 (WAL, synchronous = NORMAL), one table
 * with a JSON column and one index on (collection, created_at, id), a time-sortable id, and
 *
 *   POST /v1/:coll/bulk   {documents: [...]} → 201 {documents} : one transaction, one prepared
 *                         INSERT run per document
 *   GET  /health          200 {status: "ok"}
 *
 * No auth, no rate limits, no events, no counts: whatever svc costs above it is the price of its
 * features. Run in its own process: `DB_PATH=<file> PORT=<port> node --import tsx bench/baseline/bare-peers.ts`.
 */
import crypto from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.DB_PATH ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  CREATE TABLE IF NOT EXISTS docs (
    id TEXT PRIMARY KEY,
    coll TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS docs_coll_created ON docs (coll, created_at, id);
`);

// Time-sortable id: 12 hex chars of milliseconds, 4 of a per-ms counter, 12 random (as the peers' bare).
let lastMs = 0;
let seq = 0;
function newId(): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  return ms.toString(16).padStart(12, '0') + (seq & 0xffff).toString(16).padStart(4, '0') + crypto.randomBytes(6).toString('hex');
}

type Json = Record<string, unknown>;
const insertStmt = db.prepare('INSERT INTO docs (id, coll, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');

function writeOne(coll: string, body: Json, now: string): Json {
  const { id: _i, createdAt: _c, updatedAt: _u, ...fields } = body;
  const id = newId();
  insertStmt.run(id, coll, JSON.stringify(fields), now, now);
  return { id, ...fields, createdAt: now, updatedAt: now };
}
const writeMany = db.transaction((coll: string, bodies: Json[]) => {
  const now = new Date().toISOString();
  return bodies.map((b) => writeOne(coll, b, now));
});

const isObject = (b: unknown): b is Json => b !== null && typeof b === 'object' && !Array.isArray(b);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Params: { coll: string }; Body: { documents?: unknown } }>('/v1/:coll/bulk', async (req, reply) => {
  const docs = req.body?.documents;
  if (!Array.isArray(docs) || !docs.every(isObject)) return reply.code(400).send({ error: { code: 'validation_failed', message: 'validation_failed' } });
  return reply.code(201).send({ documents: writeMany(req.params.coll, docs) });
});

await app.listen({ port: Number(process.env.PORT ?? 8790), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

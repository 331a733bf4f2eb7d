/**
 * The peers benchmark's floor (issue 30): the same Fastify + better-sqlite3 server the side-by-side
 * comparison with Parse Server runs as "bare", for the routes its insert and list-busy scenarios send,
 * in svc's wire shapes. WAL, `synchronous = NORMAL`; one table with a JSON column and one index on
 * (collection, created_at, id); a list's total is `count(*)` of the collection, as any server without
 * a counter must. No auth, rate limits, change log, events or mixed-type ordering: what svc costs above
 * it is the price of those.
 *
 *   POST /v1/:coll/docs   one JSON object → 201 the document
 *   GET  /v1/:coll/docs   ?limit&offset&sortBy=createdAt|updatedAt|id&sortOrder → {documents, total, limit, offset}
 *   POST /v1/:coll/bulk   {documents} → 201 {documents} (one transaction; seeding)
 *
 * `BARE_DB=<file> PORT=<port> node --import tsx bench/baseline/bare-peers.ts` (or DB_PATH=<file>)
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(process.env.BARE_DB ?? process.env.DB_PATH ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, coll TEXT NOT NULL, data TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS docs_coll_created ON docs (coll, created_at, id);`);

// Time-sortable id, as the peers' bare server makes them: 12 hex digits of milliseconds, 4 of a per-ms counter, 12 random.
let lastMs = 0;
let seq = 0;
function newId(): string {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  return ms.toString(16).padStart(12, '0') + (seq & 0xffff).toString(16).padStart(4, '0') + randomBytes(6).toString('hex');
}

type Json = Record<string, unknown>;
type Row = { id: string; data: string; created_at: string; updated_at: string };
const insert = db.prepare('INSERT INTO docs (id, coll, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
const toDoc = (r: Row): Json => ({ id: r.id, ...(JSON.parse(r.data) as Json), createdAt: r.created_at, updatedAt: r.updated_at });
function writeOne(coll: string, body: Json, now: string): Json {
  const { id: _i, createdAt: _c, updatedAt: _u, ...fields } = body;
  const id = newId();
  insert.run(id, coll, JSON.stringify(fields), now, now);
  return { id, ...fields, createdAt: now, updatedAt: now };
}
const writeMany = db.transaction((coll: string, bodies: Json[]) => {
  const now = new Date().toISOString();
  return bodies.map((b) => writeOne(coll, b, now));
});

const SORT: Record<string, string> = { createdAt: 'created_at', updatedAt: 'updated_at', id: 'id' };
const statements = new Map<string, Database.Statement>();
const prepared = (sql: string) => {
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s;
};
const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM docs WHERE coll = ?');

const isObject = (b: unknown): b is Json => b !== null && typeof b === 'object' && !Array.isArray(b);
const app = Fastify({ logger: false, bodyLimit: 16 * 2 ** 20 });
app.get('/health', async () => ({ status: 'ok' }));
app.post<{ Params: { coll: string } }>('/v1/:coll/docs', async (req, reply) => {
  if (!isObject(req.body)) return reply.code(400).send({ error: { code: 'validation_failed' } });
  return reply.code(201).send(writeMany(req.params.coll, [req.body])[0]);
});
app.post<{ Params: { coll: string }; Body: { documents?: unknown } }>('/v1/:coll/bulk', async (req, reply) => {
  const docs = req.body?.documents;
  if (!Array.isArray(docs) || !docs.every(isObject)) return reply.code(400).send({ error: { code: 'validation_failed' } });
  return reply.code(201).send({ documents: writeMany(req.params.coll, docs) });
});
app.get<{ Params: { coll: string }; Querystring: Record<string, string> }>('/v1/:coll/docs', async (req, reply) => {
  const q = req.query;
  const limit = q.limit === undefined ? 20 : Number(q.limit);
  const offset = q.offset === undefined ? 0 : Number(q.offset);
  const column = SORT[q.sortBy ?? 'createdAt'];
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000 || !Number.isInteger(offset) || offset < 0 || !column) {
    return reply.code(400).send({ error: { code: 'invalid_query' } });
  }
  const dir = q.sortOrder === 'desc' ? 'DESC' : 'ASC';
  const rows = prepared(`SELECT id, data, created_at, updated_at FROM docs WHERE coll = ? ORDER BY ${column} ${dir}, id ${dir} LIMIT ? OFFSET ?`).all(
    req.params.coll,
    limit,
    offset,
  ) as Row[];
  return { documents: rows.map(toDoc), total: count.get(req.params.coll)?.n ?? 0, limit, offset };
});

await app.listen({ port: Number(process.env.PORT ?? 8790), host: process.env.HOST ?? '127.0.0.1' });
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

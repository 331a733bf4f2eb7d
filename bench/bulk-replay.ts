/**
 * `node --import tsx bench/bulk-replay.ts`: the PostgreSQL commit group's writing statement
 * (changes/append.ts) for groups of bulks of 100 of the peers' documents, replayed alone on a
 * fresh svc database's schema, and variants of it without one part (an index, a foreign key, the
 * events, …), each timed as the CPU of its backend (/proc/<pid>/stat) per 100 documents. Says which
 * part of the statement costs what; the variants change the scratch database only.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { random } from './lib/documents.ts';
import { call, startSvc } from './lib/svc.ts';

const GROUP = Number(process.env.BENCH_GROUP_BULKS ?? 10);
const REPS = Number(process.env.BENCH_REPS ?? 20);
const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(
    ' ',
  );
const rand = random(3);
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
const doc = (i: number) => ({
  title: `Note ${i} ${words(3)}`.slice(0, 40),
  body: words(14).slice(0, 90),
  status: ['open', 'closed', 'pending'][Math.floor(rand() * 3)],
  score: Math.floor(rand() * 100000),
  tags: [words(1), words(1)],
});
let nextVersion = 1;
const hex = (n: number) => n.toString(16).padStart(12, '0');
/** The group's documents as svc binds them: one record per document, or (`compact`) one per write of 100, its documents as [id, version, data] arrays. */
function documents(compact = false): string {
  const at = new Date().toISOString();
  const out: string[] = [];
  for (let w = 0; w < GROUP; w++) {
    const docs: string[] = [];
    for (let i = 0; i < 100; i++) {
      const v = nextVersion++;
      const id = `0193aaaa-bbbb-7ccc-8ddd-${hex(v)}`;
      const data = JSON.stringify(doc(v));
      docs.push(compact ? `["${id}",${v},${data}]` : `{"collection":"notes","id":"${id}","data":${data},"at":"${at}","version":${v}}`);
    }
    out.push(compact ? `{"collection":"notes","at":"${at}","documents":[${docs.join(',')}]}` : docs.join(','));
  }
  return `[${out.join(',')}]`;
}

const recs = (alias: string, cols: string) => `jsonb_to_recordset(CAST($2 AS jsonb)) AS ${alias}(${cols})`;
const DR = `dr AS MATERIALIZED (SELECT d.* FROM ${recs('d', 'collection text, id text, data jsonb, at text, version bigint')})`;
const COMPACT_DR = `dr AS MATERIALIZED (SELECT w.collection, x.e ->> 0 AS id, x.e -> 2 AS data, w.at, CAST(x.e ->> 1 AS bigint) AS version
  FROM ${recs('w', 'collection text, at text, documents jsonb')}, jsonb_array_elements(w.documents) AS x(e))`;
const statement = (schema: string, events = true, dr = DR) => `WITH ${dr},
  ctr AS (UPDATE databases SET last_event_id = last_event_id + 1 WHERE id = $1 RETURNING 1),${
    events
      ? `
  ins AS (INSERT INTO ${schema}.events (database_id, id, collection, type, document_id, document, previous, created_at)
    SELECT CAST($1 AS text), d.version, d.collection, 'document.created', d.id, jsonb_build_object('id', d.id, 'createdAt', d.at, 'updatedAt', d.at) || d.data, NULL, d.at FROM dr d RETURNING 1),`
      : ''
  }
  docs AS (INSERT INTO ${schema}.documents (database_id, collection, id, data, created_at, updated_at, version)
    SELECT CAST($1 AS text), d.collection, d.id, d.data, d.at, d.at, d.version FROM dr d RETURNING 1)
  SELECT 1`;

/** Each variant: its schema's tables made from public's by these statements (`$s`: the schema). */
const collateC = (table: string, columns: string[]) => `ALTER TABLE $s.${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE text COLLATE "C"`).join(', ')}`;
const FKS = [
  'ALTER TABLE $s.documents ADD FOREIGN KEY (database_id) REFERENCES databases(id) ON DELETE CASCADE',
  'ALTER TABLE $s.events ADD FOREIGN KEY (database_id) REFERENCES databases(id) ON DELETE CASCADE',
];
const variants: Record<string, { ddl: string[]; sql?: string; events?: boolean; compact?: boolean }> = {
  'one record per document, foreign keys (before)': { ddl: FKS },
  'text keys COLLATE "C"': {
    ddl: [
      ...FKS,
      collateC('documents', ['collection', 'id', 'created_at', 'updated_at']),
      collateC('events', ['collection', 'type', 'document_id', 'created_at']),
    ],
  },
  'no events_by_time': { ddl: [...FKS, 'DROP INDEX $s.events_created_at_idx'] },
  'no foreign keys': { ddl: [] },
  'no documents_by_updated': { ddl: [...FKS, 'DROP INDEX $s.documents_database_id_collection_updated_at_id_idx'] },
  'no events at all': { ddl: FKS, events: false },
  'records per write': { ddl: FKS, compact: true },
  'records per write, no foreign keys (now)': { ddl: [], compact: true },
  'records per write parsed only': { ddl: [], compact: true, sql: `WITH ${COMPACT_DR} SELECT count(*) FROM dr WHERE CAST($1 AS text) IS NOT NULL` },
  'records parsed only': { ddl: [], sql: `WITH ${DR} SELECT count(*) FROM dr WHERE CAST($1 AS text) IS NOT NULL` },
};
const runNs = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

const svc = await startSvc('postgres');
try {
  await call(svc.url, 'POST', '/v1/notes/docs', svc.key, { a: 1 });
  const dbName = (await svc.query<{ d: string }>('SELECT current_database() AS d'))[0].d;
  const u = new URL(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  u.pathname = `/${dbName}`;
  const c = new pg.Client({ connectionString: u.toString() });
  c.on('error', () => undefined);
  await c.connect();
  const [{ id }] = (await c.query('SELECT id FROM databases LIMIT 1')).rows;
  const [{ pid }] = (await c.query('SELECT pg_backend_pid() AS pid')).rows;
  await c.query('SET synchronous_commit = off');
  const only = process.env.BENCH_VARIANTS?.split(',');
  const chosen = Object.entries(variants).filter(([name]) => !only || only.some((o) => name.startsWith(o)));
  const runs = chosen.map(([name, v], i) => ({ name, sql: v.sql ?? statement(`v${i}`, v.events, v.compact ? COMPACT_DR : DR), compact: v.compact, ns: 0 }));
  for (const [i, [, v]] of chosen.entries()) {
    await c.query(`CREATE SCHEMA v${i}`);
    await c.query(`CREATE TABLE v${i}.documents (LIKE public.documents INCLUDING ALL)`);
    await c.query(`CREATE TABLE v${i}.events (LIKE public.events INCLUDING ALL)`);
    for (const d of v.ddl) await c.query(d.replaceAll('$s', `v${i}`));
  }
  const once = async (sql: string, compact?: boolean) => {
    const p = documents(compact);
    await c.query(`BEGIN; SELECT 1 FROM databases WHERE id = '${id}' FOR NO KEY UPDATE`);
    const t0 = runNs(pid);
    await c.query({ text: sql, values: [id, p] });
    const t1 = runNs(pid);
    await c.query('COMMIT');
    return t1 - t0;
  };
  for (const r of runs) await once(r.sql, r.compact); // plans, caches
  for (let rep = 0; rep < REPS; rep++) for (const r of rep % 2 ? [...runs].reverse() : runs) r.ns += await once(r.sql, r.compact);
  for (const r of runs) console.log(`${r.name.padEnd(32)} ${(r.ns / 1e6 / (REPS * GROUP)).toFixed(3)} ms CPU per 100 documents`);
  await c.end();
} finally {
  await svc.stop();
}

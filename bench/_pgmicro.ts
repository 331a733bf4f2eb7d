import pg from 'pg';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { newKey } from '../packages/client/src/http.ts';
import { oneDocBody } from './lib/documents.ts';
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const cpu = (pid: number) => { const s = readFileSync(`/proc/${pid}/stat`, 'utf8'); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(f[11]) + Number(f[12])) * TICK_MS; };
const admin = new pg.Client('postgres://postgres@127.0.0.1:5432/postgres'); await admin.connect();
const name = `idem_micro_${process.pid}`;
await admin.query(`CREATE DATABASE ${name}`);
const variants = [
  { v: 'none-keyless', ddl: '', keyed: false },
  { v: 'fk+btree', ddl: 'REFERENCES databases(id) ON DELETE CASCADE', idx: 'btree', keyed: true },
  { v: 'btree', ddl: '', idx: 'btree', keyed: true },
  { v: 'fk', ddl: 'REFERENCES databases(id) ON DELETE CASCADE', keyed: true },
  { v: 'none', ddl: '', keyed: true },
  { v: 'brin', ddl: '', idx: 'brin', keyed: true },
];
const c = new pg.Client(`postgres://postgres@127.0.0.1:5432/${name}`); await c.connect();
const pid = (await c.query('SELECT pg_backend_pid() AS p')).rows[0].p;
await c.query(`CREATE TABLE databases (id TEXT PRIMARY KEY, n int)`);
await c.query(`INSERT INTO databases VALUES ('db1', 0)`);
for (const [i, v] of variants.entries()) {
  await c.query(`CREATE TABLE k${i} (scope TEXT NOT NULL, key TEXT NOT NULL, database_id TEXT NOT NULL ${v.ddl}, fingerprint TEXT NOT NULL, claimed_at TEXT NOT NULL, status INTEGER, etag TEXT, body TEXT, PRIMARY KEY (scope, key))`);
  if (v.idx) await c.query(`CREATE INDEX ON k${i} USING ${v.idx} (claimed_at)`);
}
const G = 25, STMTS = 400;
const samples = variants.map(() => [] as number[]);
let n = 0;
async function run(i: number) {
  const v = variants[i];
  const sql = v.keyed
    ? `WITH ctr AS (UPDATE databases SET n = n + 1 WHERE id = 'db1' RETURNING 1), idem AS (INSERT INTO k${i} (scope, key, database_id, fingerprint, claimed_at, status, etag, body) SELECT a.scope, a.key, CAST($1 AS text), a.fingerprint, a.claimed_at, a.status, a.etag, a.body FROM jsonb_to_recordset(CAST($2 AS jsonb)) AS a(scope text, key text, fingerprint text, claimed_at text, status int, etag text, body text) RETURNING 1) SELECT 1`
    : `WITH ctr AS (UPDATE databases SET n = n + 1 WHERE id = 'db1' RETURNING 1) SELECT 1`;
  const params: string[][] = [];
  for (let s = 0; s < STMTS; s++) {
    const rows: string[] = [];
    for (let j = 0; j < G; j++) { n++; const at = new Date().toISOString(); rows.push(`{"scope":"database:db1","key":"${newKey()}","fingerprint":"abcdefghijabcdefghijabcdefghijabcdefghijabc","claimed_at":"${at}","status":201,"etag":"\\"${n}\\"","body":${JSON.stringify(`{"id":"${newKey()}","createdAt":"${at}","updatedAt":"${at}",${oneDocBody.slice(1)}`)}}`); }
    params.push(v.keyed ? ['db1', `[${rows.join(',')}]`] : []);
  }
  const c0 = cpu(pid);
  for (const p of params) { await c.query('BEGIN'); await c.query({ name: `s${i}`, text: sql, values: p }); await c.query('COMMIT'); }
  samples[i].push(((cpu(pid) - c0) / (STMTS * G)) * 1000);
}
for (let i = 0; i < variants.length; i++) await run(i);
for (let r = 0; r < 15; r++) for (const i of r % 2 ? [...variants.keys()].reverse() : variants.keys()) await run(i);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const minv = (xs: number[]) => Math.min(...xs);
for (const [i, v] of variants.entries()) console.log(v.v.padEnd(14), 'median µs/row', med(samples[i]).toFixed(1), 'min', minv(samples[i]).toFixed(1));
await c.end();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); await admin.end();

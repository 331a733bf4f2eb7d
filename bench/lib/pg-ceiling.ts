/**
 * PostgreSQL alone: how many small write transactions the server commits per second, driven by the
 * bench process over node-postgres with no HTTP and no svc, as the reference for svc's write rows.
 *
 * Two shapes, on a throw-away database:
 * - independent: `BEGIN; INSERT one ~170-byte JSON row; COMMIT`: PostgreSQL's own commit throughput,
 *   where concurrent commits share WAL flushes;
 * - one hot row: `BEGIN; UPDATE one counter row; INSERT; COMMIT`: every transaction takes the same
 *   row lock and holds it to COMMIT, so they run one after the other, as svc's writes to one database
 *   do on its change-log counter (`databases.last_event_id`, src/changes/append.ts);
 * - point read: `SELECT data … WHERE id = $1` (a random row written above), no transaction: what a
 *   get by id or a key lookup asks of the server.
 */
import pg from 'pg';
import { oneDocBody } from './documents.ts';
import { now, percentiles } from './stats.ts';

type Shape = 'independent' | 'hot row' | 'point read';

/** Commits (reads) per second and per-transaction latency (ms) of one shape. */
export interface CeilingResult {
  shape: Shape;
  tps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function admin(adminUrl: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Runs the three shapes for `seconds` each with `connections` clients, on a database created and dropped here. */
export async function postgresCeiling(adminUrl: string, connections: number, seconds: number, warmupSeconds: number): Promise<CeilingResult[]> {
  const name = `svc_bench_pg_${process.pid}_${Date.now()}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const clients: pg.Client[] = [];
  try {
    for (let i = 0; i < connections; i++) {
      const c = new pg.Client({ connectionString: u.toString() });
      await c.connect();
      clients.push(c);
    }
    await clients[0].query('CREATE TABLE rows (id BIGSERIAL PRIMARY KEY, data JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    await clients[0].query('CREATE TABLE counter (id INT PRIMARY KEY, n BIGINT NOT NULL)');
    await clients[0].query('INSERT INTO counter VALUES (1, 0)');
    const results: CeilingResult[] = [];
    let maxId = 1;
    for (const shape of ['independent', 'hot row', 'point read'] as const) {
      if (shape === 'point read') maxId = Number((await clients[0].query<{ n: string }>('SELECT max(id) AS n FROM rows')).rows[0].n ?? 1);
      const once = async (c: pg.Client) => {
        if (shape === 'point read') {
          await c.query({ name: 'read', text: 'SELECT data FROM rows WHERE id = $1', values: [1 + Math.floor(Math.random() * maxId)] });
          return;
        }
        await c.query('BEGIN');
        if (shape === 'hot row') await c.query({ name: 'bump', text: 'UPDATE counter SET n = n + 1 WHERE id = 1' });
        await c.query({ name: 'insert', text: 'INSERT INTO rows (data) VALUES ($1)', values: [oneDocBody] });
        await c.query('COMMIT');
      };
      const loop = async (c: pg.Client, until: number, latencies?: number[]) => {
        let errors = 0;
        while (now() < until) {
          const t = now();
          try {
            await once(c);
            latencies?.push(now() - t);
          } catch {
            errors++;
            await c.query('ROLLBACK').catch(() => undefined);
          }
        }
        return errors;
      };
      if (warmupSeconds > 0) await Promise.all(clients.map((c) => loop(c, now() + warmupSeconds * 1000)));
      const latencies: number[] = [];
      const started = now();
      const errors = (await Promise.all(clients.map((c) => loop(c, started + seconds * 1000, latencies)))).reduce((a, b) => a + b, 0);
      const elapsed = (now() - started) / 1000;
      const p = percentiles(latencies);
      results.push({ shape, tps: latencies.length / elapsed, p50: p.p50, p99: p.p99, errors });
    }
    return results;
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

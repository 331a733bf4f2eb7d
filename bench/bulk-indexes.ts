import autocannon, { type Request } from 'autocannon';
import { cpuMs, median } from './lib/cpu.ts';
import { peerBulkBodies, peerDoc, random } from './lib/documents.ts';
import { benchStores, call, seed, startSvc, type Svc, waitForIndexes } from './lib/svc.ts';
import { inNamedCollection } from '../packages/server/src/documents/key-sql.ts';
import { compileFilter } from '../packages/server/src/documents/query.ts';
import { orderClause, sortOf } from '../packages/server/src/documents/keyset.ts';
import { withLiterals } from '../packages/server/src/store/postgres/statements.ts';
import { sqliteJson } from '../packages/server/src/store/sqlite/json-sql.ts';
import { postgresJson } from '../packages/server/src/store/postgres/json-sql.ts';
import type { Dialect } from '../packages/server/src/store/store.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const BULKS = Number(process.env.BENCH_BULKS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_BULK_CONNECTIONS ?? 8);
const OLD_ROOT = process.env.BENCH_OLD_ROOT ?? '/work/main';

// The peers' bulk bodies, as bench/scenarios/bulk.ts sends them.
const bodies = peerBulkBodies(200, 100);
let nextBody = 0;

interface Side {
  name: 'old' | 'new';
  svc: Svc;
  dbName?: string;
}

async function start(store: 'sqlite' | 'postgres', name: Side['name']): Promise<Side> {
  const saved = process.env.BENCH_SVC_ROOT;
  if (name === 'old') process.env.BENCH_SVC_ROOT = OLD_ROOT;
  else delete process.env.BENCH_SVC_ROOT;
  try {
    const svc = await startSvc(store);
    const dbName = store === 'postgres' ? (await svc.query<{ d: string }>('SELECT current_database() AS d'))[0].d : undefined;
    return { name, svc, dbName };
  } finally {
    if (saved === undefined) delete process.env.BENCH_SVC_ROOT;
    else process.env.BENCH_SVC_ROOT = saved;
  }
}

async function bulks(svc: Svc, amount: number): Promise<void> {
  const insert: Request = {
    method: 'POST',
    path: '/v1/notes/bulk',
    headers: { 'content-type': 'application/json' },
    body: bodies[0],
    setupRequest: (req: Request) => ({ ...req, body: bodies[nextBody++ % bodies.length] }),
  };
  const r = await autocannon({
    url: svc.url,
    connections: CONNECTIONS,
    amount,
    timeout: 60,
    headers: { authorization: `Bearer ${svc.key}` },
    requests: [insert],
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad) throw new Error(`${bad} failed bulks`);
}

/**
 * CPU ms per bulk of svc's process and of its database's backends, over `BULKS` bulks. A short
 * burst first opens the pool's connections again (pg's pool closes those idle for 10 s, as they are
 * while the other side runs its round); a backend that appears during the round counts whole.
 */
async function measure(side: Side): Promise<{ svc: number; backends: number }> {
  const pid = side.svc.child.pid!;
  const backendPids = async () =>
    side.dbName ? (await side.svc.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = '${side.dbName}'`)).map((r) => r.pid) : [];
  await bulks(side.svc, CONNECTIONS * 2);
  const before = new Map((await backendPids()).map((p) => [p, cpuMs(p)]));
  const s0 = cpuMs(pid);
  await bulks(side.svc, BULKS);
  const s1 = cpuMs(pid);
  let backends = 0;
  for (const p of new Set([...before.keys(), ...(await backendPids())])) {
    const now = cpuMs(p);
    if (now > 0) backends += now - (before.get(p) ?? 0);
  }
  return { svc: (s1 - s0) / BULKS, backends: backends / BULKS };
}

/**
 * The query plan of the list's core, as this tree spells it for a collection with indexes of its own
 * (list.ts adds the page's columns and its size window around it), values written in as literals.
 */
async function plan(side: Side): Promise<string> {
  // What the spelling reads of a dialect: its JSON SQL and its key placeholder (store.ts keyParam).
  const dialect = (side.dbName ? { json: postgresJson, keyParam: '?' } : { json: sqliteJson, keyParam: '+?' }) as Dialect;
  const f = compileFilter(dialect.json, JSON.stringify({ status: 'open' }));
  const order = orderClause(sortOf(dialect.json, { path: ['score'] }, true));
  const databaseId = (await side.svc.query<{ id: string }>('SELECT id FROM databases LIMIT 1'))[0].id;
  const sql = withLiterals(`SELECT id FROM documents WHERE ${inNamedCollection(dialect, 'listdocs')} AND (${f.sql}) ORDER BY ${order} LIMIT 21`, [
    databaseId,
    ...f.params,
  ]);
  const rows = await side.svc.query<Record<string, string>>(`${side.dbName ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN'} ${sql}`);
  return rows.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
}

const LIST = `/v1/listdocs/docs?limit=20&sortBy=score&sortOrder=desc&filter=${encodeURIComponent(JSON.stringify({ status: 'open' }))}`;

const { stores } = await benchStores();
for (const store of stores) {
  const sides: Side[] = [];
  try {
    for (const name of ['old', 'new'] as const) sides.push(await start(store, name));
    for (const side of sides) {
      const { svc } = side;
      const seedRnd = random(2);
      await seed({ url: svc.url, bulkPath: '/v1/listdocs/bulk', key: svc.key, count: DOCS, make: (i) => peerDoc(seedRnd, i), parallel: 4 });
      await svc.settle();
      const listOnce = async () => void (await call(svc.url, 'GET', LIST, svc.key));
      for (let i = 0; i < 3; i++) await listOnce();
      await waitForIndexes(svc, ['score', 'status'], listOnce);
      const built = await svc.query<{ path: string }>('SELECT path FROM document_indexes ORDER BY path');
      console.log(`${store} ${side.name}: indexes ${built.map((r) => r.path).join(', ')}`);
      if (side.name === 'new') console.log(`${store} new: plan of the list's core (collection named, filter status, order score desc):\n${await plan(side)}`);
      await bulks(svc, 100); // warm-up
    }
    const rows: Record<string, Array<{ svc: number; backends: number }>> = { old: [], new: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        const m = await measure(side);
        rows[side.name].push(m);
        console.log(
          `${store} round ${round} ${side.name}: svc ${m.svc.toFixed(2)} ms CPU per bulk of 100` +
            (side.dbName ? `, backends ${m.backends.toFixed(2)} ms` : ''),
        );
      }
    }
    for (const name of ['old', 'new'] as const) {
      const r = rows[name];
      const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`;
      console.log(
        `${store} ${name}: median svc ${median(r.map((x) => x.svc)).toFixed(2)} ms (${range(r.map((x) => x.svc))})` +
          (store === 'postgres' ? `, backends ${median(r.map((x) => x.backends)).toFixed(2)} ms (${range(r.map((x) => x.backends))})` : ''),
      );
    }
  } finally {
    for (const side of sides) await side.svc.stop();
  }
}

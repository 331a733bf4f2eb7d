/**
 * CPU per insert with and without an Idempotency-Key (svc's process, and on PostgreSQL its backends),
 * 50 connections, in alternating rounds: BENCH_COST_ROUNDS (5) of BENCH_COST_REQUESTS (6,000).
 * BENCH_OLD_ROOT=<tree> measures another tree beside this one; BENCH_KEYS=random sends random keys
 * (UUIDv4) instead of the SDK's (UUIDv7); BENCH_STORES narrows the stores.
 *
 *   BENCH_STORES=sqlite BENCH_KEYS=random node --import tsx bench/keyed-cost.ts
 */
import { randomUUID } from 'node:crypto';
import autocannon, { type Request } from 'autocannon';
import { newKey } from '../packages/client/src/http.ts';
import { cpuMs, median } from './lib/cpu.ts';
import { oneDocBody } from './lib/documents.ts';
import { ROOT } from './lib/paths.ts';
import { benchStores, startSvc, type Svc } from './lib/svc.ts';

const REQUESTS = Number(process.env.BENCH_COST_REQUESTS ?? 6000);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 5);
const CONNECTIONS = 50;

interface Tree {
  name: string;
  svc: Svc;
  dbName?: string;
  samples: Record<Shape, Array<{ svc: number; backends: number }>>;
}
type Shape = 'plain' | 'keyed';
const keyOf = process.env.BENCH_KEYS === 'random' ? randomUUID : () => newKey();

// Every request carries a fresh UUID in a header, so the load generator does the same work for both shapes.
const requestOf = (shape: Shape): Request => ({
  method: 'POST',
  path: `/v1/${shape}/docs`,
  headers: { 'content-type': 'application/json' },
  body: oneDocBody,
  setupRequest: (req: Request) => ({
    ...req,
    headers: { ...req.headers, ...(shape === 'keyed' ? { 'idempotency-key': keyOf() } : { 'x-nonce': randomUUID() }) },
  }),
});

async function load(svc: Svc, shape: Shape, amount: number): Promise<void> {
  const r = await autocannon({
    url: svc.url,
    connections: CONNECTIONS,
    amount,
    timeout: 30,
    headers: { authorization: `Bearer ${svc.key}` },
    requests: [requestOf(shape)],
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad) throw new Error(`${bad} failed requests`);
}

async function measure(t: Tree, shape: Shape): Promise<void> {
  const backends = t.dbName ? (await t.svc.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = '${t.dbName}'`)).map((r) => r.pid) : [];
  const sum = () => backends.reduce((a, p) => a + cpuMs(p), 0);
  const s0 = cpuMs(t.svc.child.pid!);
  const b0 = sum();
  await load(t.svc, shape, REQUESTS);
  t.samples[shape].push({ svc: cpuMs(t.svc.child.pid!) - s0, backends: sum() - b0 });
}

const us = (ms: number) => (ms / REQUESTS) * 1000;

const roots = [...(process.env.BENCH_OLD_ROOT ? [{ name: 'old', root: process.env.BENCH_OLD_ROOT }] : []), { name: 'new', root: ROOT }];
const { stores } = await benchStores();
for (const store of stores) {
  const trees: Tree[] = [];
  try {
    for (const { name, root } of roots) {
      process.env.BENCH_SVC_ROOT = root;
      const svc = await startSvc(store);
      const dbName = store === 'postgres' ? (await svc.query<{ d: string }>('SELECT current_database() AS d'))[0].d : undefined;
      trees.push({ name, svc, dbName, samples: { plain: [], keyed: [] } });
    }
    for (const t of trees) for (const shape of ['plain', 'keyed'] as const) await load(t.svc, shape, 3000);
    for (let round = 0; round < ROUNDS; round++) {
      // Trees and shapes in a turning order, so that load from elsewhere falls on each alike.
      const order = round % 2 ? [...trees].reverse() : trees;
      for (const t of order) for (const shape of (round % 2 ? ['keyed', 'plain'] : ['plain', 'keyed']) as Shape[]) await measure(t, shape);
    }
    for (const t of trees) {
      const m = (shape: Shape, f: (s: { svc: number; backends: number }) => number) => us(median(t.samples[shape].map(f)));
      const line = (shape: Shape) =>
        `svc ${m(shape, (s) => s.svc).toFixed(0)} + backends ${m(shape, (s) => s.backends).toFixed(0)} = ${m(shape, (s) => s.svc + s.backends).toFixed(0)}`;
      const ratio = m('keyed', (s) => s.svc + s.backends) / m('plain', (s) => s.svc + s.backends);
      // Each round's plain and keyed ran back to back: the median of their ratios weighs less the load that came and went between rounds.
      const perRound = median(t.samples.plain.map((p, i) => (p.svc + p.backends) / (t.samples.keyed[i].svc + t.samples.keyed[i].backends)));
      console.log(
        `${store.padEnd(8)} ${t.name}: µs CPU per insert, plain ${line('plain')} | keyed ${line('keyed')} | plain/keyed ${(100 / ratio).toFixed(1)} % (median of the rounds' ${(100 * perRound).toFixed(1)} %)`,
      );
      console.log(
        `         ${t.name} rounds (svc+backends µs): plain ${t.samples.plain.map((s) => us(s.svc + s.backends).toFixed(0)).join(' ')} | keyed ${t.samples.keyed.map((s) => us(s.svc + s.backends).toFixed(0)).join(' ')}`,
      );
    }
  } finally {
    for (const t of trees) await t.svc.stop();
  }
}

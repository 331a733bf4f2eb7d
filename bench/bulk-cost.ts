import { join } from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { cpuMs, median } from './lib/cpu.ts';
import { peerBulkBodies, peerDoc, random } from './lib/documents.ts';
import { ROOT } from './lib/paths.ts';
import { seed, startSvc, type Svc } from './lib/svc.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 0);
const BULKS = Number(process.env.BENCH_BULKS ?? 400);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 4);
const CONNECTIONS = 50;

// The peers' bulk bodies, as bench/scenarios/bulk.ts sends them.
const bodies = peerBulkBodies(200, 100);
let nextBody = 0;

interface Sample {
  svc: number;
  backends: number;
  wall: number;
}

async function load(svc: Svc, amount: number): Promise<void> {
  const bulk: Request = {
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
    requests: [bulk],
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad) throw new Error(`${bad} failed requests`);
}

/**
 * The pool opens and closes connections as the load moves, so the database's backends are
 * looked up every 100 ms: one that appears during the round counts from 0, one that ends keeps
 * its last reading.
 */
async function sample(svc: Svc, dbName: string): Promise<Sample> {
  const backendPids = async () => (await svc.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}'`)).map((r) => r.pid);
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  for (const p of await backendPids()) first.set(p, cpuMs(p));
  const watch = async () => {
    for (const p of await backendPids()) {
      if (!first.has(p)) first.set(p, 0);
      const ms = cpuMs(p);
      if (ms > 0) last.set(p, ms);
    }
  };
  const pid = svc.child.pid!;
  const s0 = cpuMs(pid);
  const t0 = performance.now();
  let done = false;
  const watching = (async () => {
    while (!done) {
      await watch();
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await load(svc, BULKS);
  const wall = performance.now() - t0;
  const s1 = cpuMs(pid);
  done = true;
  await watching;
  await watch();
  let backends = 0;
  for (const [p, from] of first) backends += (last.get(p) ?? from) - from;
  return { svc: s1 - s0, backends, wall };
}

/** Per tree, its collections since the last round's report, by kind (--trace-gc lines: `… Scavenge 12.1 (…) -> … , 0.85 / 0.00 ms …`). */
const collections = new Map<string, Map<string, { n: number; ms: number }>>();
function countCollections(tree: string, text: string): void {
  for (const m of text.matchAll(/: (Scavenge|Mark-Compact|Mark-sweep|Mark-Compact \(reduce\)|Minor Mark-Sweep)[^,]*, ([\d.]+) \/ [\d.]+ ms/g)) {
    let kinds = collections.get(tree);
    if (!kinds) collections.set(tree, (kinds = new Map()));
    const k = kinds.get(m[1]) ?? { n: 0, ms: 0 };
    k.n++;
    k.ms += Number(m[2]);
    kinds.set(m[1], k);
  }
}
function reportCollections(tree: string): string {
  const kinds = collections.get(tree);
  collections.delete(tree);
  return kinds ? ` | gc ${[...kinds].map(([k, v]) => `${k} ${v.n}× ${v.ms.toFixed(0)} ms`).join(', ')}` : '';
}

const trees = [
  { name: 'old', root: process.env.BENCH_OLD_ROOT ?? ROOT },
  { name: 'new', root: process.env.BENCH_NEW_ROOT ?? ROOT },
];
const servers: Array<{ name: string; svc: Svc; db: string; samples: Sample[] }> = [];
try {
  for (const t of trees) {
    process.env.BENCH_SVC_ROOT = t.root;
    const svc = await startSvc('postgres', process.env.BENCH_TRACE_GC ? { NODE_OPTIONS: `--import=${join(ROOT, 'bench/lib/trace-gc.mjs')}` } : {});
    svc.child.stdout?.on('data', (chunk: Buffer) => countCollections(t.name, chunk.toString()));
    const db = (await svc.query<{ d: string }>('SELECT current_database() AS d'))[0].d;
    servers.push({ name: t.name, svc, db, samples: [] });
    if (DOCS > 0) {
      const r = random(2);
      await seed({ url: svc.url, bulkPath: '/v1/notes/bulk', key: svc.key, count: DOCS, make: (i) => peerDoc(r, i), parallel: 3 });
      await svc.settle();
    }
    await load(svc, 200);
    reportCollections(t.name);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      const x = await sample(s.svc, s.db);
      s.samples.push(x);
      const per = (ms: number) => (ms / BULKS).toFixed(2);
      console.log(
        `round ${round} ${s.name}: ms CPU per bulk svc ${per(x.svc)} backends ${per(x.backends)} | cores svc ${(x.svc / x.wall).toFixed(2)} backends ${(x.backends / x.wall).toFixed(2)} | wall ${per(x.wall)} ms/bulk${reportCollections(s.name)}`,
      );
    }
  }
  for (const s of servers) {
    const col = (f: (x: Sample) => number) => `${(median(s.samples.map(f)) / BULKS).toFixed(2)} [${s.samples.map((x) => (f(x) / BULKS).toFixed(2)).join(' ')}]`;
    console.log(`${s.name} (${DOCS} docs first): median ms per bulk svc ${col((x) => x.svc)}  backends ${col((x) => x.backends)}`);
  }
} finally {
  for (const s of servers) await s.svc.stop();
}

/**
 * `node --import tsx bench/bulk-cost.ts`: CPU time per `POST /v1/notes/bulk` of 100 of the peers'
 * ~200-byte documents (bulk.ts's shape) at 50 connections, on PostgreSQL, of two svc trees side by
 * side, rounds alternating between them: svc's process (all threads, /proc/<pid>/stat utime +
 * stime, as cost.ts reads it) and the backends of its database (pg_stat_activity), with the cores
 * each used over the round's wall time (a process well under one core waits, on round trips or
 * on the database's lock, rather than computes). A fixed number of bulks per round after a
 * warm-up; no rates (the machine is shared).
 *
 * BENCH_OLD_ROOT / BENCH_NEW_ROOT: the trees (default: this one for both); BENCH_DOCS: documents
 * seeded into `notes` first (0: a fresh database); BENCH_BULKS (400) per round; BENCH_COST_ROUNDS
 * (4) per tree; BENCH_CPU_PROF=<dir> profiles both servers (startSvc).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';
import { random } from './lib/documents.ts';
import { ROOT } from './lib/paths.ts';
import { seed, startSvc, type Svc } from './lib/svc.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 0);
const BULKS = Number(process.env.BENCH_BULKS ?? 400);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 4);
const CONNECTIONS = 50;
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

// bulk.ts's documents: the peers' words, statuses and seeded generator.
const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november ' +
  'oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'
).split(' ');
const STATUSES = ['open', 'closed', 'pending'];
const words = (rand: () => number, n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
function makeDoc(rand: () => number, i: number): Record<string, unknown> {
  return {
    title: `Note ${i} ${words(rand, 3)}`.slice(0, 40),
    body: words(rand, 14).slice(0, 90),
    status: STATUSES[Math.floor(rand() * STATUSES.length)],
    score: Math.floor(rand() * 100000),
    tags: [WORDS[Math.floor(rand() * WORDS.length)], WORDS[Math.floor(rand() * WORDS.length)]],
  };
}
const rand = random(3);
const bodies = Array.from({ length: 200 }, (_, b) => JSON.stringify({ documents: Array.from({ length: 100 }, (_, i) => makeDoc(rand, b * 100 + i)) }));
let nextBody = 0;

function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}
const sum = (pids: number[]) => pids.reduce((a, p) => a + cpuMs(p), 0);

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
  const r = await autocannon({ url: svc.url, connections: CONNECTIONS, amount, timeout: 60, headers: { authorization: `Bearer ${svc.key}` }, requests: [bulk] });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad) throw new Error(`${bad} failed requests`);
}

async function sample(svc: Svc, dbName: string): Promise<Sample> {
  const backends = (await svc.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}'`)).map((r) => r.pid);
  const pid = svc.child.pid!;
  const s0 = cpuMs(pid);
  const b0 = sum(backends);
  const t0 = performance.now();
  await load(svc, BULKS);
  const wall = performance.now() - t0;
  return { svc: cpuMs(pid) - s0, backends: sum(backends) - b0, wall };
}

const trees = [
  { name: 'old', root: process.env.BENCH_OLD_ROOT ?? ROOT },
  { name: 'new', root: process.env.BENCH_NEW_ROOT ?? ROOT },
];
const servers: Array<{ name: string; svc: Svc; db: string; samples: Sample[] }> = [];
try {
  for (const t of trees) {
    process.env.BENCH_SVC_ROOT = t.root;
    const svc = await startSvc('postgres');
    const db = (await svc.query<{ d: string }>('SELECT current_database() AS d'))[0].d;
    servers.push({ name: t.name, svc, db, samples: [] });
    if (DOCS > 0) {
      const r = random(2);
      await seed({ url: svc.url, bulkPath: '/v1/notes/bulk', key: svc.key, count: DOCS, make: (i) => makeDoc(r, i), parallel: 3 });
      await svc.settle();
    }
    await load(svc, 200);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      const x = await sample(s.svc, s.db);
      s.samples.push(x);
      const per = (ms: number) => (ms / BULKS).toFixed(2);
      console.log(
        `round ${round} ${s.name}: ms CPU per bulk svc ${per(x.svc)} backends ${per(x.backends)} | cores svc ${(x.svc / x.wall).toFixed(2)} backends ${(x.backends / x.wall).toFixed(2)} | wall ${per(x.wall)} ms/bulk`,
      );
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  for (const s of servers) {
    const col = (f: (x: Sample) => number) => `${(median(s.samples.map(f)) / BULKS).toFixed(2)} [${s.samples.map((x) => (f(x) / BULKS).toFixed(2)).join(' ')}]`;
    console.log(`${s.name} (${DOCS} docs first): median ms per bulk svc ${col((x) => x.svc)}  backends ${col((x) => x.backends)}`);
  }
} finally {
  for (const s of servers) await s.svc.stop();
}

/**
 * `node --import tsx bench/cost.ts`: CPU time per request of busy.ts's shapes (insert one document;
 * list-busy: insert, then list 20 + total), at 50 connections, on each store: of svc's process (all
 * its threads, /proc/<pid>/stat utime + stime) and, on PostgreSQL, of the backends of svc's database
 * (pg_stat_activity) and of every `postgres:` process (WAL writer and checkpointer included, but also
 * anyone else's backends). Throughput on a shared machine says little; CPU per request says what a
 * change costs or saves. Per round and shape: a fixed number of requests (BENCH_COST_REQUESTS, 6,000)
 * after a warm-up; rounds alternate the shapes. On PostgreSQL also the commits per insert (the
 * database's xact_commit: a commit group's transaction counts one, so its inverse is the group size;
 * a list is a transaction of its own). No rates: autocannon's `amount` ends on its own clock's tick.
 *
 * BENCH_SVC_ROOT=<dir> runs another tree's svc (e.g. `git worktree add /tmp/x <rev>`); BENCH_STORES
 * narrows the stores; BENCH_DOCS (100,000) sizes `listdocs`; BENCH_CPU_PROF=<dir> writes svc's V8 profile
 * (and the monotonic-clock window of each measurement is printed, to sum its samples up).
 */
import { execFileSync } from 'node:child_process';
import autocannon, { type Request } from 'autocannon';
import { cpuMs } from './lib/cpu.ts';
import { random } from './lib/documents.ts';
import { benchStores, call, seed, startSvc, type Svc } from './lib/svc.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_COST_REQUESTS ?? 6000);
const ROUNDS = Number(process.env.BENCH_COST_ROUNDS ?? 3);
const CONNECTIONS = 50;
const LIST = '/v1/listdocs/docs?limit=20&sortBy=createdAt&sortOrder=desc';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');
function doc(rnd: () => number, i: number): Record<string, unknown> {
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)];
  return {
    title: `Note ${i} ${word()} ${word()}`,
    body: Array.from({ length: 14 }, word).join(' ').slice(0, 90),
    status: 'open',
    score: i,
    tags: [word(), word()],
  };
}
const rnd = random(3);
const bodies = Array.from({ length: 5000 }, (_, i) => JSON.stringify(doc(rnd, i)));
let nextBody = 0;

/** CPU milliseconds of each process now. */
const cpuOf = (pids: number[]) => new Map(pids.map((p) => [p, cpuMs(p)]));
/**
 * CPU spent since `before` by the processes alive now: one that ended in between (svc's pool
 * closes clients idle for 10 s, e.g. those of the lists while inserts run, and each query of this
 * harness is a backend of its own) would count its whole past as negative; one that started counts
 * from zero.
 */
const spent = (before: Map<number, number>, pids: number[]) => pids.reduce((a, p) => a + cpuMs(p) - (before.get(p) ?? 0), 0);
const allPostgres = () => {
  try {
    return execFileSync('pgrep', ['-f', 'postgres:']).toString().trim().split('\n').map(Number);
  } catch {
    return [];
  }
};

interface Sample {
  svc: number;
  backends: number;
  postgres: number;
  commits: number;
}

async function sample(svc: Svc, dbName: string | undefined, fn: () => Promise<void>): Promise<Sample> {
  const pid = svc.child.pid!;
  const backendPids = async () =>
    dbName
      ? (await svc.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = '${dbName}' AND pid <> pg_backend_pid()`)).map((r) => r.pid)
      : [];
  const allPids = () => (dbName ? allPostgres() : []);
  const commits = async () =>
    dbName ? Number((await svc.query<{ n: string }>(`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = '${dbName}'`))[0].n) : 0;
  if (dbName) await svc.query('SELECT pg_stat_clear_snapshot()');
  const c0 = await commits();
  const s0 = cpuMs(pid);
  const b0 = cpuOf(await backendPids());
  const a0 = cpuOf(allPids());
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  await fn();
  if (process.env.BENCH_CPU_PROF) console.log(`window ${svc.store} ${fromUs} ${Number(process.hrtime.bigint() / 1000n)}`);
  const s1 = cpuMs(pid);
  const b1 = spent(b0, await backendPids());
  const a1 = spent(a0, allPids());
  // The statistics collector reports a backend's counts when it goes idle: give it a moment.
  await new Promise((r) => setTimeout(r, 700));
  if (dbName) await svc.query('SELECT pg_stat_clear_snapshot()');
  const c1 = await commits();
  return { svc: s1 - s0, backends: b1, postgres: a1, commits: c1 - c0 };
}

async function load(svc: Svc, requests: Request[], amount: number): Promise<void> {
  const r = await autocannon({
    url: svc.url,
    connections: CONNECTIONS,
    amount,
    timeout: 30,
    headers: { authorization: `Bearer ${svc.key}` },
    requests,
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad) throw new Error(`${bad} failed requests`);
}

const insert: Request = {
  method: 'POST',
  path: '/v1/notes/docs',
  headers: { 'content-type': 'application/json' },
  body: bodies[0],
  setupRequest: (req: Request) => ({ ...req, body: bodies[nextBody++ % bodies.length] }),
};
const list: Request = { method: 'GET', path: LIST };

const { stores } = await benchStores();
for (const store of stores) {
  const svc = await startSvc(store);
  try {
    const dbName = store === 'postgres' ? (await svc.query<{ d: string }>('SELECT current_database() AS d'))[0].d : undefined;
    const seedRnd = random(2);
    await seed({ url: svc.url, bulkPath: '/v1/listdocs/bulk', key: svc.key, count: DOCS, make: (i) => doc(seedRnd, i), parallel: 4 });
    await svc.settle();
    await call(svc.url, 'GET', LIST, svc.key);
    await load(svc, [insert], 3000);
    await load(svc, [insert, list], 3000);
    const rows: Record<string, Sample[]> = { insert: [], pair: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rows.insert.push(await sample(svc, dbName, () => load(svc, [insert], REQUESTS)));
      rows.pair.push(await sample(svc, dbName, () => load(svc, [insert, list], REQUESTS)));
    }
    for (const [shape, samples] of Object.entries(rows)) {
      const per = shape === 'insert' ? REQUESTS : REQUESTS / 2;
      for (const s of samples) {
        const f = (ms: number) => ((ms / per) * 1000).toFixed(0).padStart(5);
        console.log(
          `${store.padEnd(8)} ${shape.padEnd(6)} µs CPU per ${shape === 'insert' ? 'insert' : 'pair  '}: svc ${f(s.svc)}  db backends ${f(s.backends)}  all postgres ${f(s.postgres)}` +
            (dbName ? `  | ${(s.commits / per).toFixed(3)} commits per ${shape}` : ''),
        );
      }
    }
  } finally {
    await svc.stop();
  }
}

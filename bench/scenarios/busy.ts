/**
 * Issue 30: the insert and list-busy shapes of the peers benchmark (svc beside Parse Server and a bare
 * floor), so the figure a developer sees here is the one a user sees there. 50 connections on both
 * stores, each svc row measured right after the same row on the peers' floor (baseline/bare-peers.ts:
 * Fastify + better-sqlite3, one table, a list's total by `count(*)`), in the same run:
 *
 * - insert: `POST /v1/notes/docs`, one ~200-byte document (5 fields, as the peers' documents), the
 *   bodies cycling through 5,000;
 * - list-busy: every connection in turn inserts into `notes` and lists the 20 newest of `listdocs`
 *   (100k documents) with their total, in the same database, so the list's database has always
 *   changed since the last one; listed docs/s = lists/s × 20 (half the requests are lists).
 *
 * Parse Server is not part of this repository's bench (the peers benchmark runs it); the notes carry
 * the issue's Parse figures for scale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { random } from '../lib/documents.ts';
import { LOAD, measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, call, seed, startSvc, type StoreKind, stopSvc } from '../lib/svc.ts';

const SMALL_RUN = process.env.BENCH_SMALL === '1';
const DOCS = Number(process.env.BENCH_DOCS ?? (SMALL_RUN ? 5000 : 100_000));
const CONNECTIONS = Number(process.env.BENCH_BUSY_CONNECTIONS ?? 50);
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const LIST = '/v1/listdocs/docs?limit=20&sortBy=createdAt&sortOrder=desc';
/** Issue 30's Parse Server 9.10 figures (peers benchmark, PostgreSQL, 50 connections): insert docs/s, list-busy listed docs/s. */
const PARSE = { insert: 876, busy: 6035 };

// The peers' documents: 5 fields, ~200 bytes of JSON.
const WORDS =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(
    ' ',
  );
const STATUSES = ['open', 'closed', 'pending'];
function peerDoc(rnd: () => number): (i: number) => Record<string, unknown> {
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  return (i) => ({
    title: `Note ${i} ${words(3)}`.slice(0, 40),
    body: words(14).slice(0, 90),
    status: STATUSES[Math.floor(rnd() * STATUSES.length)],
    score: Math.floor(rnd() * 100000),
    tags: [word(), word()],
  });
}
const insertBodies = (() => {
  const make = peerDoc(random(3));
  return Array.from({ length: 5000 }, (_, i) => JSON.stringify(make(i)));
})();
/** Each request's body the next of the 5,000 (shared by all connections, as the peers' load generator does). */
let nextBody = 0;
const insertStep = {
  method: 'POST' as const,
  path: '/v1/notes/docs',
  body: insertBodies[0],
  next: () => ({ body: insertBodies[nextBody++ % insertBodies.length] }),
};

interface Row {
  name: string;
  store: StoreKind;
  m: Measurement;
  bare: Measurement;
  /** Documents per request: 1 for insert, 10 for list-busy (20 per list, one list per two requests). */
  perRequest: number;
  parse: number;
}

/** Seeds `listdocs` and checks one list: 20 documents, newest first, and the exact total. */
async function prepare(url: string, key: string | undefined): Promise<void> {
  await seed({ url, bulkPath: '/v1/listdocs/bulk', key, count: DOCS, make: peerDoc(random(2)), parallel: 4 });
  const page = await call<{ documents: Array<{ createdAt: string }>; total: number }>(url, 'GET', LIST, key);
  const sorted = page.documents.every((d, i) => i === 0 || page.documents[i - 1].createdAt >= d.createdAt);
  if (page.documents.length !== 20 || !sorted || page.total !== DOCS) {
    throw new Error(`pre-flight list: ${page.documents.length} documents, sorted ${sorted}, total ${page.total} (want 20, true, ${DOCS})`);
  }
}

async function benchStore(store: StoreKind, bare: ServerProcess, rows: Row[], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc, seeding ${num(DOCS)} documents`);
  const svc = await startSvc(store);
  try {
    await prepare(svc.url, svc.key);
    await svc.settle();
    const shapes: Array<{ name: string; perRequest: number; parse: number; target: Omit<LoadTarget, 'url' | 'key'> }> = [
      { name: 'insert one document', perRequest: 1, parse: PARSE.insert, target: insertStep },
      { name: 'list-busy: insert, then list 20 + total', perRequest: 10, parse: PARSE.busy, target: { path: LIST, sequence: [insertStep, { path: LIST }] } },
    ];
    for (const s of shapes) {
      log(`${name}: bare ${s.name}`);
      const b = await measure({ url: bare.url, connections: CONNECTIONS, ...s.target });
      log(`${name}: svc ${s.name}`);
      const m = await measure({ url: svc.url, key: svc.key, connections: CONNECTIONS, ...s.target });
      rows.push({ name: s.name, store, m, bare: b, perRequest: s.perRequest, parse: s.parse });
    }
  } finally {
    await stopSvc(svc, name, notes);
  }
}

/** The machine's load averages (1, 5, 15 minutes), for the header: these figures depend on it. */
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');

function render(rows: Row[], notes: string[], loadBefore: string): string {
  const failures = (m: Measurement) => (m.failures ? `⚠ ${m.failureDetail}` : '');
  const main = table(
    ['scenario', 'store', 'svc docs/s', 'p50 ms', 'p99 ms', 'bare docs/s', 'svc ÷ bare', '÷ Parse (issue 30 figure)', 'errors'],
    rows.map((r) => [
      r.name,
      STORE_NAME[r.store],
      num(r.m.rps * r.perRequest),
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      num(r.bare.rps * r.perRequest),
      num(r.m.rps / r.bare.rps, 2),
      num((r.m.rps * r.perRequest) / r.parse, 1),
      [failures(r.m), r.bare.failures ? `bare: ${failures(r.bare)}` : ''].filter(Boolean).join('; '),
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  return `## Busy: insert, and insert-then-list, at ${CONNECTIONS} connections (issue 30)

${machine()}; load average ${loadBefore} before the run, ${load()} after. autocannon, ${CONNECTIONS} connections, ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; \`listdocs\` holds ${num(DOCS)} documents; the load generator shares the machine with the servers.${SMALL_RUN ? " **Smoke run (`BENCH_SMALL=1`): sizes and durations are not the issue's; the figures say nothing.**" : ''}

${main}

How to read it: the shapes of the peers benchmark (svc beside Parse Server 9.10 and the same bare floor),
so these figures are the ones its users compare. "insert": \`POST /v1/notes/docs\`, one ~200-byte document
(5 fields), docs/s = req/s. "list-busy": each connection in turn inserts a document into \`notes\` and lists
the 20 newest of \`listdocs\` with their total (\`GET ${LIST}\`), in the same database, so every list finds
its database changed since the one before; docs/s counts listed documents (20 per list, half the requests
are lists). Each svc row is measured right after the bare floor's (\`bench/baseline/bare-peers.ts\`: Fastify +
better-sqlite3, WAL, \`synchronous = NORMAL\`, one table with an index on (collection, created_at, id), no
keys, change log or events; its list counts the collection with \`count(*)\`, svc reads its collection
counter). svc on PostgreSQL commits with \`synchronous_commit\` on (each group of writes waits for its WAL
flush); on SQLite as bare does. "÷ Parse" divides by issue 30's Parse Server figures on this machine
(insert ${num(PARSE.insert)} docs/s, list-busy ${num(PARSE.busy)} listed docs/s; the target is 5× on both stores); Parse
itself runs in the peers benchmark, not here, so that column is only as good as the machine's load
today is like that run's: the svc ÷ bare column is the one measured side by side.
Full run: \`npm run bench -- busy\` (~4 minutes on 2 cores); a smoke run: \`BENCH_SMALL=1 npm run bench -- busy\`.
${notes.length ? `\n${notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`;
}

const busy: Scenario = {
  name: 'busy',
  description: `insert and list-busy (insert, then list 20 + total) at ${CONNECTIONS} connections, as the peers benchmark sends them, vs its bare floor (issue 30)`,
  async run() {
    const saved = { ...LOAD };
    if (SMALL_RUN) {
      if (process.env.BENCH_DURATION === undefined) LOAD.duration = 1;
      if (process.env.BENCH_WARMUP === undefined) LOAD.warmup = 0.5;
    }
    const loadBefore = load();
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-busy-'));
    const rows: Row[] = [];
    const notes: string[] = [];
    try {
      log('starting the bare floor (bench/baseline/bare-peers.ts)');
      const bare = await startProcess('bare floor', ['--import', 'tsx', 'bench/baseline/bare-peers.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
      try {
        await prepare(bare.url, undefined);
        log(`bare: seeded ${num(DOCS)} documents`);
        const { stores, skipped } = await benchStores();
        if (skipped) notes.push(skipped);
        for (const store of stores) await benchStore(store, bare, rows, notes);
      } finally {
        await bare.stop();
      }
      return render(rows, notes, loadBefore);
    } finally {
      Object.assign(LOAD, saved);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default busy;

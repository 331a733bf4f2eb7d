/**
 * Issue 16, item 2: the documents API under more concurrency than the foundation scenario's, on both
 * stores, each row beside the bare baseline (Fastify + better-sqlite3, baseline/bare-server.ts) measured
 * right before it in the same run.
 *
 * SCALE_CONNECTIONS (50) connections for insert, bulk insert (100 documents per request) and get by id;
 * the list of 20 with its total at 10 connections, as the issue's target is stated. One bare server
 * (seeded once with the same DOCS documents) serves both passes; each store gets a fresh svc process.
 *
 * Before the PostgreSQL pass, PostgreSQL alone (lib/pg-ceiling.ts): small write transactions from the
 * bench process over as many connections as svc's pool has, independent ones and ones that all update
 * one row (as svc's writes to one database update its change-log counter), as the reference for what
 * one database of one PostgreSQL server can commit.
 *
 * `BENCH_SMALL=1` is a smoke run: 5,000 documents, 1 s per row after 0.5 s of warm-up (unless
 * BENCH_DOCS, BENCH_DURATION or BENCH_WARMUP say otherwise); the section says so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bulkBody, makeDoc, oneDocBody, pick, random } from '../lib/documents.ts';
import { LOAD, measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { postgresCeiling, type CeilingResult } from '../lib/pg-ceiling.ts';
import { benchStores, POSTGRES_ADMIN_URL, seed, startSvc, type StoreKind, stopSvc, LISTS_FROM_STORE } from '../lib/svc.ts';

const SMALL_RUN = process.env.BENCH_SMALL === '1';
const DOCS = Number(process.env.BENCH_DOCS ?? (SMALL_RUN ? 5000 : 100_000));
const CONNECTIONS = Number(process.env.BENCH_SCALE_CONNECTIONS ?? 50);
/** The issue states the list target at 10 connections. */
const LIST_CONNECTIONS = 10;
const BULK_SIZE = 100;
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The issue's targets: a share of the bare figure (ratio), or absolute req/s. Absent: shown, no target. */
const TARGETS: Record<string, Partial<Record<StoreKind, { ratio?: number; rps?: number }>>> = {
  insert: { postgres: { ratio: 0.5 } },
  bulk: { sqlite: { ratio: 0.6 }, postgres: { ratio: 0.4 } },
  get: { sqlite: { ratio: 0.6 }, postgres: { ratio: 0.4 } },
  list: { sqlite: { rps: 8000 } },
};

interface Row {
  scenario: string;
  store: StoreKind;
  m: Measurement;
  bare?: Measurement;
  bareName: string;
  target: string;
  met?: boolean;
  /** Documents per request, for a docs/s figure. */
  perRequest?: number;
}

/** The row's target text and whether it is met. */
function judge(kind: keyof typeof TARGETS, store: StoreKind, m: Measurement, bare?: Measurement): { target: string; met?: boolean } {
  const t = TARGETS[kind][store];
  if (t?.ratio !== undefined && bare) return { target: `≥ ${num(100 * t.ratio)} % of bare`, met: m.rps >= t.ratio * bare.rps && m.failures === 0 };
  if (t?.rps !== undefined) return { target: `≥ ${num(t.rps)} req/s`, met: m.rps >= t.rps && m.failures === 0 };
  return { target: '— (shown)' };
}

/** svc's PostgreSQL pool size per instance, read from its source so the note follows it. */
function poolSize(): string {
  try {
    const m = /\bmax:\s*(\d+)/.exec(readFileSync(join(ROOT, 'packages/server/src/store/postgres/pool.ts'), 'utf8'));
    return m ? m[1] : '?';
  } catch {
    return '?';
  }
}

/** The connections of PostgreSQL alone: svc's pool size (20 when it can't be read). */
const poolConnections = (): number => Number(poolSize()) || 20;

/** The commit measured, and whether svc's sources had uncommitted changes (npm run bench runs the working tree). */
function commit(): string {
  try {
    const head = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']).toString().trim();
    const dirty = execFileSync('git', ['-C', ROOT, 'status', '--porcelain', '--', 'packages/server/src']).toString().trim();
    return dirty ? `${head} + uncommitted changes in packages/server/src` : head;
  } catch {
    return 'unknown';
  }
}

async function benchStore(store: StoreKind, bare: ServerProcess, bareIds: string[], rows: Row[], bareRows: string[][], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store);
  try {
    const t = Date.now();
    const ids = await seed({ url: svc.url, bulkPath: '/v1/items/bulk', key: svc.key, count: DOCS, make: makeDoc(random(42)), parallel: 3 });
    await svc.settle();
    log(`${name}: seeded ${num(DOCS)} documents in ${num((Date.now() - t) / 1000, 1)} s`);

    const svcTarget = (x: Omit<LoadTarget, 'url' | 'key'>): LoadTarget => ({ url: svc.url, key: svc.key, ...x });
    const bareTarget = (x: Omit<LoadTarget, 'url'>): LoadTarget => ({ url: bare.url, ...x });
    const run = (label: string, target: LoadTarget) => {
      log(`${name}: ${label}`);
      return measure(target);
    };
    const baseline = async (label: string, target: LoadTarget) => {
      const m = await run(label, target);
      bareRows.push([
        label,
        name,
        num(target.connections ?? LOAD.connections),
        num(m.rps),
        num(m.p50, 2),
        num(m.p99, 1),
        m.failures ? `⚠ ${m.failureDetail}` : '',
      ]);
      return m;
    };
    const conn = { connections: CONNECTIONS };

    const bareInsert = await baseline('bare insert', bareTarget({ method: 'POST', path: '/docs', body: oneDocBody, ...conn }));
    const insert = await run('insert', svcTarget({ method: 'POST', path: '/v1/inserted/docs', body: oneDocBody, ...conn }));
    rows.push({
      scenario: `insert one document (${CONNECTIONS} conn.)`,
      store,
      m: insert,
      bare: bareInsert,
      bareName: 'bare insert',
      ...judge('insert', store, insert, bareInsert),
    });

    const bulk100 = bulkBody(BULK_SIZE);
    const bareBulk = await baseline(`bare bulk ${BULK_SIZE}`, bareTarget({ method: 'POST', path: '/bulk', body: bulk100, ...conn }));
    const bulk = await run(`bulk ${BULK_SIZE}`, svcTarget({ method: 'POST', path: '/v1/bulked/bulk', body: bulk100, ...conn }));
    rows.push({
      scenario: `bulk insert ${BULK_SIZE} per request (${CONNECTIONS} conn.)`,
      store,
      m: bulk,
      bare: bareBulk,
      bareName: 'bare bulk',
      perRequest: BULK_SIZE,
      ...judge('bulk', store, bulk, bareBulk),
    });

    const bareGet = await baseline('bare get by id', bareTarget({ path: `/docs/${bareIds[0]}`, nextPath: () => `/docs/${pick(bareIds)}`, ...conn }));
    const get = await run('get by id', svcTarget({ path: `/v1/items/docs/${ids[0]}`, nextPath: () => `/v1/items/docs/${pick(ids)}`, ...conn }));
    rows.push({ scenario: `get by id (${CONNECTIONS} conn.)`, store, m: get, bare: bareGet, bareName: 'bare get', ...judge('get', store, get, bareGet) });

    const list = await run(
      'list by createdAt + total',
      svcTarget({ path: '/v1/items/docs?limit=20&sortBy=createdAt&sortOrder=desc', connections: LIST_CONNECTIONS }),
    );
    rows.push({
      scenario: `list 20 by createdAt + total (${num(DOCS / 1000)}k docs, ${LIST_CONNECTIONS} conn.)`,
      store,
      m: list,
      bareName: '',
      ...judge('list', store, list),
    });

    // The same list with the list cache off: what each list costs when its database changed since
    // the last one (every answer read from the store), on the same store after a restart.
    log(`${name}: restarting svc with LIST_CACHE_MB=0`);
    await svc.restart(LISTS_FROM_STORE);
    const uncached = await run(
      'list by createdAt + total, cache off',
      svcTarget({ path: '/v1/items/docs?limit=20&sortBy=createdAt&sortOrder=desc', connections: LIST_CONNECTIONS }),
    );
    rows.push({
      scenario: `list 20 by createdAt + total, list cache off (${num(DOCS / 1000)}k docs, ${LIST_CONNECTIONS} conn.)`,
      store,
      m: uncached,
      bareName: '',
      target: '— (shown)',
    });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

const SHAPE_NAME: Record<CeilingResult['shape'], string> = {
  independent: 'independent writes: BEGIN; INSERT; COMMIT',
  'hot row': 'one hot row: BEGIN; UPDATE counter; INSERT; COMMIT',
  'point read': 'point read: SELECT by primary key',
};

function renderCeiling(ceiling: CeilingResult[], rows: Row[]): string {
  if (!ceiling.length) return '';
  const svcInsert = rows.find((r) => r.store === 'postgres' && r.scenario.startsWith('insert'));
  const t = table(
    ['PostgreSQL alone (no svc, no HTTP)', 'connections', 'transactions/s', 'p50 ms', 'p99 ms', 'svc insert req/s ÷ this', 'errors'],
    ceiling.map((c) => [
      SHAPE_NAME[c.shape],
      num(poolConnections()),
      num(c.tps),
      num(c.p50, 2),
      num(c.p99, 1),
      c.shape !== 'point read' && svcInsert ? `${num((100 * svcInsert.m.rps) / c.tps)} %` : '—',
      c.errors ? `⚠ ${c.errors}` : '',
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  return `${t}

PostgreSQL alone is measured right before svc's PostgreSQL pass, from the bench process over node-postgres
(\`bench/lib/pg-ceiling.ts\`), with as many connections as svc's pool holds and the same ~170-byte JSON
document; each transaction is 3 or 4 round trips, as svc's are. "Independent" transactions share WAL
flushes (PostgreSQL's own group commit): the server's commit capacity. In "one hot row" every transaction
updates the same row first and holds its lock until COMMIT has flushed, so they run one at a time: that is
the shape of svc's writes to **one database**, which all bump its change-log counter
(\`databases.last_event_id\`, \`src/changes/append.ts\`) right before COMMIT. Writes to different databases
do not wait for each other. "Point read" is one indexed row by primary key outside a transaction, what a get
by id or an API-key lookup asks of the server; one node process drives it, so it is a lower bound of what
the server can read (docs/scaling.md uses these rows).

`;
}

function render(rows: Row[], bareRows: string[][], notes: string[], ceiling: CeilingResult[]): string {
  const ratio = (r: Row) => (r.bare ? `${num((100 * r.m.rps) / r.bare.rps)} % of ${r.bareName}` : '—');
  const verdict = (r: Row) => (r.met === undefined ? '' : r.met ? '✅' : '❌');
  const main = table(
    ['scenario', 'store', 'req/s', 'docs/s', 'p50 ms', 'p99 ms', 'ratio to bare (req/s)', 'target', 'met', 'errors'],
    rows.map((r) => [
      r.scenario,
      STORE_NAME[r.store],
      num(r.m.rps),
      r.perRequest ? num(r.m.rps * r.perRequest) : '',
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      ratio(r),
      r.target,
      verdict(r),
      r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const bare = table(['bare baseline', 'measured beside', 'connections', 'req/s', 'p50 ms', 'p99 ms', 'errors'], bareRows, ['l', 'l', 'r', 'r', 'r', 'r', 'l']);
  const judged = rows.filter((r) => r.met !== undefined);
  const met = judged.filter((r) => r.met).map((r) => `${r.scenario.replace(/ \(.*\)$/, '')} on ${STORE_NAME[r.store]}`);
  const missed = judged.filter((r) => !r.met).map((r) => `${r.scenario.replace(/ \(.*\)$/, '')} on ${STORE_NAME[r.store]}`);
  return `## Scale: the documents API at ${CONNECTIONS} connections (issue 16)

${machine()} · svc at commit ${commit()}. autocannon, ${CONNECTIONS} connections (list: ${LIST_CONNECTIONS}), ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; ${num(DOCS)} documents; the load generator shares the machine with the server.${SMALL_RUN ? " **Smoke run (`BENCH_SMALL=1`): sizes and durations are not the issue's; the figures say nothing.**" : ''}

${main}

${bare}

${renderCeiling(ceiling, rows)}Targets met: ${met.length ? met.join(', ') : 'none'}. Not met: ${missed.length ? missed.join(', ') : 'none'}.

How to read it: as in the foundation section, each svc row was measured right after the bare baseline it is
compared with (\`bench/baseline/bare-server.ts\`: Fastify + better-sqlite3, one prepared statement per route,
SQLite in both passes), so the **ratio** is the figure to follow. With ${CONNECTIONS} connections the closed loop keeps
${CONNECTIONS} requests in flight: on PostgreSQL that is more than svc's pool of ${poolSize()} connections per instance
(\`src/store/postgres/pool.ts\`), so requests also queue for a pooled client, as they would on one instance
under that load. "bulk insert" is one \`POST /bulk\` of ${BULK_SIZE} documents per request (docs/s = req/s × ${BULK_SIZE}),
into a collection of its own; inserts go to another, gets and lists read the ${num(DOCS)} seeded documents
(random ids). On PostgreSQL the bench runs \`VACUUM ANALYZE documents\` after seeding, as autovacuum would.
The list rows ask one list again and again with no write in between, so svc answers from its list cache
(\`src/documents/page-cache.ts\`: the database's version read by primary key, then the answer kept for that
version), as it would for a feed many clients read; the "list cache off" row is the same list on the same
store after a restart with \`LIST_CACHE_MB=0\`: what each list costs when its database changed since the last.
Full run: \`npm run bench -- scale\` (~2 minutes on 2 cores).
${notes.length ? `\n${notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`;
}

const scale: Scenario = {
  name: 'scale',
  description: `documents API at ${CONNECTIONS} connections on both stores vs bare Fastify + better-sqlite3 (issue 16)`,
  async run() {
    // A smoke run shortens the rows unless told otherwise; the shared settings are restored for later scenarios.
    const saved = { ...LOAD };
    if (SMALL_RUN) {
      if (process.env.BENCH_DURATION === undefined) LOAD.duration = 1;
      if (process.env.BENCH_WARMUP === undefined) LOAD.warmup = 0.5;
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
    const rows: Row[] = [];
    const bareRows: string[][] = [];
    const notes: string[] = [];
    let ceiling: CeilingResult[] = [];
    try {
      log('starting the bare baseline server');
      const bare = await startProcess('bare baseline', ['--import', 'tsx', 'bench/baseline/bare-server.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
      try {
        const bareIds = await seed({ url: bare.url, bulkPath: '/bulk', count: DOCS, make: makeDoc(random(42)), parallel: 3 });
        log(`bare: seeded ${num(DOCS)} documents`);
        const { stores, skipped } = await benchStores();
        if (skipped) notes.push(skipped);
        for (const store of stores) {
          if (store === 'postgres') {
            log(`PostgreSQL alone: ${poolConnections()} connections`);
            ceiling = await postgresCeiling(POSTGRES_ADMIN_URL, poolConnections(), LOAD.duration, LOAD.warmup);
          }
          await benchStore(store, bare, bareIds, rows, bareRows, notes);
        }
      } finally {
        await bare.stop();
      }
      return render(rows, bareRows, notes, ceiling);
    } finally {
      Object.assign(LOAD, saved);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default scale;

/**
 * Issue 2, item 10: the documents API on both stores against bare Fastify + better-sqlite3.
 *
 * For each store (SQLite, then PostgreSQL when reachable) a fresh svc process gets 100k documents
 * through the bulk endpoint, then each svc scenario is measured right after its bare baseline, so
 * the two figures of a ratio see the same machine load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bulkBody as bulkBodyOf, makeDoc, oneDocBody, pick, random } from '../lib/documents.ts';
import { LOAD, measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { postgresAvailable, seed, startSvc, waitForIndexes, type StoreKind, stopSvc, LISTS_FROM_STORE } from '../lib/svc.ts';

const DOCS = Number(process.env.BENCH_DOCS ?? 100_000);
const BULK_SIZE = 1000;
/** Bulk requests are ~150 kB each; two in flight keep the server busy without measuring a queue. */
const BULK_CONNECTIONS = 2;
const bulkBody = bulkBodyOf(BULK_SIZE);

interface Row {
  scenario: string;
  store: string;
  m: Measurement;
  bare?: Measurement;
  /** Which bare figure the ratio compares with. */
  bareName?: string;
  target: string;
  met?: boolean;
}

const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

async function benchStore(store: StoreKind, bare: ServerProcess, bareIds: string[], rows: Row[], notes: string[], bareRows: string[][]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store, LISTS_FROM_STORE);
  try {
    let t = Date.now();
    const ids = await seed({ url: svc.url, bulkPath: '/v1/items/bulk', key: svc.key, count: DOCS, make: makeDoc(random(42)), parallel: 3 });
    const seedSeconds = (Date.now() - t) / 1000;
    log(`${name}: seeded ${DOCS} documents in ${seedSeconds.toFixed(1)} s`);
    notes.push(
      `${name}: seeding ${num(DOCS)} documents through \`POST /bulk\` (1,000 per request, 3 in flight) took ${seedSeconds.toFixed(1)} s (${num(DOCS / seedSeconds)} docs/s).`,
    );
    if (store === 'postgres') {
      t = Date.now();
      await svc.settle();
      notes.push(
        `${name}: after seeding, the bench ran \`VACUUM ANALYZE documents\` (${num((Date.now() - t) / 1000, 1)} s), as autovacuum would after such a load; without table statistics the planner sorts all 100k rows for every list (measured ≈ 100–190 ms per list by \`createdAt\`). It does not analyze again after svc builds its field indexes, so those expressions have no statistics, as in production until the next auto-analyze.`,
      );
    }

    const svcTarget = (x: Omit<LoadTarget, 'url' | 'key'>): LoadTarget => ({ url: svc.url, key: svc.key, ...x });
    const bareTarget = (x: Omit<LoadTarget, 'url'>): LoadTarget => ({ url: bare.url, ...x });
    const run = async (label: string, target: LoadTarget) => {
      log(`${name}: ${label}`);
      return measure(target);
    };
    const baseline = async (label: string, target: LoadTarget) => {
      const m = await run(label, target);
      bareRows.push([label, name, num(m.rps), num(m.p50, 2), num(m.p99, 1), m.failures ? `⚠ ${m.failureDetail}` : '']);
      return m;
    };

    // Insert one document.
    const bareInsert = await baseline('bare insert', bareTarget({ method: 'POST', path: '/docs', body: oneDocBody }));
    const insert = await run('insert', svcTarget({ method: 'POST', path: '/v1/inserted/docs', body: oneDocBody }));
    rows.push({
      scenario: 'insert one document',
      store: name,
      m: insert,
      bare: bareInsert,
      bareName: 'bare insert',
      target: '≥ 60 % of bare',
      met: insert.rps >= 0.6 * bareInsert.rps,
    });

    // Get by id, random ids out of the 100k.
    const bareGet = await baseline('bare get by id', bareTarget({ path: `/docs/${bareIds[0]}`, nextPath: () => `/docs/${pick(bareIds)}` }));
    const get = await run('get by id', svcTarget({ path: `/v1/items/docs/${ids[0]}`, nextPath: () => `/v1/items/docs/${pick(ids)}` }));
    rows.push({ scenario: 'get by id', store: name, m: get, bare: bareGet, bareName: 'bare get', target: '≥ 60 % of bare', met: get.rps >= 0.6 * bareGet.rps });

    // Newest 20 with total: the per-collection counter and the created_at index.
    const byCreated = await run('list by createdAt', svcTarget({ path: '/v1/items/docs?limit=20&sortBy=createdAt&sortOrder=desc' }));
    rows.push({
      scenario: `list 20 by createdAt + total (${num(DOCS / 1000)}k)`,
      store: name,
      m: byCreated,
      bare: bareGet,
      bareName: 'bare get',
      target: '≥ 8,000 req/s',
      met: byCreated.rps >= 8000,
    });

    // Sorted by one user field, filtered by another: the first request starts svc's background index builds.
    const filter = encodeURIComponent(JSON.stringify({ status: 'open' }));
    const listPath = `/v1/items/docs?limit=20&sortBy=score&sortOrder=desc&filter=${filter}`;
    const listOnce = async () => {
      const res = await fetch(svc.url + listPath, { headers: { authorization: `Bearer ${svc.key}` } });
      if (!res.ok) throw new Error(`GET ${listPath} → ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    t = Date.now();
    await listOnce();
    const firstMs = Date.now() - t;
    const { ms, pokes } = await waitForIndexes(svc, ['score', 'status'], listOnce);
    await sleep(2000);
    notes.push(
      `${name}: the first sorted/filtered list (no index yet) took ${num(firstMs)} ms; svc's automatic indexes on \`score\` and \`status\` were both recorded ${num(ms / 1000, 1)} s later` +
        (pokes ? `, with ${pokes} more list request(s) meanwhile (one every 2 s, as traffic would; svc retries a failed build only on a later request).` : '.'),
    );
    const sorted = await run('list by score, filtered by status', svcTarget({ path: listPath }));
    rows.push({
      scenario: `list 20 by score, filter status (${num(DOCS / 1000)}k)`,
      store: name,
      m: sorted,
      bare: bareGet,
      bareName: 'bare get',
      target: 'p50 ≤ 5 ms',
      met: sorted.p50 <= 5,
    });
    // Closed loop on one server thread: p50 ≈ connections × service time. One connection shows the service time itself.
    const sorted1 = await run('list by score, filtered by status, 1 connection', svcTarget({ path: listPath, connections: 1 }));
    rows.push({ scenario: `same, 1 connection`, store: name, m: sorted1, bare: bareGet, bareName: 'bare get', target: 'p50 ≤ 5 ms', met: sorted1.p50 <= 5 });

    // Bulk insert of 1,000 documents into a collection of its own.
    const bulkConn = { connections: BULK_CONNECTIONS };
    const bareBulk = await baseline('bare bulk 1,000', bareTarget({ method: 'POST', path: '/bulk', body: bulkBody, ...bulkConn }));
    const bulk = await run('bulk 1,000', svcTarget({ method: 'POST', path: '/v1/bulked/bulk', body: bulkBody, ...bulkConn }));
    rows.push({
      scenario: `bulk insert ${num(BULK_SIZE)} (${BULK_CONNECTIONS} conn.)`,
      store: name,
      m: bulk,
      bare: bareBulk,
      bareName: 'bare bulk',
      target: `— (${num(bulk.rps * BULK_SIZE)} docs/s)`,
    });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], bareRows: string[][], notes: string[], skipped: string[]): string {
  const ratio = (r: Row) => (r.bare ? `${num((100 * r.m.rps) / r.bare.rps)} % of ${r.bareName}` : '—');
  const verdict = (r: Row) => (r.met === undefined ? '' : r.met ? '✅' : '❌');
  const main = table(
    ['scenario', 'store', 'req/s', 'p50 ms', 'p99 ms', 'ratio to bare (req/s)', 'target', 'met', 'errors'],
    rows.map((r) => [
      r.scenario,
      r.store,
      num(r.m.rps),
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      ratio(r),
      r.target,
      verdict(r),
      r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const bare = table(['bare baseline', 'measured beside', 'req/s', 'p50 ms', 'p99 ms', 'errors'], bareRows, ['l', 'l', 'r', 'r', 'r', 'l']);
  return `## Foundation: documents API (issue 2)

${machine()}. autocannon, ${LOAD.connections} connections (bulk: ${BULK_CONNECTIONS}), ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; the load generator shares the machine with the server.

${main}

${bare}

How to read it: each svc row was measured right after the bare baseline it is compared with, on the same
machine, so the **ratio** is the figure to follow across runs; absolute req/s move with whatever else the
machine is doing. The bare server (\`bench/baseline/bare-server.ts\`) is Fastify + better-sqlite3 with one
prepared statement per route and none of svc's work (API keys, rate limits, schema validation, change log,
collection counters, multi-tenancy); it runs on SQLite in both passes, so on PostgreSQL the ratio also
prices the network round trips to the database. List rows are compared with the bare get by id (one
indexed row) for scale; their targets are absolute (req/s, p50). Latencies are per response as autocannon
times them (send to last byte), 2xx only. The load is closed-loop, so with ${LOAD.connections} connections a
p50 is about ${LOAD.connections} × the server's time per request; the 1-connection row shows that time alone.
"bulk insert" is one \`POST /bulk\` of ${num(BULK_SIZE)} documents per request.

${[...notes, ...skipped].map((n) => `- ${n}`).join('\n')}
`;
}

const foundation: Scenario = {
  name: 'foundation',
  description: 'documents API on SQLite and PostgreSQL vs bare Fastify + better-sqlite3 (issue 2)',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
    const rows: Row[] = [];
    const bareRows: string[][] = [];
    const notes: string[] = [];
    const skipped: string[] = [];
    log('starting the bare baseline server');
    const bare = await startProcess('bare baseline', ['--import', 'tsx', 'bench/baseline/bare-server.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
    try {
      const bareIds = await seed({ url: bare.url, bulkPath: '/bulk', count: DOCS, make: makeDoc(random(42)), parallel: 3 });
      log(`bare: seeded ${DOCS} documents`);
      const stores: StoreKind[] = ['sqlite'];
      if (await postgresAvailable()) stores.push('postgres');
      else skipped.push('PostgreSQL: **skipped**, no server at BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).');
      for (const store of stores) await benchStore(store, bare, bareIds, rows, notes, bareRows);
    } finally {
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return render(rows, bareRows, notes, skipped);
  },
};

export default foundation;

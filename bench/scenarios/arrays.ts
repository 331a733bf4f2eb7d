/**
 * Issue 13, item 8: "`tags` contains one value" over 100k documents, p50 ≤ 10 ms on PostgreSQL
 * (GIN) and reported on SQLite, beside the bare baseline's get by id for scale.
 *
 * For each store a fresh svc process gets 100k typical documents (bench/lib/documents.ts) whose
 * `tags` also hold one of 100 values `t0`…`t99` (each in 1 % of the documents); the bench lists with
 * `filter={"tags":"tNN"}` until svc's automatic indexes on `tags` exist (on PostgreSQL the B-tree
 * and the GIN, `tags[]` in document_indexes), then measures lists of 20 with `total`, each request
 * naming a random one of the 100 values, and, for comparison, a value held by 25 % of the
 * documents and `$all` of two values. `BENCH_SMALL=1` is a smoke run: 5,000 documents, 0.5 s
 * warm-up and 1 s per row unless the environment says otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeDoc, pick, random } from '../lib/documents.ts';
import { LOAD, measure, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, call, seed, startSvc, stopSvc, waitForIndexes, type StoreKind, LISTS_FROM_STORE } from '../lib/svc.ts';

const SMALL_RUN = process.env.BENCH_SMALL === '1';
if (SMALL_RUN) {
  LOAD.duration = Number(process.env.BENCH_DURATION ?? 1);
  LOAD.warmup = Number(process.env.BENCH_WARMUP ?? 0.5);
}
const DOCS = Number(process.env.BENCH_DOCS ?? (SMALL_RUN ? 5_000 : 100_000));
const VALUES = Array.from({ length: 100 }, (_, i) => `t${i}`);
/** The issue's target for "tags contains one value" on PostgreSQL. */
const TARGET_P50_MS = 10;

const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The typical document, its `tags` holding one of VALUES as well (`['bench', status, 'tNN']`). */
function makeTagged(): (i: number) => Record<string, unknown> {
  const make = makeDoc(random(42));
  return (i) => {
    const doc = make(i);
    doc.tags = [...(doc.tags as string[]), VALUES[i % VALUES.length]];
    return doc;
  };
}

const list = (filter: unknown) => `/v1/items/docs?limit=20&filter=${encodeURIComponent(JSON.stringify(filter))}`;

interface Row {
  store: string;
  what: string;
  m: Measurement;
  target: string;
  met?: boolean;
}

async function benchStore(store: StoreKind, bare: ServerProcess, bareIds: string[], rows: Row[], bareRows: string[][], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store, LISTS_FROM_STORE);
  try {
    const t = Date.now();
    await seed({ url: svc.url, bulkPath: '/v1/items/bulk', key: svc.key, count: DOCS, make: makeTagged(), parallel: 3 });
    log(`${name}: seeded ${DOCS} documents in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    if (store === 'postgres') await svc.settle();

    // svc builds its indexes on `tags` in the background once lists have filtered by it (3 within 10 minutes).
    const listOnce = async () => void (await call(svc.url, 'GET', list({ tags: pick(VALUES) }), svc.key));
    for (let i = 0; i < 3; i++) await listOnce();
    const wanted = store === 'postgres' ? ['tags>createdAt', 'tags[]'] : ['tags>createdAt'];
    const built = await waitForIndexes(svc, wanted, listOnce);
    await sleep(1000);
    notes.push(`${name}: svc's automatic indexes on \`tags\` (${wanted.join(', ')}) were recorded ${num(built.ms / 1000, 1)} s after the third filtered list.`);

    // The answers are right before they are fast: a value of 1 % matches DOCS / 100 documents.
    const check = await call<{ total: number; documents: Array<{ tags: string[] }> }>(svc.url, 'GET', list({ tags: 't7' }), svc.key);
    if (check.total !== Math.ceil((DOCS - 7) / VALUES.length) || !check.documents.every((d) => d.tags.includes('t7'))) {
      throw new Error(`${name}: {"tags":"t7"} answered total ${check.total}`);
    }

    const bareGet = await measure({ url: bare.url, path: `/docs/${bareIds[0]}`, nextPath: () => `/docs/${pick(bareIds)}` });
    bareRows.push(['bare get by id', name, num(bareGet.rps), num(bareGet.p50, 2), num(bareGet.p99, 1)]);

    log(`${name}: tags contains one value (1 %)`);
    const one = await measure({ url: svc.url, key: svc.key, path: list({ tags: 't1' }), nextPath: () => list({ tags: pick(VALUES) }) });
    rows.push({
      store: name,
      what: '`{"tags":"tNN"}`, 1 % of the documents, a random one of 100 values',
      m: one,
      target: store === 'postgres' ? `p50 ≤ ${TARGET_P50_MS} ms` : 'reported',
      met: store === 'postgres' ? one.p50 <= TARGET_P50_MS : undefined,
    });
    log(`${name}: tags contains one value (25 %)`);
    const common = await measure({ url: svc.url, key: svc.key, path: list({ tags: 'open' }) });
    rows.push({ store: name, what: '`{"tags":"open"}`, 25 % of the documents', m: common, target: '— (comparison)' });
    log(`${name}: tags contains two values ($all)`);
    const both = await measure({
      url: svc.url,
      key: svc.key,
      path: list({ tags: { $all: ['open', 't1'] } }),
      nextPath: () => list({ tags: { $all: [pick(['open', 'closed', 'pending', 'archived']), pick(VALUES)] } }),
    });
    rows.push({ store: name, what: '`{"tags":{"$all":[status, "tNN"]}}`, ≤ 1 %', m: both, target: '— (comparison)' });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], bareRows: string[][], notes: string[]): string {
  const main = table(
    ['store', 'list of 20 + total, filter', 'req/s', 'p50 ms', 'p99 ms', 'target', 'met', 'errors'],
    rows.map((r) => [
      r.store,
      r.what,
      num(r.m.rps),
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      r.target,
      r.met === undefined ? '' : r.met ? '✅' : '❌',
      r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
    ]),
    ['l', 'l', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const bare = table(['bare baseline', 'measured beside', 'req/s', 'p50 ms', 'p99 ms'], bareRows, ['l', 'l', 'r', 'r', 'r']);
  return `## Arrays: tags contains one value (issue 13)

${machine()}. autocannon, ${LOAD.connections} connections, ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; ${num(DOCS)} documents, 20 per page.${SMALL_RUN ? " **Smoke run (`BENCH_SMALL=1`): sizes and durations are not the issue's; the figures say little.**" : ''}

${main}

${bare}

How to read it: \`{"tags": v}\` matches a document whose \`tags\` is \`v\` or an array holding \`v\` (API.md
§1.1). On PostgreSQL the list filter tests an array's elements by jsonb containment, which the GIN index svc
builds on \`(data #> '{tags}') jsonb_path_ops\` serves, OR-ed (BitmapOr) with the field's B-tree for scalar
values; on SQLite it opens each document's array with \`json_each\` (no index can serve that), so its rows
are reported, not targeted. Every answer carries \`total\`: svc's count cache remembers a filtered total until
the database is written to, so with no writes during the row most totals come from it. The bare get by id
(\`bench/baseline/bare-server.ts\`, one indexed row, no list) is there for scale only.

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const arrays: Scenario = {
  name: 'arrays',
  description: '`tags` contains one value over 100k documents, SQLite and PostgreSQL (GIN) (issue 13)',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
    const rows: Row[] = [];
    const bareRows: string[][] = [];
    const notes: string[] = [];
    log('starting the bare baseline server');
    const bare = await startProcess('bare baseline', ['--import', 'tsx', 'bench/baseline/bare-server.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
    try {
      const bareIds = await seed({ url: bare.url, bulkPath: '/bulk', count: Math.min(DOCS, 10_000), make: makeDoc(random(42)), parallel: 3 });
      const { stores, skipped } = await benchStores();
      if (skipped) notes.push(skipped);
      for (const store of stores) await benchStore(store, bare, bareIds, rows, bareRows, notes);
    } finally {
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return render(rows, bareRows, notes);
  },
};

export default arrays;

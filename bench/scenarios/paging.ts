/**
 * Issue 13, item 8: deep pages by cursor cost what the first page costs (keyset paging), and by
 * offset for comparison, on both stores, beside the bare baseline's get by id for scale.
 *
 * For each store a fresh svc process gets 100k typical documents; then, for the default sort
 * (createdAt) and a user field (score, once svc's automatic index on it is built), it measures
 * page 1, page 4,000 by cursor and page 4,000 by offset, 20 documents a page. The cursor of page
 * 4,000 is the `nextCursor` of page 3,999 (an offset page carries one too), and every request of
 * the row sends that same cursor. `BENCH_SMALL=1` is a smoke run: 5,000 documents (so the deep
 * page is the last whole one), 0.5 s warm-up and 1 s per row unless the environment says otherwise.
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
const PAGE_SIZE = 20;
/** The deep page: 4,000 (documents 79,981–80,000 of 100k), or the last whole page of a smaller collection. */
const DEEP_PAGE = Math.min(4000, Math.floor(DOCS / PAGE_SIZE));
/** Alternating rounds of page 1 and the cursor page (each side's median is shown). */
const ROUNDS = process.env.BENCH_SMALL === '1' ? 1 : 3;
/** Within 20 % of page 1: the issue's target for the cursor row. */
const TOLERANCE = 1.2;

const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Row {
  sort: string;
  store: string;
  what: string;
  m: Measurement;
  /** Page 1 of the same sort and store, for the ratio. */
  first?: Measurement;
  target: string;
  met?: boolean;
}

async function benchStore(store: StoreKind, bare: ServerProcess, bareIds: string[], rows: Row[], bareRows: string[][], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store, LISTS_FROM_STORE);
  try {
    const t = Date.now();
    await seed({ url: svc.url, bulkPath: '/v1/items/bulk', key: svc.key, count: DOCS, make: makeDoc(random(42)), parallel: 3 });
    log(`${name}: seeded ${DOCS} documents in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    if (store === 'postgres') await svc.settle();

    // The score index: svc builds it in the background after the first sort by score.
    const scorePath = `/v1/items/docs?limit=${PAGE_SIZE}&sortBy=score`;
    const listOnce = async () => void (await call(svc.url, 'GET', scorePath, svc.key));
    await listOnce();
    const built = await waitForIndexes(svc, ['score'], listOnce);
    await sleep(1000);
    notes.push(`${name}: svc's automatic index on \`score\` was recorded ${num(built.ms / 1000, 1)} s after the first sort by it.`);

    const bareGet = await measure({ url: bare.url, path: `/docs/${bareIds[0]}`, nextPath: () => `/docs/${pick(bareIds)}` });
    bareRows.push(['bare get by id', name, num(bareGet.rps), num(bareGet.p50, 2), num(bareGet.p99, 1)]);

    for (const sortBy of ['createdAt', 'score']) {
      const base = `/v1/items/docs?limit=${PAGE_SIZE}&sortBy=${sortBy}`;
      const previous = await call<{ nextCursor: string | null; documents: unknown[] }>(
        svc.url,
        'GET',
        `${base}&offset=${(DEEP_PAGE - 2) * PAGE_SIZE}`,
        svc.key,
      );
      if (!previous.nextCursor) throw new Error(`${name}: page ${DEEP_PAGE - 1} by ${sortBy} has no nextCursor`);
      const cursorPath = `${base}&cursor=${encodeURIComponent(previous.nextCursor)}`;
      const offsetPath = `${base}&offset=${(DEEP_PAGE - 1) * PAGE_SIZE}`;
      // Both deep pages are the same documents.
      const [a, b] = await Promise.all([cursorPath, offsetPath].map((p) => call<{ documents: Array<{ id: string }> }>(svc.url, 'GET', p, svc.key)));
      if (JSON.stringify(a.documents.map((d) => d.id)) !== JSON.stringify(b.documents.map((d) => d.id))) {
        throw new Error(`${name}: page ${DEEP_PAGE} by ${sortBy}: cursor and offset disagree`);
      }
      // Page 1 and the cursor page in ROUNDS alternating rounds (page 1, cursor, page 1, …), each
      // side's median round by p50 shown: one pair alone moved with whatever else ran at that moment.
      const firstRounds: Measurement[] = [];
      const cursorRounds: Measurement[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        log(`${name}: page 1 by ${sortBy} (round ${round + 1})`);
        firstRounds.push(await measure({ url: svc.url, key: svc.key, path: base }));
        log(`${name}: page ${DEEP_PAGE} by ${sortBy}, cursor (round ${round + 1})`);
        cursorRounds.push(await measure({ url: svc.url, key: svc.key, path: cursorPath }));
      }
      const median = (ms: Measurement[]) => [...ms].sort((x, y) => x.p50 - y.p50)[Math.floor(ms.length / 2)];
      const first = median(firstRounds);
      const byCursor = median(cursorRounds);
      notes.push(
        `${name}: by ${sortBy}, p50 ms of page 1 / page ${num(DEEP_PAGE)} by cursor in each round: ${firstRounds.map((m, i) => `${num(m.p50, 2)} / ${num(cursorRounds[i].p50, 2)}`).join('; ')}; the table shows each side's median.`,
      );
      log(`${name}: page ${DEEP_PAGE} by ${sortBy}, offset`);
      const byOffset = await measure({ url: svc.url, key: svc.key, path: offsetPath });
      rows.push({ sort: sortBy, store: name, what: 'page 1', m: first, target: '—' });
      rows.push({
        sort: sortBy,
        store: name,
        what: `page ${num(DEEP_PAGE)} by cursor`,
        m: byCursor,
        first,
        target: 'p50 ≤ 1.2 × page 1',
        met: byCursor.p50 <= TOLERANCE * first.p50,
      });
      rows.push({ sort: sortBy, store: name, what: `page ${num(DEEP_PAGE)} by offset`, m: byOffset, first, target: '— (comparison)' });
    }
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], bareRows: string[][], notes: string[]): string {
  const main = table(
    ['sort', 'store', 'page', 'req/s', 'p50 ms', 'p99 ms', 'p50 ÷ page 1', 'target', 'met', 'errors'],
    rows.map((r) => [
      r.sort,
      r.store,
      r.what,
      num(r.m.rps),
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      r.first ? num(r.m.p50 / r.first.p50, 2) : '—',
      r.target,
      r.met === undefined ? '' : r.met ? '✅' : '❌',
      r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
    ]),
    ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const bare = table(['bare baseline', 'measured beside', 'req/s', 'p50 ms', 'p99 ms'], bareRows, ['l', 'l', 'r', 'r', 'r']);
  return `## Paging: cursor vs offset (issue 13)

${machine()}. autocannon, ${LOAD.connections} connections, ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; ${num(DOCS)} documents, ${PAGE_SIZE} per page, deep page ${num(DEEP_PAGE)}.${SMALL_RUN ? " **Smoke run (`BENCH_SMALL=1`): sizes and durations are not the issue's; the figures say little.**" : ''}

${main}

${bare}

How to read it: a cursor page is a keyset query, \`(sort keys, id) > (the cursor's values)\` on the index that
serves the sort, so its cost should not depend on the depth: the target is a p50 within 20 % of page 1's.
Page 1 and the cursor page are measured in ${ROUNDS} alternating rounds; each row shows its median round (the notes list them all).
The offset rows show what the same page costs when the store has to walk past every earlier row. Every
answer carries \`total\` (the collection's counter) and \`nextCursor\` either way. The bare get by id
(\`bench/baseline/bare-server.ts\`, one indexed row, no list) is there for scale only.

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const paging: Scenario = {
  name: 'paging',
  description: 'page 4,000 by cursor vs page 1 vs by offset, 100k documents, SQLite and PostgreSQL (issue 13)',
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

export default paging;

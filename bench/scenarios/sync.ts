/**
 * Issue 28, item 5: sync (API.md §3.1) on both stores.
 * - First sync of DOCS (10,000) documents through `GET /sync/:collection` (snapshot pages of 1,000,
 *   then the catch-up that closes it) against paging the same documents with cursor lists of 1,000
 *   (`GET /:collection/docs?cursor=`), in documents per second (target: sync ≥ 50 % of the lists);
 * - catch-up of CHANGES (1,000) changes made while away (updates of existing documents): the
 *   requests it takes (target ≤ 3) and its time.
 * Each side runs ROUNDS times, alternating, and keeps its best (a shared machine's noise weighs on both).
 */
import { performance } from 'node:perf_hooks';
import { makeDoc, random } from '../lib/documents.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, call, LISTS_FROM_STORE, seed, startSvc, stopSvc, type Svc, type StoreKind } from '../lib/svc.ts';

const DOCS = Number(process.env.BENCH_SYNC_DOCS ?? 10_000);
const CHANGES = 1000;
const PAGE = 1000;
const ROUNDS = 3;
const SYNC_TARGET = 0.5;
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

type SyncAnswer = { changes: Array<{ id: string }>; checkpoint: string; lastEventId: string | null; nextCursor: string | null; reset: boolean };

/** The first sync of a client: snapshot pages, then catch-up answers until one leaves nothing. */
async function firstSync(svc: Svc): Promise<{ docs: number; requests: number; ms: number; checkpoint: string }> {
  const t0 = performance.now();
  let docs = 0;
  let requests = 0;
  let cursor: string | null = null;
  let checkpoint = '';
  do {
    const a: SyncAnswer = await call(svc.url, 'GET', `/v1/sync/items?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, svc.key);
    requests++;
    docs += a.changes.length;
    cursor = a.nextCursor;
    checkpoint = a.checkpoint;
  } while (cursor);
  const up = await catchUp(svc, checkpoint);
  return { docs, requests: requests + up.requests, ms: performance.now() - t0, checkpoint: up.checkpoint };
}

async function catchUp(svc: Svc, from: string): Promise<{ changes: number; requests: number; checkpoint: string }> {
  let checkpoint = from;
  let changes = 0;
  for (let requests = 1; ; requests++) {
    const a: SyncAnswer = await call(svc.url, 'GET', `/v1/sync/items?limit=${PAGE}&checkpoint=${checkpoint}`, svc.key);
    if (a.reset) throw new Error('unexpected reset');
    changes += a.changes.length;
    checkpoint = a.checkpoint;
    if (a.changes.length < PAGE) return { changes, requests, checkpoint };
  }
}

/** The same documents paged with cursor lists of PAGE. */
async function cursorPaging(svc: Svc): Promise<{ docs: number; requests: number; ms: number }> {
  const t0 = performance.now();
  let docs = 0;
  let requests = 0;
  let cursor: string | null = null;
  do {
    const page: { documents: unknown[]; nextCursor: string | null } = await call(
      svc.url,
      'GET',
      `/v1/items/docs?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
      svc.key,
    );
    requests++;
    docs += page.documents.length;
    cursor = page.nextCursor;
  } while (cursor);
  return { docs, requests, ms: performance.now() - t0 };
}

async function benchStore(store: StoreKind, rows: string[][], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc, seeding ${num(DOCS)} documents`);
  // Lists from the store, not from the list cache: a client's first sync never finds its pages cached.
  const svc = await startSvc(store, LISTS_FROM_STORE);
  try {
    const ids = await seed({ url: svc.url, bulkPath: '/v1/items/bulk', key: svc.key, count: DOCS, make: makeDoc(random(28)), sampleEvery: 1 });
    await svc.settle();
    let sync: Awaited<ReturnType<typeof firstSync>> | undefined;
    let lists: Awaited<ReturnType<typeof cursorPaging>> | undefined;
    for (let i = 0; i < ROUNDS; i++) {
      const s = await firstSync(svc);
      if (!sync || s.ms < sync.ms) sync = s;
      const l = await cursorPaging(svc);
      if (!lists || l.ms < lists.ms) lists = l;
    }
    if (!sync || !lists) throw new Error('nothing measured');
    const syncRate = (1000 * sync.docs) / sync.ms;
    const listRate = (1000 * lists.docs) / lists.ms;
    const ratio = syncRate / listRate;
    rows.push([
      name,
      `first sync of ${num(sync.docs)} documents (best of ${ROUNDS})`,
      num(sync.requests),
      num(sync.ms),
      num(syncRate),
      `${num(100 * ratio)} % of cursor lists (target ≥ ${num(100 * SYNC_TARGET)} %) ${ratio >= SYNC_TARGET ? '✅' : '❌'}`,
    ]);
    rows.push([name, `cursor lists of the same ${num(lists.docs)} (best of ${ROUNDS})`, num(lists.requests), num(lists.ms), num(listRate), '']);

    log(`${name}: ${CHANGES} updates while away, then a catch-up`);
    const from = sync.checkpoint;
    let next = 0;
    const worker = async () => {
      while (next < CHANGES) {
        const id = ids[next++ % ids.length];
        await call(svc.url, 'PATCH', `/v1/items/docs/${id}`, svc.key, { touched: true });
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    const t0 = performance.now();
    const up = await catchUp(svc, from);
    const ms = performance.now() - t0;
    rows.push([
      name,
      `catch-up of ${num(CHANGES)} changes`,
      num(up.requests),
      num(ms),
      num((1000 * up.changes) / ms),
      `${num(up.changes)} changes in ${up.requests} requests (target ≤ 3) ${up.requests <= 3 && up.changes === CHANGES ? '✅' : '❌'}`,
    ]);
  } finally {
    await stopSvc(svc, name, notes);
  }
}

const sync: Scenario = {
  name: 'sync',
  description: 'first sync of 10,000 documents via /sync vs cursor lists, catch-up of 1,000 changes, SQLite and PostgreSQL (issue 28)',
  async run() {
    const rows: string[][] = [];
    const notes: string[] = [];
    const { stores, skipped } = await benchStores();
    if (skipped) notes.push(skipped);
    for (const store of stores) await benchStore(store, rows, notes);
    return `## Sync: offline-first replicas (issue 28)

${machine()}. One client, requests one after another, pages of ${num(PAGE)}; each side ${ROUNDS} times, alternating, best kept.

${table(['store', 'scenario', 'requests', 'ms', 'docs/s', 'check'], rows, ['l', 'l', 'r', 'r', 'r', 'l'])}

How to read it: a first sync is the snapshot's pages (by id, keyset) plus the catch-up that closes it (one
more request: nothing changed); the lists page the same documents by \`createdAt\` with cursors (the list cache off, as for a
client's first visit). The
catch-up folds the collection's events since the checkpoint into one change per document; the client stops
at the first answer with fewer than ${num(PAGE)} changes, so exactly ${num(PAGE)} changes take one request more.

${notes.map((n) => `- ${n}`).join('\n')}
`;
  },
};

export default sync;

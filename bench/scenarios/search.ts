/**
 * Issue 13, item 8 (search part): `search=` of two words over a collection of DOCS documents of ~1 KB
 * of text, on both stores, beside a bare FTS5 server (baseline/bare-search.ts) measured right before.
 *
 * Documents: `title` (8 words) and `body` (~140 words) drawn from a vocabulary of 5,000 made-up words
 * with Zipf frequencies (as words of a language are), seeded before the collection gets search fields,
 * so svc's back-fill builds the index (its time is a note). Queries: two words of ranks 100–999 (each
 * in ~1–15 % of the documents; together in tens to a few thousand), a new pair per request; one row
 * with two of the 5–29 most common words (each in most documents) shows the cost of a large match set,
 * which every document of has to be ranked. Writes: one ~1 KB insert into the searched collection and
 * into one without search fields, the cost of keeping the index.
 *
 * `BENCH_SMALL=1` is a smoke run: 5,000 documents, 0.5 s warm-up and 1 s per row (unless BENCH_DOCS,
 * BENCH_WARMUP or BENCH_DURATION say otherwise); the section says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { random } from '../lib/documents.ts';
import { LOAD, measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, call, seed, startSvc, type StoreKind, stopSvc, LISTS_FROM_STORE } from '../lib/svc.ts';

const SMALL_RUN = process.env.BENCH_SMALL === '1';
const DOCS = Number(process.env.BENCH_DOCS ?? (SMALL_RUN ? 5000 : 100_000));
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const TARGET_P50_MS = 20;

/** 5,000 made-up words of 2–4 syllables, the same every run. */
const VOCAB = (() => {
  const rnd = random(13);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'bri', 'den', 'fal', 'gor', 'hin', 'jul', 'mar', 'pel', 'quo', 'sten', 'tor', 'wen'];
  const words = new Set<string>();
  while (words.size < 5000) {
    const n = 2 + Math.floor(rnd() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(rnd() * syllables.length)]).join(''));
  }
  return [...words];
})();

/** A word of rank r (0-based) with probability ∝ 1 / (r + 1): Zipf, by inverting the cumulative sum. */
const zipf = (() => {
  const cumulative: number[] = [];
  let sum = 0;
  for (let r = 0; r < VOCAB.length; r++) cumulative.push((sum += 1 / (r + 1)));
  return (rnd: () => number): string => {
    const x = rnd() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return VOCAB[lo];
  };
})();

const sentence = (rnd: () => number, words: number) => Array.from({ length: words }, () => zipf(rnd)).join(' ');

/** The i-th article: ~1 KB of text in `title` and `body`. */
export function makeArticle(rnd: () => number): (i: number) => Record<string, unknown> {
  return (i) => ({ title: sentence(rnd, 8), body: `${sentence(rnd, 70)}. ${sentence(rnd, 70)}.`, n: i });
}

/** Two distinct words of ranks [from, to). */
export function pairOf(rnd: () => number, from: number, to: number): string {
  const a = VOCAB[from + Math.floor(rnd() * (to - from))];
  let b = a;
  while (b === a) b = VOCAB[from + Math.floor(rnd() * (to - from))];
  return `${a} ${b}`;
}

export const MID: [number, number] = [100, 1000];
export const COMMON: [number, number] = [5, 30];

interface Row {
  scenario: string;
  store: string;
  m: Measurement;
  bare?: Measurement;
  target: string;
  met?: boolean;
}

async function benchStore(store: StoreKind, bare: ServerProcess, rows: Row[], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store, LISTS_FROM_STORE);
  try {
    let t = Date.now();
    await seed({ url: svc.url, bulkPath: '/v1/articles/bulk', key: svc.key, count: DOCS, make: makeArticle(random(42)), parallel: 2 });
    notes.push(`${name}: seeding ${num(DOCS)} articles took ${num((Date.now() - t) / 1000, 1)} s.`);
    // The search fields come after the documents: svc back-fills the index.
    const { token } = await call<{ token: string }>(svc.url, 'POST', '/v1/admin/sign-in', undefined, {
      email: 'bench@example.com',
      password: 'bench-password-0123456789',
    });
    const { databases } = await call<{ databases: Array<{ id: string }> }>(svc.url, 'GET', '/v1/admin/databases', token);
    t = Date.now();
    await call(svc.url, 'PATCH', `/v1/admin/databases/${databases[0].id}`, token, { settings: { search: { articles: ['title', 'body'] } } });
    for (;;) {
      const [{ n }] = await svc.query<{ n: number | string }>('SELECT count(*) AS n FROM search_builds');
      if (Number(n) === 0) break;
      if (Date.now() - t > 30 * 60_000) throw new Error('the back-fill did not end within 30 minutes');
      await sleep(200);
    }
    const backfill = (Date.now() - t) / 1000;
    notes.push(`${name}: the back-fill of ${num(DOCS)} articles after setting \`search\` took ${num(backfill, 1)} s (${num(DOCS / backfill)} docs/s).`);
    if (store === 'postgres') {
      await svc.settle();
      await svc.query('VACUUM ANALYZE document_search');
    }

    // How many documents the queries match, from a sample of each kind.
    const sampleTotals = async (range: [number, number]) => {
      const rnd = random(7);
      const totals: number[] = [];
      for (let i = 0; i < 30; i++) {
        const q = encodeURIComponent(pairOf(rnd, ...range));
        totals.push((await call<{ total: number }>(svc.url, 'GET', `/v1/articles/docs?limit=0&search=${q}`, svc.key)).total);
      }
      totals.sort((a, b) => a - b);
      return `median ${num(totals[15])}, from ${num(totals[0])} to ${num(totals[29])}`;
    };
    notes.push(
      `${name}: documents matched by two words of ranks ${MID[0]}–${MID[1] - 1}: ${await sampleTotals(MID)}; of ranks ${COMMON[0]}–${COMMON[1] - 1}: ${await sampleTotals(COMMON)} (30 pairs each).`,
    );

    const run = (label: string, target: Omit<LoadTarget, 'url' | 'key'>) => {
      log(`${name}: ${label}`);
      return measure({ url: svc.url, key: svc.key, ...target });
    };
    const searchPath = (range: [number, number], rnd: () => number) => () => `/v1/articles/docs?limit=20&search=${encodeURIComponent(pairOf(rnd, ...range))}`;
    const barePath = (range: [number, number], rnd: () => number) => () => `/search?q=${encodeURIComponent(pairOf(rnd, ...range))}`;

    for (const connections of [LOAD.connections, 1]) {
      log(`${name}: bare search, ${connections} connection(s)`);
      const bareM = await measure({ url: bare.url, path: '/search?q=a', nextPath: barePath(MID, random(3)), connections });
      const m = await run(`search, ${connections} connection(s)`, { path: '/', nextPath: searchPath(MID, random(3)), connections });
      rows.push({
        scenario: `search= 2 words, ranked, 20 + total, ${connections} conn.`,
        store: name,
        m,
        bare: bareM,
        // The issue's figure is the latency of one search: the 1-connection row. Under a closed loop of
        // 10 the p50 is about 10 × the time per search, and bare FTS5 on the same load is above 20 ms
        // too (its column), so that row is shown, not judged.
        ...(connections === 1
          ? { target: `p50 ≤ ${TARGET_P50_MS} ms`, met: m.p50 <= TARGET_P50_MS && m.failures === 0 }
          : { target: `— (shown: p50 ≈ ${connections} × the time per search; bare FTS5 p50 ${num(bareM.p50, 1)} ms)` }),
      });
    }
    const common = await run('search, common words, 1 connection', { path: '/', nextPath: searchPath(COMMON, random(5)), connections: 1 });
    rows.push({ scenario: 'search= 2 common words (large match set), 1 conn.', store: name, m: common, target: '— (shown)' });
    const sorted = await run('search sorted by n, 1 connection', {
      path: '/',
      nextPath: () => `${searchPath(MID, random(3))()}&sortBy=n&sortOrder=desc`,
      connections: 1,
    });
    rows.push({ scenario: 'search= 2 words, sortBy=n desc, 1 conn.', store: name, m: sorted, target: '— (shown)' });

    // The write cost of the index: one article into the searched collection, and into one without search fields.
    const body = JSON.stringify(makeArticle(random(99))(0));
    const plain = await run('insert into a collection without search', { method: 'POST', path: '/v1/plain/docs', body });
    const indexed = await run('insert into the searched collection', { method: 'POST', path: '/v1/articles/docs', body });
    rows.push({ scenario: 'insert one ~1 KB article, no search fields', store: name, m: plain, target: '— (shown)' });
    rows.push({
      scenario: 'insert one ~1 KB article, searched collection',
      store: name,
      m: indexed,
      target: `— (${num((100 * indexed.rps) / plain.rps)} % of the row above)`,
    });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], notes: string[], skipped: string[]): string {
  const main = table(
    ['scenario', 'store', 'req/s', 'p50 ms', 'p99 ms', 'bare FTS5 (same load, right before): req/s · p50 ms', 'target', 'met', 'errors'],
    rows.map((r) => [
      r.scenario,
      r.store,
      num(r.m.rps),
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      r.bare ? `${num(r.bare.rps)} · ${num(r.bare.p50, 2)}` : '',
      r.target,
      r.met === undefined ? '' : r.met ? '✅' : '❌',
      r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  return `## Search: full-text search (issue 13)

${machine()}. autocannon, ${LOAD.connections} connections unless the row says 1, ${LOAD.warmup} s warm-up then ${LOAD.duration} s per row; ${num(DOCS)} articles of ~1 KB (title + body from a 5,000-word Zipf vocabulary).${SMALL_RUN ? " **Smoke run (`BENCH_SMALL=1`): sizes and durations are not the issue's; the figures say nothing.**" : ''}

${main}

How to read it: a search row asks for a new pair of words each request (ranks ${MID[0]}–${MID[1] - 1} of the
vocabulary), the page of 20 best first and the \`total\` of matches. The bare baseline
(\`bench/baseline/bare-search.ts\`) is Fastify + better-sqlite3 with one FTS5 table ranked by bm25, the same
documents and the same pairs, and none of svc's work (keys, tenants, rules, its own tokenizer and rank, JSON
documents); it runs on SQLite in both passes. The closed loop makes a 10-connection p50 about 10 × the
server's time per request; the 1-connection rows show that time alone. The issue's target (p50 ≤ 20 ms for
a search of two words) is judged on the 1-connection row, the time one search takes; the 10-connection row
shows throughput under load, where even bare FTS5 queues past 20 ms on this machine.

${[...notes, ...skipped].map((n) => `- ${n}`).join('\n')}
`;
}

const search: Scenario = {
  name: 'search',
  description: 'search= of two words over 100k ~1 KB documents on SQLite and PostgreSQL vs bare FTS5 (issue 13)',
  async run() {
    if (SMALL_RUN) {
      if (process.env.BENCH_DURATION === undefined) LOAD.duration = 1;
      if (process.env.BENCH_WARMUP === undefined) LOAD.warmup = 0.5;
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-search-'));
    const rows: Row[] = [];
    const notes: string[] = [];
    const { stores, skipped } = await benchStores();
    log('starting the bare search server');
    const bare = await startProcess('bare search', ['--import', 'tsx', 'bench/baseline/bare-search.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
    try {
      await seed({ url: bare.url, bulkPath: '/bulk', count: DOCS, make: makeArticle(random(42)), parallel: 2 });
      log(`bare: seeded ${DOCS} articles`);
      for (const store of stores) await benchStore(store, bare, rows, notes);
    } finally {
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return render(rows, notes, skipped ? [skipped] : []);
  },
};

export default search;

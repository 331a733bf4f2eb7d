/**
 * Issue 30 (bulk): `POST /v1/notes/bulk` of 100 documents at 50 connections, the shape of the peers
 * benchmark (Parse Server / bare / svc side by side), on both stores, each svc row measured right
 * after the same bare floor as the peers' (baseline/bare-peers.ts: Fastify + better-sqlite3, one
 * prepared INSERT per document in one transaction), so the ratio a developer reads here is the one
 * the side-by-side comparison shows.
 *
 * The documents are the peers' (~200 bytes, 5 fields: title, body, status, score, tags; the same
 * seeded generator), 20,000 of them cut into 200 bodies of 100 that the requests cycle through.
 * Targets (issue 30): SQLite ≥ 60 % of bare docs/s; both stores ≥ 5× Parse Server, which the peers
 * measured at 9.6 % of the bare floor (3,277 vs 34,104 docs/s), so ≥ 48 % of bare here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { peerBulkBodies } from '../lib/documents.ts';
import { LOAD, measure, type LoadTarget, type Measurement } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, startSvc, type StoreKind, stopSvc } from '../lib/svc.ts';

const CONNECTIONS = Number(process.env.BENCH_BULK_CONNECTIONS ?? 50);
const PER_REQUEST = 100;
const BODIES = 200;
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
/** Parse Server's bulk as a share of the bare floor in the peers' run (3,277 / 34,104 docs/s). */
const PARSE_SHARE = 3277 / 34104;
const TARGETS: Record<StoreKind, number> = { sqlite: 0.6, postgres: 5 * PARSE_SHARE };

interface Row {
  store: StoreKind;
  bare: Measurement;
  svc: Measurement;
}

/**
 * Warms up, waits until the server has worked off the warm-up's requests (autocannon stops sending,
 * not the server working: on a loaded machine 50 bulks in flight kept the first seconds of the
 * measured run busy with the warm-up's), then measures.
 */
async function warmedMeasure(t: LoadTarget): Promise<Measurement> {
  const duration = LOAD.duration;
  try {
    LOAD.duration = LOAD.warmup;
    const saved = LOAD.warmup;
    LOAD.warmup = 0;
    try {
      if (saved > 0) await measure(t);
    } finally {
      LOAD.warmup = saved;
    }
    await drained(t.url);
    LOAD.duration = duration;
    const warmup = LOAD.warmup;
    LOAD.warmup = 0;
    try {
      return await measure(t);
    } finally {
      LOAD.warmup = warmup;
    }
  } finally {
    LOAD.duration = duration;
  }
}

/** Resolves once GET /health answers within 100 ms (its queue is empty again), at most 60 s. */
async function drained(url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const t0 = performance.now();
    await fetch(`${url}/health`).then((r) => r.arrayBuffer());
    if (performance.now() - t0 < 100) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Requests that cycle through the bodies. */
function target(url: string, key: string | undefined, bodies: string[]): LoadTarget {
  let next = 0;
  return {
    url,
    key,
    method: 'POST',
    path: '/v1/notes/bulk',
    body: bodies[0],
    connections: CONNECTIONS,
    next: () => ({ body: bodies[next++ % bodies.length] }),
  };
}

async function benchStore(store: StoreKind, bodies: string[], notes: string[]): Promise<Row> {
  const name = STORE_NAME[store];
  // A fresh bare floor beside each store, measured right before svc: both see the same machine.
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-peers-'));
  let bare: Measurement;
  try {
    log(`${name}: bare floor, bulk ${PER_REQUEST} at ${CONNECTIONS} connections`);
    const server = await startProcess('bare floor', ['--import', 'tsx', 'bench/baseline/bare-peers.ts'], { DB_PATH: join(dir, 'bare.db') }, ROOT);
    try {
      bare = await warmedMeasure(target(server.url, undefined, bodies));
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  log(`${name}: svc, bulk ${PER_REQUEST} at ${CONNECTIONS} connections`);
  const svc = await startSvc(store);
  try {
    return { store, bare, svc: await warmedMeasure(target(svc.url, svc.key, bodies)) };
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], notes: string[]): string {
  const docs = (m: Measurement) => m.rps * PER_REQUEST;
  const fail = (m: Measurement) => (m.failures ? `⚠ ${m.failureDetail}` : '');
  const main = table(
    ['store', 'bare docs/s', 'svc docs/s', 'svc p50 ms', 'svc p99 ms', 'svc ÷ bare', 'target', 'met', 'errors (bare / svc)'],
    rows.map((r) => {
      const ratio = docs(r.svc) / docs(r.bare);
      const goal = TARGETS[r.store];
      const met = ratio >= goal && r.svc.failures === 0;
      return [
        STORE_NAME[r.store],
        num(docs(r.bare)),
        num(docs(r.svc)),
        num(r.svc.p50, 1),
        num(r.svc.p99, 1),
        `${num(100 * ratio)} %`,
        `≥ ${num(100 * goal)} % of bare`,
        met ? '✅' : '❌',
        [fail(r.bare), fail(r.svc)].filter(Boolean).join(' / '),
      ];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  return `## Bulk of ${PER_REQUEST} at ${CONNECTIONS} connections, as the peers benchmark measures it (issue 30)

${machine()}, load average ${load} at the end. autocannon, ${CONNECTIONS} connections, ${LOAD.warmup} s warm-up, then (once the server answers \`/health\` within 100 ms again) ${LOAD.duration} s per row; the load generator shares the machine with the server.

${main}

How to read it: each svc row is \`POST /v1/notes/bulk\` with ${PER_REQUEST} of the peers' ~200-byte documents
(${BODIES} bodies cycled), into a fresh store, measured right after the **same bare floor the peers benchmark
uses** (\`bench/baseline/bare-peers.ts\`: Fastify + better-sqlite3, WAL, one prepared INSERT per document in
one transaction, no auth, events or counts), started fresh beside each store. docs/s = 2xx answers ÷ seconds ×
${PER_REQUEST}. The targets are issue 30's: SQLite at least 60 % of the bare floor; both stores at least 5× Parse
Server, which the peers measured at ${num(100 * PARSE_SHARE, 1)} % of that floor (3,277 vs 34,104 docs/s), so
${num(100 * TARGETS.postgres)} % of it. Where a bulk's time goes on each store: the hand-written "Bulk profile"
section below. \`npm run bench -- bulk\` (~2 minutes).
${notes.length ? `\n${notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`;
}

const bulk: Scenario = {
  name: 'bulk',
  description: `bulk of ${PER_REQUEST} at ${CONNECTIONS} connections on both stores vs the peers benchmark's bare floor (issue 30)`,
  async run() {
    // The peers' run lengths (2 s warm-up, 10 s measured) unless the environment says otherwise;
    // the shared settings are restored for later scenarios.
    const saved = { ...LOAD };
    if (process.env.BENCH_DURATION === undefined) LOAD.duration = 10;
    if (process.env.BENCH_WARMUP === undefined) LOAD.warmup = 2;
    try {
      return await runAll();
    } finally {
      Object.assign(LOAD, saved);
    }
  },
};

/** Every store: a bare floor, then svc. */
async function runAll(): Promise<string> {
  const bodies = peerBulkBodies(BODIES, PER_REQUEST);
  const rows: Row[] = [];
  const notes: string[] = [];
  const { stores, skipped } = await benchStores();
  if (skipped) notes.push(skipped);
  for (const store of stores) rows.push(await benchStore(store, bodies, notes));
  return render(rows, notes);
}

export default bulk;

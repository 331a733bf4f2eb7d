/**
 * Issue 26, item 8: safe writes (API.md §1.2) on both stores.
 * - `$inc` on one hot document from HOT_CONNECTIONS (50) connections: throughput, and the counter
 *   read back equals the number of 2xx answers (zero lost increments);
 * - a batch of 10 creates against a bulk of 10, in documents per second;
 * - an insert with a fresh Idempotency-Key per request against one without (target: ≥ 85 %).
 * The bare baseline's insert (bench/baseline/bare-server.ts) is measured beside each store for scale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { bulkBody, oneDocBody } from '../lib/documents.ts';
import { newKey } from '../../packages/client/src/http.ts';
import { LOAD, measure, type Measurement } from '../lib/load.ts';
import { median } from '../lib/cpu.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { benchStores, call, startSvc, stopSvc, type StoreKind } from '../lib/svc.ts';

const HOT_CONNECTIONS = 50;
const BATCH_SIZE = 10;
/** Rounds of the insert rows without and with a key, each row once per round, and each run's length in seconds: short runs, many rounds. */
const ROUNDS = 12;
const ROUND_LOAD = { duration: 2, warmup: 0.5 };
/** The issue's target: an insert with an Idempotency-Key at ≥ 85 % of one without. */
const IDEMPOTENT_TARGET = 0.85;
/** The machine's load average (1 / 5 / 15 minutes) when the run started: on a shared machine, how far to trust the figures. */
let loadStart = '';
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Row {
  store: string;
  what: string;
  m: Measurement;
  /** Documents per request (docs/s = req/s × this). */
  perRequest: number;
  check: string;
}

const batchBody = JSON.stringify({
  operations: (JSON.parse(bulkBody(BATCH_SIZE)) as { documents: unknown[] }).documents.map((document) => ({ op: 'create', collection: 'batched', document })),
});

async function benchStore(store: StoreKind, bare: ServerProcess, rows: Row[], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store);
  try {
    const target = { url: svc.url, key: svc.key };

    log(`${name}: $inc on one hot document, ${HOT_CONNECTIONS} connections`);
    const hot = await call<{ id: string }>(svc.url, 'POST', '/v1/counters/docs', svc.key, { n: 0 });
    // No warm-up for this row: every 2xx of the run must show in the counter.
    const warmup = LOAD.warmup;
    LOAD.warmup = 0;
    const inc = await measure({ ...target, method: 'PATCH', path: `/v1/counters/docs/${hot.id}`, body: '{"$inc":{"n":1}}', connections: HOT_CONNECTIONS });
    LOAD.warmup = warmup;
    const { n } = await call<{ n: number }>(svc.url, 'GET', `/v1/counters/docs/${hot.id}`, svc.key);
    // Requests still in flight when the run ends (at most one per connection) are counted but not
    // answered in time: the counter may exceed the 2xx answers by that much, never fall short.
    const inFlight = n - inc.requests;
    const exact = inFlight >= 0 && inFlight <= HOT_CONNECTIONS;
    rows.push({
      store: name,
      what: `\`$inc\` on one document (${HOT_CONNECTIONS} conn.)`,
      m: inc,
      perRequest: 1,
      check: `${num(n)} counted = ${num(inc.requests)} answered + ${inFlight} in flight at the end: ${exact ? '0 lost ✅' : 'lost ❌'}`,
    });

    log(`${name}: batch of ${BATCH_SIZE} creates against a bulk of ${BATCH_SIZE}`);
    const batch = await measure({ ...target, method: 'POST', path: '/v1/batch', body: batchBody });
    rows.push({ store: name, what: `\`POST /batch\` of ${BATCH_SIZE} creates`, m: batch, perRequest: BATCH_SIZE, check: '' });
    const bulk = await measure({ ...target, method: 'POST', path: '/v1/bulked/bulk', body: bulkBody(BATCH_SIZE) });
    rows.push({
      store: name,
      what: `\`POST /bulk\` of ${BATCH_SIZE}`,
      m: bulk,
      perRequest: BATCH_SIZE,
      check: `batch at ${num((100 * batch.rps) / bulk.rps)} % of bulk`,
    });

    log(`${name}: insert without and with an Idempotency-Key`);
    // Every row builds each request alike (a fresh UUID in a header), so the load generator's own
    // cost, on the same cores, is the same on all: only the key's handling differs. Keys as the SDK
    // makes them (UUIDv7s, in time order) and random ones (UUIDv4s, as many other clients send): in
    // an index ordered by key, a random key costs a page of its own per write.
    // The three rows run back to back in ROUNDS rounds, in a turning order. Load from elsewhere on
    // a shared machine comes and goes from one run to the next: the best runs of the two keyed
    // rows, taken apart, differed by more than the margin to the target while both ran one code
    // path. A round's runs share its moment, so each round gives a ratio of its own, and the
    // target is checked on the median of those ratios.
    const insert = (path: string, header: string, key: () => string) => () =>
      measure({ ...target, method: 'POST', path, body: oneDocBody, next: () => ({ headers: { [header]: key() } }) });
    const shapes = [
      { what: '', run: insert('/v1/plain/docs', 'x-nonce', randomUUID), runs: [] as Measurement[] },
      {
        what: 'with an `Idempotency-Key` as the SDK makes them (UUIDv7, time order)',
        run: insert('/v1/keyed/docs', 'idempotency-key', () => newKey()),
        runs: [] as Measurement[],
      },
      { what: 'with a random `Idempotency-Key` (UUIDv4)', run: insert('/v1/random-keyed/docs', 'idempotency-key', randomUUID), runs: [] as Measurement[] },
    ];
    const usual = { duration: LOAD.duration, warmup: LOAD.warmup };
    Object.assign(LOAD, ROUND_LOAD);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        for (const shape of round % 2 ? [...shapes].reverse() : shapes) shape.runs.push(await shape.run());
      }
    } finally {
      Object.assign(LOAD, usual);
    }
    const best = (runs: Measurement[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const [plain, ...keyed] = shapes;
    rows.push({ store: name, what: `insert (best of ${ROUNDS})`, m: best(plain.runs), perRequest: 1, check: '' });
    for (const shape of keyed) {
      const ratios = shape.runs.map((m, i) => m.rps / plain.runs[i].rps);
      const ratio = median(ratios);
      rows.push({
        store: name,
        what: `insert ${shape.what}, a new one each (best of ${ROUNDS})`,
        m: best(shape.runs),
        perRequest: 1,
        check: `${num(100 * ratio)} % of insert, the median of the rounds' ${ratios.map((r) => num(100 * r)).join(', ')} % (target ≥ ${num(100 * IDEMPOTENT_TARGET)} %) ${ratio >= IDEMPOTENT_TARGET ? '✅' : '❌'}`,
      });
    }

    log(`${name}: bare insert`);
    const bareInsert = await measure({ url: bare.url, method: 'POST', path: '/docs', body: oneDocBody });
    rows.push({ store: name, what: 'bare baseline insert (for scale)', m: bareInsert, perRequest: 1, check: '' });
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], notes: string[]): string {
  const main = table(
    ['store', 'scenario', 'req/s', 'docs/s', 'p50 ms', 'p99 ms', 'check', 'errors'],
    rows.map((r) => [
      r.store,
      r.what,
      num(r.m.rps),
      num(r.m.rps * r.perRequest),
      num(r.m.p50, 2),
      num(r.m.p99, 1),
      r.check,
      r.m.failures ? `⚠ ${r.m.failureDetail}` : '',
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l'],
  );
  return `## Safe writes (issue 26)

${machine()}; load average ${loadStart} at the start, ${loadavg()
    .map((x) => x.toFixed(1))
    .join(
      ' / ',
    )} at the end. autocannon, ${LOAD.connections} connections (the \`$inc\` row: ${HOT_CONNECTIONS}), ${LOAD.warmup} s warm-up (the \`$inc\` row: none) then ${LOAD.duration} s per row.

${main}

How to read it: the \`$inc\` row sends \`PATCH {"$inc":{"n":1}}\` to one document from ${HOT_CONNECTIONS} connections;
every update locks the row and applies the operator to the version it finds, inside the write's transaction,
so the counter read back afterwards equals the number of 2xx answers. A batch runs its creates one after
another in one transaction (each its own event, inserted at once so later operations see it); a bulk inserts
its documents in one statement. The three insert rows ran back to back in ${ROUNDS} rounds (each run ${ROUND_LOAD.warmup} s of warm-up, then ${ROUND_LOAD.duration} s), in a turning order;
a keyed row's ratio is the median of its rounds' ratios to the plain insert of the same round (its req/s
column shows its best round). An insert with an \`Idempotency-Key\` runs as if the key were new and
writes the key's row, with its answer, as part of its own transaction (on PostgreSQL in the commit group's
last statement); it reads the key only when the write fails (a retry: the key is taken), so a fresh key costs
one row and no read. On PostgreSQL the row's key goes into the table's primary key, whose insert is logged as
the entry. On SQLite the table is only appended to and the index of keys is in the server's memory (an index
in the file, ordered by key, made each random key dirty a page of its own, which the COMMIT wrote whole).

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const safeWrites: Scenario = {
  name: 'safe-writes',
  description: '$inc on a hot document at 50 connections, batch vs bulk, insert with an Idempotency-Key, SQLite and PostgreSQL (issue 26)',
  async run() {
    loadStart = loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
    const rows: Row[] = [];
    const notes: string[] = [];
    const bare = await startProcess('bare baseline', ['--import', 'tsx', 'bench/baseline/bare-server.ts'], { BARE_DB: join(dir, 'bare.db') }, ROOT);
    try {
      const { stores, skipped } = await benchStores();
      if (skipped) notes.push(skipped);
      for (const store of stores) await benchStore(store, bare, rows, notes);
    } finally {
      await bare.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return render(rows, notes);
  },
};

export default safeWrites;

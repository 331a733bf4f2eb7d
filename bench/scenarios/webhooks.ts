/**
 * Issue 4, item 8: webhook deliveries on both stores, to a local receiver.
 *
 * - Sustained deliveries/s: bulk-insert documents into a collection with one webhook (then another
 *   with five webhooks) and time from the first write until every delivery arrived. Target ≥ 1,000/s.
 * - Latency from a document write's 201 to its delivery's first attempt reaching the receiver, with
 *   single inserts at a modest rate. Target p50 ≤ 20 ms.
 * - Baseline: the same receiver's rate for plain POSTs of a delivery-sized body from a tight
 *   node:http client loop in its own process (baseline/post-loop.ts), as many in flight as svc's
 *   dispatcher allows, measured right before each throughput row.
 *
 * The receiver (node:http, answering 200) runs in the bench process, which does little else meanwhile.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOAD } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { now, percentiles } from '../lib/stats.ts';
import { benchStores, call, startSvc, type Svc, type StoreKind, stopSvc } from '../lib/svc.ts';
import { startWorker, type Worker } from '../lib/worker.ts';

/** Documents for the one-webhook row; the five-webhook row inserts a fifth as many per webhook-count total. */
const DOCS = Number(process.env.BENCH_WEBHOOK_DOCS ?? 5000);
const DOCS_5 = Math.max(1000, Math.round(DOCS / 5 / 1000) * 1000) || 1000;
const LATENCY_WRITES = Number(process.env.BENCH_WEBHOOK_LATENCY_WRITES ?? 200);
/** Single inserts per second in the latency row. */
const LATENCY_RATE = 50;
/** svc's dispatcher: attempts in flight per webhook and in all (packages/server/src/webhooks/dispatcher.ts). */
const PER_WEBHOOK = 16;
const IN_FLIGHT = 64;
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** What reached the receiver, by path (one path per webhook). */
class Receiver {
  readonly server: http.Server;
  url = '';
  readonly arrivals = new Map<string, number>();
  readonly deliveryIds = new Set<string>();
  duplicates = 0;
  /** Arrival time of the first attempt per document id (latency row). */
  readonly firstByDoc = new Map<string, number>();
  last = 0;
  total = 0;

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = now();
        const path = req.url ?? '/';
        this.total++;
        this.last = at;
        this.arrivals.set(path, (this.arrivals.get(path) ?? 0) + 1);
        const delivery = req.headers['x-service-delivery'];
        if (typeof delivery === 'string') {
          if (this.deliveryIds.has(delivery)) this.duplicates++;
          else this.deliveryIds.add(delivery);
        }
        if (path.endsWith('/latency')) {
          const id = (JSON.parse(Buffer.concat(chunks).toString()) as { document?: { id?: string } }).document?.id;
          if (id && !this.firstByDoc.has(id)) this.firstByDoc.set(id, at);
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    this.server.keepAliveTimeout = 60_000;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(prefix: string): number {
    let n = 0;
    for (const [p, c] of this.arrivals) if (p.startsWith(prefix)) n += c;
    return n;
  }

  /** Resolves when `n` requests arrived under `prefix`, or after `timeoutMs` (then with what came). */
  async waitFor(prefix: string, n: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.count(prefix) < n && Date.now() < deadline) await sleep(20);
    return this.count(prefix);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface Row {
  scenario: string;
  store: string;
  rate: number;
  p50?: number;
  p99?: number;
  base?: { rate: number; name: string };
  target: string;
  met?: boolean;
  errors: string;
}

const docBody = (i: number) => ({
  title: `Event ${i}`,
  status: 'open',
  score: i,
  tags: ['bench', 'webhook'],
  author: { name: `user${i % 500}`, verified: i % 3 === 0 },
});

async function createHook(svc: Svc, url: string, collection: string): Promise<void> {
  await call(svc.url, 'POST', '/v1/webhooks', svc.key, { url, collections: [collection], events: ['document.created'], description: 'bench' });
}

/** Bulk-inserts `docs` documents into `collection`, 1,000 per request, one in flight; returns when the last write answered. */
async function insertAll(svc: Svc, collection: string, docs: number): Promise<void> {
  for (let start = 0; start < docs; start += 1000) {
    const documents = Array.from({ length: Math.min(1000, docs - start) }, (_, j) => docBody(start + j));
    await call(svc.url, 'POST', `/v1/${collection}/bulk`, svc.key, { documents });
  }
}

/** A delivery-sized body with the headers svc sends, for the bare POST loop. */
function sampleDelivery(): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: '1042',
    type: 'document.created',
    timestamp: new Date().toISOString(),
    database: '0193b0c4-7e1f-7000-8000-000000000000',
    collection: 'one',
    document: { id: '0193b0c4-7e1f-7000-8000-000000000001', ...docBody(1), createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() },
  });
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'svc-webhooks/1',
    'x-service-event': 'document.created',
    'x-service-delivery': 'bare',
    'x-service-signature': `sha256=${'0'.repeat(64)}`,
    'webhook-id': 'bare',
    'webhook-timestamp': '1763870000',
    'webhook-signature': `v1,${'A'.repeat(43)}=`,
  };
  return { body, headers };
}

async function bareRate(loop: Worker, receiver: Receiver, concurrency: number): Promise<{ rate: number; p50: number; p99: number; failed: number }> {
  const { body, headers } = sampleDelivery();
  return loop.call('run', { url: `${receiver.url}/bare`, concurrency, warmup: LOAD.warmup, duration: LOAD.duration, body, headers });
}

/**
 * One throughput row: bulk-inserts `docs` documents into `collection`, waits (up to 180 s) for
 * `want` deliveries under `prefix` and adds the row, flagging missing or repeated deliveries.
 * Returns how long the writes took and when the last delivery arrived, both in ms from the first write.
 */
async function throughputRow(
  svc: Svc,
  receiver: Receiver,
  rows: Row[],
  o: { collection: string; docs: number; prefix: string; want: number; scenario: string; store: string; bareRate: number },
): Promise<{ written: number; took: number }> {
  const dup0 = receiver.duplicates;
  const t0 = now();
  await insertAll(svc, o.collection, o.docs);
  const written = now() - t0;
  const got = await receiver.waitFor(o.prefix, o.want, 180_000);
  const took = receiver.last - t0;
  rows.push({
    scenario: o.scenario,
    store: o.store,
    rate: (got / took) * 1000,
    base: { rate: o.bareRate, name: 'bare POST' },
    target: '≥ 1,000 deliveries/s',
    met: got === o.want && (got / took) * 1000 >= 1000,
    errors: [got < o.want ? `⚠ ${o.want - got} missing after 180 s` : '', receiver.duplicates > dup0 ? `⚠ ${receiver.duplicates - dup0} repeated` : '']
      .filter(Boolean)
      .join(', '),
  });
  return { written, took };
}

async function benchStore(store: StoreKind, receiver: Receiver, loop: Worker, rows: Row[], baseRows: string[][], notes: string[]): Promise<void> {
  const name = STORE_NAME[store];
  log(`${name}: starting svc`);
  const svc = await startSvc(store, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  try {
    // Throughput, one webhook.
    const bare1 = await bareRate(loop, receiver, PER_WEBHOOK);
    baseRows.push([
      `bare POST loop, ${PER_WEBHOOK} in flight`,
      name,
      `${num(bare1.rate)} req/s`,
      num(bare1.p50, 2),
      num(bare1.p99, 1),
      bare1.failed ? `⚠ ${bare1.failed} non-2xx` : '',
    ]);
    await createHook(svc, `${receiver.url}/${store}/one`, 'one');
    log(`${name}: ${DOCS} deliveries to one webhook`);
    const one = await throughputRow(svc, receiver, rows, {
      collection: 'one',
      docs: DOCS,
      prefix: `/${store}/one`,
      want: DOCS,
      scenario: `${num(DOCS)} deliveries, 1 webhook`,
      store: name,
      bareRate: bare1.rate,
    });
    notes.push(
      `${name}: the ${num(DOCS)} documents of the one-webhook row were written (bulk, 1,000 per request, one at a time) in ${num(one.written / 1000, 2)} s; the last delivery arrived ${num(one.took / 1000, 2)} s after the first write started.`,
    );

    // Throughput, five webhooks on one collection.
    const bare5 = await bareRate(loop, receiver, Math.min(IN_FLIGHT, 5 * PER_WEBHOOK));
    baseRows.push([
      `bare POST loop, ${Math.min(IN_FLIGHT, 5 * PER_WEBHOOK)} in flight`,
      name,
      `${num(bare5.rate)} req/s`,
      num(bare5.p50, 2),
      num(bare5.p99, 1),
      bare5.failed ? `⚠ ${bare5.failed} non-2xx` : '',
    ]);
    for (let k = 0; k < 5; k++) await createHook(svc, `${receiver.url}/${store}/five/${k}`, 'five');
    const want = 5 * DOCS_5;
    log(`${name}: ${want} deliveries to five webhooks`);
    const five = await throughputRow(svc, receiver, rows, {
      collection: 'five',
      docs: DOCS_5,
      prefix: `/${store}/five/`,
      want,
      scenario: `${num(want)} deliveries, 5 webhooks × ${num(DOCS_5)} docs`,
      store: name,
      bareRate: bare5.rate,
    });
    notes.push(
      `${name}: the ${num(DOCS_5)} documents of the five-webhook row were written in ${num(five.written / 1000, 2)} s; the last of the ${num(want)} deliveries arrived ${num(five.took / 1000, 2)} s after the first write started.`,
    );

    // Latency: single inserts at LATENCY_RATE per second, write's 201 → first attempt's arrival.
    await createHook(svc, `${receiver.url}/${store}/latency`, 'latency');
    log(`${name}: latency, ${LATENCY_WRITES} single inserts at ${LATENCY_RATE}/s`);
    const answered = new Map<string, number>();
    const writeMs: number[] = [];
    const start = now();
    for (let i = 0; i < LATENCY_WRITES; i++) {
      const due = start + (i * 1000) / LATENCY_RATE;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      const sent = now();
      const doc = await call<{ id: string }>(svc.url, 'POST', '/v1/latency/docs', svc.key, docBody(i));
      const at = now();
      answered.set(doc.id, at);
      writeMs.push(at - sent);
    }
    const arrived = await receiver.waitFor(`/${store}/latency`, LATENCY_WRITES, 30_000);
    const latencies: number[] = [];
    for (const [id, at] of answered) {
      const first = receiver.firstByDoc.get(id);
      if (first !== undefined) latencies.push(first - at);
    }
    const p = percentiles(latencies);
    const w = percentiles(writeMs);
    rows.push({
      scenario: `201 → first attempt arrives (${LATENCY_WRITES} single inserts, ${LATENCY_RATE}/s)`,
      store: name,
      rate: NaN,
      p50: p.p50,
      p99: p.p99,
      target: 'p50 ≤ 20 ms',
      met: p.p50 <= 20 && arrived >= LATENCY_WRITES,
      errors: arrived < LATENCY_WRITES ? `⚠ ${LATENCY_WRITES - arrived} missing after 30 s` : '',
    });
    notes.push(
      `${name}: in the latency row the insert itself answered in p50 ${num(w.p50, 2)} ms, p99 ${num(w.p99, 1)} ms (request sent → 201); the slowest delivery arrived ${num(p.max, 1)} ms after its 201.`,
    );
  } finally {
    await stopSvc(svc, name, notes);
  }
}

function render(rows: Row[], baseRows: string[][], notes: string[]): string {
  const main = table(
    ['scenario', 'store', 'deliveries/s', 'p50 ms', 'p99 ms', 'ratio to bare (rate)', 'target', 'met', 'errors'],
    rows.map((r) => [
      r.scenario,
      r.store,
      num(r.rate),
      r.p50 === undefined ? '—' : num(r.p50, 2),
      r.p99 === undefined ? '—' : num(r.p99, 1),
      r.base ? `${num((100 * r.rate) / r.base.rate)} % of ${r.base.name}` : '—',
      r.target,
      r.met === undefined ? '' : r.met ? '✅' : '❌',
      r.errors,
    ]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l', 'l'],
  );
  const base = table(['bare baseline', 'measured beside', 'rate', 'p50 ms', 'p99 ms', 'errors'], baseRows, ['l', 'l', 'r', 'r', 'r', 'l']);
  return `## Webhooks: deliveries (issue 4)

${machine()}. svc with \`WEBHOOK_ALLOW_PRIVATE_URLS=true\`; the receiver (node:http, answers 200 at once) runs in the bench process; bare loop: ${LOAD.warmup} s warm-up then ${LOAD.duration} s.

${main}

${base}

How to read it: a throughput row bulk-inserts documents (1,000 per \`POST /bulk\`, one request at a time)
into a collection with one webhook, or with five, and divides the deliveries that reached the receiver by
the time from the first write until the last arrival; every delivery must arrive once (the receiver
counts \`X-Service-Delivery\` ids it has seen before). svc's dispatcher keeps at most ${PER_WEBHOOK} attempts in
flight per webhook and ${IN_FLIGHT} in all, so its baseline is the bare loop (\`bench/baseline/post-loop.ts\`,
its own process, a delivery-sized body with svc's headers) with as many in flight, measured right before:
the ratio is the share of raw HTTP throughput to the same receiver that svc keeps after queueing, claiming,
signing and recording each attempt. The latency row writes one document at a time (${LATENCY_RATE}/s, open loop)
into a collection with one webhook and measures from the moment the write's 201 reached the bench to the
moment its delivery reached the receiver (same process, same clock); an arrival before the 201 counts as negative.

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const webhooks: Scenario = {
  name: 'webhooks',
  description: 'webhook deliveries/s and write → delivery latency, on SQLite and PostgreSQL, vs a bare POST loop (issue 4)',
  async run() {
    const rows: Row[] = [];
    const baseRows: string[][] = [];
    const notes: string[] = [];
    const receiver = new Receiver();
    await receiver.listen();
    const loop = startWorker('bench/baseline/post-loop.ts');
    try {
      const { stores, skipped } = await benchStores();
      if (skipped) notes.push(skipped);
      for (const store of stores) await benchStore(store, receiver, loop, rows, baseRows, notes);
    } finally {
      await loop.stop();
      await receiver.close();
    }
    return render(rows, baseRows, notes);
  },
};

export default webhooks;

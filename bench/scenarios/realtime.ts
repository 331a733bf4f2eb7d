/**
 * Issue 5, item 7: realtime fan-out on one svc instance, against a bare `ws` broadcaster.
 *
 * For each server (the bare baseline/bare-ws.ts, then svc on SQLite, then on PostgreSQL when
 * reachable) a client process (lib/ws-clients.ts) opens SOCKETS WebSockets; the server's RSS is
 * read from /proc before and after. Then WRITES single writes (svc: `POST /v1/rt/docs`; bare:
 * `POST /broadcast`), each timed from its 201 to every socket's receipt. Then the sockets close,
 * 100 open, and documents are bulk-inserted for LOAD.duration seconds: events/s delivered to them.
 * The bare server is measured right before each svc pass, so both see the same machine load.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LOAD } from '../lib/load.ts';
import { machine, num, table } from '../lib/markdown.ts';
import { ROOT } from '../lib/paths.ts';
import { startProcess, type ServerProcess } from '../lib/process.ts';
import { log, type Scenario } from '../lib/scenario.ts';
import { now, openFilesLimit, percentiles, rssKiB } from '../lib/stats.ts';
import { benchStores, call, startSvc, type StoreKind, stopSvc } from '../lib/svc.ts';
import { startWorker, type Worker } from '../lib/worker.ts';

const WANTED_SOCKETS = Number(process.env.BENCH_REALTIME_SOCKETS ?? 10_000);
const WRITES = Number(process.env.BENCH_REALTIME_WRITES ?? 10);
const SMALL = 100;
/** svc's default LIMIT_REALTIME_SOCKETS_PER_TOKEN. */
const SOCKETS_PER_TOKEN = 100;
/** Source addresses 127.0.0.1 … 127.0.0.SOURCES, so the client never runs out of ephemeral ports. */
const SOURCES = 4;
const BULK = 1000;
const STORE_NAME: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const doc = (i: number, mark = '') => ({
  title: `Event ${i}${mark}`,
  status: 'open',
  score: i,
  tags: ['bench', 'realtime'],
  author: { name: `user${i % 500}`, verified: i % 3 === 0 },
});

/** What one server (svc or bare) gave. */
interface Pass {
  server: string;
  sockets: number;
  openMs: number;
  openFailed: string;
  rssBeforeKiB: number;
  rssAfterKiB: number;
  /** Receipt − 201, every socket of every write (ms). */
  fromAnswer: number[];
  /** Receipt − request sent. */
  fromSent: number[];
  /** The slowest socket of each write, from the 201. */
  lastPerWrite: number[];
  /** Request sent → 201 of each write, with every socket subscribed: the write plus the server's fan-out. */
  writeMs: number[];
  missing: number;
  /** Sustained: event messages/s in all to SMALL sockets, and the writes' documents/s. */
  eventsPerSecond: number;
  docsPerSecond: number;
  eventsMissing: number;
}

interface Target {
  /** One write: returns its 201 time. */
  write(i: number, mark: string): Promise<void>;
  /** One batch of BULK events. */
  bulk(i: number): Promise<void>;
  wsUrl: string;
  /** Per socket of the fan-out pass, when they may not all share `wsUrl` (svc: 100 sockets per token). */
  wsUrls?: string[];
  pid: number | undefined;
}

async function pass(label: string, clients: Worker, target: Target, sockets: number): Promise<Pass> {
  log(`${label}: opening ${num(sockets)} sockets`);
  const rssBeforeKiB = rssKiB(target.pid);
  const o = await clients.call<{ opened: number; failed: number; firstError: string; ms: number }>('open', {
    url: target.wsUrl,
    urls: target.wsUrls,
    count: sockets,
    sources: SOURCES,
  });
  await sleep(2000); // let the server settle (allocations of the handshakes, a GC)
  const rssAfterKiB = rssKiB(target.pid);
  log(`${label}: ${num(o.opened)} open in ${num(o.ms / 1000, 1)} s; RSS ${num(rssBeforeKiB / 1024, 1)} → ${num(rssAfterKiB / 1024, 1)} MiB; ${WRITES} writes`);

  const fromAnswer: number[] = [];
  const fromSent: number[] = [];
  const lastPerWrite: number[] = [];
  const writeMs: number[] = [];
  let missing = 0;
  for (let k = 0; k < WRITES; k++) {
    const mark = ` fanout-${k}-${Math.random().toString(36).slice(2)}`;
    await clients.call('arm', { text: mark });
    const sent = now();
    await target.write(k, mark);
    const answered = now();
    const r = await clients.call<{ delays: number[]; missing: number }>('collect', { from: answered, timeoutMs: 30_000 });
    for (const d of r.delays) {
      fromAnswer.push(d);
      fromSent.push(d + (answered - sent));
    }
    lastPerWrite.push(Math.max(...r.delays));
    writeMs.push(answered - sent);
    missing += r.missing;
    await sleep(300);
  }
  await clients.call('close');

  log(`${label}: ${SMALL} sockets, sustained writes for ${LOAD.duration} s`);
  await clients.call('open', { url: target.wsUrl, count: SMALL, sources: 1 });
  await clients.call('count');
  const started = now();
  let batches = 0;
  while (now() - started < LOAD.duration * 1000) await target.bulk(batches++);
  const wrote = now() - started;
  const expected = batches * BULK * SMALL;
  const c = await clients.call<{ events: number; lastEventAt: number }>('counted', { expected, timeoutMs: 60_000 });
  await clients.call('close');
  return {
    server: label,
    sockets: o.opened,
    openMs: o.ms,
    openFailed: o.failed ? `${o.failed} failed (${o.firstError})` : '',
    rssBeforeKiB,
    rssAfterKiB,
    fromAnswer,
    fromSent,
    lastPerWrite,
    writeMs,
    missing,
    eventsPerSecond: (c.events / Math.max(c.lastEventAt - started, wrote)) * 1000,
    docsPerSecond: ((batches * BULK) / wrote) * 1000,
    eventsMissing: expected - c.events,
  };
}

async function bareTarget(): Promise<{ server: ServerProcess; target: Target }> {
  const server = await startProcess('bare ws', ['--import', 'tsx', 'bench/baseline/bare-ws.ts'], {}, ROOT);
  return {
    server,
    target: {
      wsUrl: `${server.url.replace(/^http/, 'ws')}/v1/realtime`,
      pid: server.child.pid,
      write: (i, mark) => call(server.url, 'POST', '/broadcast', undefined, { count: 1, document: doc(i, mark) }),
      bulk: () => call(server.url, 'POST', '/broadcast', undefined, { count: BULK, document: doc(0) }),
    },
  };
}

const kib = (p: Pass) => (p.rssAfterKiB - p.rssBeforeKiB) / Math.max(1, p.sockets);

function render(passes: Array<{ svc: Pass; bare: Pass; store: string }>, notes: string[], sockets: number): string {
  const rows: string[][] = [];
  const bareRows: string[][] = [];
  const pct = (a: number, b: number) => `${num((100 * a) / b)} %`;
  for (const { svc, bare, store } of passes) {
    const f = percentiles(svc.fromAnswer);
    const fb = percentiles(bare.fromAnswer);
    const s = percentiles(svc.fromSent);
    const sb = percentiles(bare.fromSent);
    const mem = kib(svc);
    const memBare = kib(bare);
    const err = (p: Pass) =>
      [p.openFailed, p.missing ? `⚠ ${num(p.missing)} receipts missing` : '', p.eventsMissing > 0 ? `⚠ ${num(p.eventsMissing)} events missing` : '']
        .filter(Boolean)
        .join(', ');
    rows.push([
      `fan-out of one write to ${num(svc.sockets)} sockets (201 → receipt)`,
      store,
      '—',
      num(f.p50, 1),
      num(f.p99, 1),
      `p99 ${num(fb.p99, 1)} ms (${pct(f.p99, fb.p99)})`,
      'p99 ≤ 100 ms',
      f.p99 <= 100 ? '✅' : '❌',
      err(svc),
    ]);
    rows.push([
      `same, write request sent → receipt`,
      store,
      '—',
      num(s.p50, 1),
      num(s.p99, 1),
      `p99 ${num(sb.p99, 1)} ms (${pct(s.p99, sb.p99)})`,
      '— (client-bound, see below)',
      '',
      '',
    ]);
    const w = percentiles(svc.writeMs);
    const wb = percentiles(bare.writeMs);
    rows.push([
      `the write itself with ${num(svc.sockets)} subscribers (sent → 201)`,
      store,
      '—',
      num(w.p50, 1),
      num(w.max, 1) + ' (max)',
      `p50 ${num(wb.p50, 1)} ms (${pct(w.p50, wb.p50)})`,
      '—',
      '',
      '',
    ]);
    rows.push([
      `server memory per socket (ΔRSS / ${num(svc.sockets)})`,
      store,
      `${num(mem, 1)} KiB`,
      '—',
      '—',
      `${num(memBare, 1)} KiB (${pct(mem, memBare)})`,
      '≤ 10 KB per socket',
      mem * 1.024 <= 10 ? '✅' : '❌',
      '',
    ]);
    rows.push([
      `events/s to ${SMALL} sockets, bulk writes`,
      store,
      num(svc.eventsPerSecond),
      '—',
      '—',
      `${num(bare.eventsPerSecond)}/s (${pct(svc.eventsPerSecond, bare.eventsPerSecond)})`,
      '— (shown)',
      '',
      err(svc) ? '' : '',
    ]);
    bareRows.push([
      store,
      num(bare.sockets),
      num(bare.openMs / 1000, 1),
      num(fb.p50, 1),
      num(fb.p99, 1),
      num(sb.p99, 1),
      num(wb.p50, 1),
      `${num(memBare, 1)} KiB`,
      num(bare.eventsPerSecond),
      err(bare),
    ]);
    notes.push(
      `${store}: svc opened ${num(svc.sockets)} sockets in ${num(svc.openMs / 1000, 1)} s (bare: ${num(bare.openMs / 1000, 1)} s); RSS ${num(svc.rssBeforeKiB / 1024, 1)} → ${num(svc.rssAfterKiB / 1024, 1)} MiB (bare ${num(bare.rssBeforeKiB / 1024, 1)} → ${num(bare.rssAfterKiB / 1024, 1)} MiB); the slowest socket per write, from the 201: median ${num(percentiles(svc.lastPerWrite).p50, 1)} ms (bare ${num(percentiles(bare.lastPerWrite).p50, 1)} ms).`,
    );
    notes.push(
      `${store}: sustained: svc wrote ${num(svc.docsPerSecond)} docs/s (bulk of ${num(BULK)}, one request at a time) and delivered ${num(svc.eventsPerSecond)} event messages/s to ${SMALL} sockets (${num(svc.eventsPerSecond / SMALL)} per socket); the bare server broadcast ${num(bare.docsPerSecond)} messages/s to its ${SMALL} (${num(bare.eventsPerSecond)} deliveries/s).`,
    );
  }
  const main = table(['scenario', 'store', 'value', 'p50 ms', 'p99 ms', 'bare (ratio)', 'target', 'met', 'errors'], rows, [
    'l',
    'l',
    'r',
    'r',
    'r',
    'r',
    'l',
    'l',
    'l',
  ]);
  const bare = table(
    [
      'bare ws, beside',
      'sockets',
      'open s',
      'p50 ms (201 →)',
      'p99 ms (201 →)',
      'p99 ms (sent →)',
      'write p50 ms (sent → 201)',
      'memory per socket',
      `events/s to ${SMALL}`,
      'errors',
    ],
    bareRows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  return `## Realtime: fan-out (issue 5)

${machine()}. One server process, ${num(sockets)} WebSockets from one client process (\`ws\`, over ${SOURCES} loopback source addresses), ${WRITES} writes; sustained row ${LOAD.duration} s.

${main}

${bare}

How to read it: the client process (\`bench/lib/ws-clients.ts\`) opens the sockets (svc: \`/v1/realtime?token=…\`
for one collection; the bare server: \`bench/baseline/bare-ws.ts\`, a \`ws\` server with nothing else) and
timestamps each socket's receipt of the write's event; the bench process makes the write (svc: \`POST
/v1/rt/docs\`; bare: \`POST /broadcast\`, which sends one pre-serialised message of the same shape to every
client) and notes when its 201 arrived; both clocks are the machine's wall clock (\`performance.timeOrigin +
now()\`). Latencies pool every socket of every write. Both servers hand the message to every socket before their
201 leaves (svc's local bus runs its listeners in a microtask right after the commit; the bare server loops
before answering), so "201 → receipt" is what the client still has to read when the writer learns of
success (negative: the socket had it before the 201), "write sent → receipt" adds the write itself, and
"the write itself" (sent → 201, with every socket subscribed) is essentially the server's fan-out time.
One client event loop reads all ${num(sockets)} sockets in both passes, so the "sent → receipt" p99 is bounded
by how fast that one process drains ${num(sockets)} sockets; the bare ratio is the figure to read there. Memory per socket is the server's VmRSS
(/proc/<pid>/status) after opening and 2 s of rest, minus before, divided by the sockets. The sustained row
bulk-inserts ${num(BULK)} documents per request, one request at a time, for ${LOAD.duration} s with ${SMALL} sockets
subscribed, and divides the event messages they received by the time until the last one arrived; the bare
figure broadcasts ${num(BULK)} messages per request instead (no store), so it is the ceiling of the socket layer.

${notes.map((n) => `- ${n}`).join('\n')}
`;
}

const realtime: Scenario = {
  name: 'realtime',
  description: `fan-out of one write to 10k WebSockets, memory per socket, events/s to ${SMALL} sockets, vs a bare ws server (issue 5)`,
  async run() {
    const notes: string[] = [];
    const limit = openFilesLimit();
    const sockets = Math.min(WANTED_SOCKETS, limit - 500);
    if (sockets < WANTED_SOCKETS)
      notes.push(
        `Only ${num(sockets)} sockets: this shell allows ${num(limit)} open files per process (\`ulimit -n\`); raise it to measure ${num(WANTED_SOCKETS)}.`,
      );
    const { stores, skipped } = await benchStores();
    if (skipped) notes.push(skipped);
    const passes: Array<{ svc: Pass; bare: Pass; store: string }> = [];
    const clients = startWorker('bench/lib/ws-clients.ts');
    try {
      for (const store of stores) {
        const name = STORE_NAME[store];
        log(`${name}: bare ws baseline`);
        const b = await bareTarget();
        let bare: Pass;
        try {
          bare = await pass(`bare ws (beside ${name})`, clients, b.target, sockets);
        } finally {
          await b.server.stop();
        }
        log(`${name}: starting svc`);
        const svc = await startSvc(store);
        try {
          // svc lets one token open at most 100 sockets (LIMIT_REALTIME_SOCKETS_PER_TOKEN): one token per 100, as separate clients would have.
          const wsUrls: string[] = [];
          for (let i = 0; i < Math.ceil(sockets / SOCKETS_PER_TOKEN); i++) {
            const { url } = await call<{ url: string }>(svc.url, 'POST', '/v1/realtime/token', svc.key, { collections: ['rt'] });
            wsUrls.push(url.replace(/^ws:\/\/[^/]+/, svc.url.replace(/^http/, 'ws')));
          }
          const wsUrl = wsUrls[0];
          // A first write creates the collection (and warms the write path) before any socket opens.
          await call(svc.url, 'POST', '/v1/rt/docs', svc.key, doc(-1));
          const target: Target = {
            wsUrl,
            wsUrls: Array.from({ length: sockets }, (_, i) => wsUrls[Math.floor(i / SOCKETS_PER_TOKEN)]),
            pid: svc.child.pid,
            write: (i, mark) => call(svc.url, 'POST', '/v1/rt/docs', svc.key, doc(i, mark)),
            bulk: (i) => call(svc.url, 'POST', '/v1/rt/bulk', svc.key, { documents: Array.from({ length: BULK }, (_, j) => doc(i * BULK + j)) }),
          };
          const p = await pass(`svc (${name})`, clients, target, sockets);
          passes.push({ svc: p, bare, store: name });
        } finally {
          await stopSvc(svc, name, notes);
        }
      }
    } finally {
      await clients.stop();
    }
    return render(passes, notes, sockets);
  },
};

export default realtime;

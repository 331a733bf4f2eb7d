/**
 * The WebSocket client harness of the realtime and rules scenarios, in its own process
 * (lib/worker.ts): opens thousands of `ws` clients (to one URL, or each to its own) and timestamps,
 * per socket, the arrival of a marked message or counts event messages. The same harness drives svc
 * and the bare `ws` baseline, so its own cost (one event loop handling every socket) is in both figures.
 *
 * Sockets opened with `owners` belong to users: every event a socket receives must carry a document
 * whose `owner` is its user, else it counts as a violation (the rules scenario), and `collect` can
 * wait for the sockets of one owner only.
 */
import WebSocket from 'ws';
import { serve } from './worker.ts';
import { now } from './stats.ts';

let sockets: WebSocket[] = [];
/** A substring of the message to timestamp, and when each socket first saw it (NaN: not yet). */
let marker: Buffer | undefined;
const EVENT = Buffer.from('{"type":"event"');
let seen = new Float64Array(0);
let seenCount = 0;
/** Event messages counted since `count` was armed, and when the last one arrived. */
let counting = false;
let events = 0;
let lastEventAt = 0;
let unexpectedCloses = 0;
/** Per socket, the user it belongs to (undefined: sockets without owners), and each user's sockets. */
let ownerOf: string[] | undefined;
let socketsOf = new Map<string, number[]>();
/** Events received by owned sockets, and those whose document belonged to another user. */
let ownedEvents = 0;
let violations = 0;
let violationExample = '';

function onMessage(i: number, data: WebSocket.RawData): void {
  // Buffer searches, no string per message: the harness's own cost is part of every receipt time.
  const buf = data as Buffer;
  if (counting && buf.indexOf(EVENT) === 0) {
    events++;
    lastEventAt = now();
  }
  if (marker !== undefined && Number.isNaN(seen[i]) && buf.indexOf(marker) >= 0) {
    seen[i] = now();
    seenCount++;
  }
  // After the timestamp, so parsing is not in the receipt time.
  if (ownerOf !== undefined && buf.indexOf(EVENT) === 0) {
    ownedEvents++;
    const owner = (JSON.parse(buf.toString()) as { document?: { owner?: unknown } }).document?.owner;
    if (owner !== ownerOf[i]) {
      violations++;
      violationExample ||= `a socket of ${ownerOf[i]} received a document of ${String(owner)}`;
    }
  }
}

/** Opens one socket and resolves when its first message (`ready`) arrived. */
function openOne(url: string, i: number, localAddress: string | undefined): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { localAddress, perMessageDeflate: false });
    ws.once('message', () => {
      ws.on('message', (data) => onMessage(i, data));
      resolve(ws);
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.on('close', () => {
      if (sockets[i] === ws) unexpectedCloses++;
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

serve({
  /**
   * Opens `count` sockets, `inFlight` handshakes at a time, over `sources` loopback source
   * addresses: socket i to `urls[i]` when given, else to `url`; `owners[i]`: the user socket i belongs to.
   */
  async open({
    url,
    urls,
    owners,
    count,
    inFlight = 200,
    sources = 1,
  }: {
    url?: string;
    urls?: string[];
    owners?: string[];
    count: number;
    inFlight?: number;
    sources?: number;
  }) {
    ownerOf = owners;
    socketsOf = new Map();
    owners?.forEach((o, i) => {
      if (i < count) socketsOf.set(o, [...(socketsOf.get(o) ?? []), i]);
    });
    ownedEvents = 0;
    violations = 0;
    violationExample = '';
    const started = now();
    const opened: WebSocket[] = new Array(count);
    let next = 0;
    let failed = 0;
    let firstError = '';
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < count) {
          const i = next++;
          const local = sources > 1 ? `127.0.0.${1 + (i % sources)}` : undefined;
          for (let attempt = 0; ; attempt++) {
            try {
              opened[i] = await openOne(urls?.[i] ?? url!, i, local);
              break;
            } catch (e) {
              if (attempt >= 2) {
                failed++;
                firstError ||= String((e as Error).message ?? e);
                break;
              }
              await sleep(100);
            }
          }
        }
      }),
    );
    sockets = opened;
    seen = new Float64Array(count).fill(NaN);
    unexpectedCloses = 0;
    return { opened: opened.filter(Boolean).length, failed, firstError, ms: now() - started };
  },

  /** Timestamps, per socket, the first message containing `text`. */
  arm({ text }: { text: string }) {
    marker = Buffer.from(text);
    seen.fill(NaN);
    seenCount = 0;
  },

  /**
   * Waits until every open socket saw the marker (or `timeoutMs`); arrival times minus `from` (ms).
   * With `owner`: only that user's sockets are waited for and timed; `strays` counts the other
   * sockets that saw the marker by then.
   */
  async collect({ from, timeoutMs, owner }: { from: number; timeoutMs: number; owner?: string }) {
    if (owner !== undefined) {
      const mine = (socketsOf.get(owner) ?? []).filter((i) => sockets[i]);
      const deadline = Date.now() + timeoutMs;
      while (mine.some((i) => Number.isNaN(seen[i])) && Date.now() < deadline) await sleep(1);
      const delays = mine.filter((i) => !Number.isNaN(seen[i])).map((i) => seen[i] - from);
      marker = undefined;
      return { delays, missing: mine.length - delays.length, strays: seenCount - delays.length, closed: unexpectedCloses };
    }
    const open = sockets.filter(Boolean).length;
    const deadline = Date.now() + timeoutMs;
    while (seenCount < open && Date.now() < deadline) await sleep(5);
    const delays: number[] = [];
    for (const t of seen) if (!Number.isNaN(t)) delays.push(t - from);
    marker = undefined;
    return { delays, missing: open - seenCount, closed: unexpectedCloses };
  },

  /** Starts counting event messages on every socket. */
  count() {
    counting = true;
    events = 0;
    lastEventAt = 0;
  },

  /** Waits until `expected` event messages arrived in all (or `timeoutMs`, or no progress for `idleMs`). */
  async counted({ expected, timeoutMs, idleMs = 5000 }: { expected: number; timeoutMs: number; idleMs?: number }) {
    const deadline = Date.now() + timeoutMs;
    let last = events;
    let lastChange = Date.now();
    while (events < expected && Date.now() < deadline && Date.now() - lastChange < idleMs) {
      await sleep(10);
      if (events !== last) {
        last = events;
        lastChange = Date.now();
      }
    }
    counting = false;
    return { events, lastEventAt, closed: unexpectedCloses };
  },

  /** Owned sockets: events received in all, and how many carried another user's document. */
  violations() {
    return { events: ownedEvents, violations, example: violationExample };
  },

  /** Closes every socket and waits a moment for the closes to go out. */
  async close() {
    const all = sockets;
    sockets = [];
    ownerOf = undefined;
    socketsOf = new Map();
    for (const ws of all) ws?.terminate();
    await sleep(200);
    return { closed: all.length };
  },
});

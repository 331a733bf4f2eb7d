import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * takes the WAL past its threshold, in the writer's thread, which for better-sqlite3 is the event
 * loop: it copies the WAL's pages into the database file and waits for two fsyncs, and every
 * request waits with it. Writes that touch many pages (a bulk into a collection whose fields are
 * indexed) reach the threshold every few commits. Here a worker thread with its own connection
 * runs a PASSIVE checkpoint (it never blocks the writer or readers) shortly after commits, so the
 * writer's own automatic checkpoint, raised to `BACKSTOP_PAGES`, finds little left to copy.
 *
 * The backstop stays because a checkpoint that runs beside a stream of commits never ends with the
 * whole WAL copied, and SQLite starts the WAL over from its beginning only after one that did: the
 * writer's checkpoint, between two of its own transactions, is the one that does, once per
 * `BACKSTOP_PAGES` of WAL instead of once per 1,000 pages. Durability is the writer's as before
 * (WAL, synchronous = NORMAL): a checkpoint only moves committed pages into the database file.
 */
export const BACKSTOP_PAGES = 16_384;

/** How long after a commit the worker checkpoints: commits within this time share one checkpoint. */
const DELAY_MS = 100;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.postMessage('closed');
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy (another checkpoint is running) or the file is away: the next commit asks again
  }
  parentPort.postMessage('done');
});
`;

export class Checkpointer {
  private worker: Worker | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Commits since the checkpoint in progress began: one more is due when it ends. */
  private pending = false;
  private closed = false;
  /** The worker failed or exited: checkpoints are left to the writer's backstop from then on. */
  private dead = false;

  constructor(private readonly path: string) {}

  /** A transaction committed: a checkpoint within `DELAY_MS`. Cheap enough to call on every commit. */
  committed(): void {
    if (this.closed || this.dead) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => this.start(), DELAY_MS);
    this.timer.unref();
  }

  private start(): void {
    this.timer = undefined;
    if (this.closed) return;
    this.running = true;
    this.pending = false;
    this.spawned().postMessage('checkpoint');
  }

  private spawned(): Worker {
    if (this.worker) return this.worker;
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path: this.path } });
    worker.unref();
    worker.on('message', (m) => {
      if (m !== 'done') return;
      this.running = false;
      if (this.pending) this.committed();
    });
    // A worker that cannot run (no file, no memory) leaves checkpoints to the writer's backstop.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      this.dead = true;
      this.running = false;
    });
    this.worker = worker;
    return worker;
  }

  /** Stops the worker and closes its connection, before the writer's (whose close checkpoints last). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const worker = this.worker;
    if (!worker || this.dead) return;
    await new Promise<void>((resolve) => {
      worker.on('message', (m) => m === 'closed' && resolve());
      worker.once('exit', () => resolve());
      worker.postMessage('close');
    });
    await worker.terminate();
  }
}

import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';

/** The most a SIGTERM may take, whatever is running (docs/operations.md). */
export const SHUTDOWN_MS = 10_000;
/** Requests in flight get this long to be answered before their connections are cut. */
const DRAIN_MS = 5_000;
/** Past this the process exits with 1, closed or not. */
const FORCE_MS = SHUTDOWN_MS - 1_000;
/** Past this a thread of its own kills the process, should the main thread be stuck in something synchronous. */
const WATCHDOG_MS = SHUTDOWN_MS - 500;

/**
 * A thread that kills the process after `ms`. The main thread's timers cannot fire while a
 * synchronous call holds it (a long SQLite statement); a worker's can, and `process.kill` from
 * it ends the whole process. Unreferenced: it never keeps the process alive by itself.
 */
function watchdog(ms: number): void {
  const code = "const { workerData } = require('node:worker_threads'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), workerData.ms);";
  new Worker(code, { eval: true, workerData: { ms } }).unref();
}

/**
 * A graceful shutdown that ends within SHUTDOWN_MS whatever is running:
 * 1. `app.close()`: no new connections; each feature's `closing` (realtime sockets dropped,
 *    webhook attempts aborted and their deliveries given back), requests in flight answered,
 *    idle kept-alive connections closed;
 * 2. after DRAIN_MS, connections still open (a request whose body never ends, a client that
 *    never reads) are cut, so the HTTP server's close, which waits for them, ends;
 * 3. then `after` (the limiter, the bus, the store) in order.
 * At FORCE_MS the process exits with 1 whatever is left, and a watchdog thread kills it at
 * WATCHDOG_MS should the main thread be stuck. Resolves with the exit code: 0 once all closed.
 */
export async function shutdown(app: FastifyInstance, after: Array<() => Promise<void>>): Promise<number> {
  watchdog(WATCHDOG_MS);
  const force = setTimeout(() => {
    app.log.error('shutdown: still not closed after %d ms, exiting', FORCE_MS);
    process.exit(1);
  }, FORCE_MS);
  force.unref();
  const cut = setTimeout(() => {
    app.log.warn('shutdown: cutting the connections still open after %d ms', DRAIN_MS);
    app.server.closeAllConnections();
  }, DRAIN_MS);
  cut.unref();
  try {
    await app.close();
    clearTimeout(cut);
    for (const close of after) await close();
    return 0;
  } catch (e) {
    app.log.error({ err: e }, 'shutdown failed');
    return 1;
  }
}

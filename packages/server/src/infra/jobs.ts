import type { FastifyBaseLogger } from 'fastify';

/**
 * The one place background work runs on a timer (DESIGN.md: no scattered `setInterval`).
 *
 * A job never overlaps itself (a tick that finds the previous run still going is skipped), logs a
 * failure the same way for every job, and `stop()` clears every timer and waits for runs in flight,
 * so closing the app never leaves a query running against a store that is about to close.
 *
 * @example
 *   const jobs = createJobs(app.log);
 *   jobs.every('auth purge', 10 * 60_000, () => purgeExpired(store, clock));
 *   app.addHook('onClose', () => jobs.stop());
 */
export interface Jobs {
  /** Runs `fn` every `ms` (first after `firstAfterMs`, default `ms`) until `stop()`. */
  every(name: string, ms: number, fn: () => Promise<unknown> | unknown, options?: { firstAfterMs?: number }): void;
  /** Clears every timer and waits for the runs in flight. */
  stop(): Promise<void>;
}

export function createJobs(log: FastifyBaseLogger): Jobs {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  return {
    every(name, ms, fn, options = {}) {
      let busy = false;
      const tick = () => {
        if (busy || stopped) return;
        busy = true;
        const run: Promise<void> = Promise.resolve()
          .then(fn)
          .then(
            () => undefined,
            (err: unknown) => log.warn({ err, job: name }, `background job '${name}' failed`),
          )
          .finally(() => {
            busy = false;
            running.delete(run);
          });
        running.add(run);
      };
      const start = () => {
        const interval = setInterval(tick, ms);
        interval.unref();
        timers.add(interval);
        if (options.firstAfterMs !== undefined) tick();
      };
      if (options.firstAfterMs === undefined) return start();
      const first = setTimeout(() => {
        timers.delete(first);
        if (!stopped) start();
      }, options.firstAfterMs);
      first.unref();
      timers.add(first);
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}

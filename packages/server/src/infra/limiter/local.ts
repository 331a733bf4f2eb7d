import type { LimitResult, Limiter } from './limiter.ts';

/** How often ended windows are forgotten. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Fixed-window counters in this process's memory: right for one instance. Hand-written rather
 * than rate-limiter-flexible's memory limiter because it runs on every request: here a count is a
 * Map lookup and an increment, answered synchronously, with no promise, result object or timer per
 * request (the library's version cost about a tenth of a get-by-id's server time). The Redis
 * limiter, shared by instances, stays on the library.
 */
export function localLimiter(now: () => number = Date.now): Limiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  // Forget windows that ended, so one-off keys (client IPs) don't accumulate: a sweep at most once
  // a minute, done by the request that finds it due (no timer to stop, nothing runs while idle).
  let nextSweep = now() + SWEEP_EVERY_MS;
  const sweep = (t: number) => {
    nextSweep = t + SWEEP_EVERY_MS;
    for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
  };
  return {
    consume(key: string, limit: number, windowSeconds = 60): LimitResult {
      const t = now();
      if (t >= nextSweep) sweep(t);
      const id = `${limit}/${windowSeconds}/${key}`;
      let w = windows.get(id);
      if (!w || w.resetAt <= t) windows.set(id, (w = { count: 0, resetAt: t + windowSeconds * 1000 }));
      w.count += 1;
      const resetSeconds = Math.max(1, Math.ceil((w.resetAt - t) / 1000));
      return { allowed: w.count <= limit, limit, remaining: Math.max(0, limit - w.count), resetSeconds };
    },
    refund(key: string, limit: number, windowSeconds = 60): void {
      const w = windows.get(`${limit}/${windowSeconds}/${key}`);
      if (w && w.resetAt > now() && w.count > 0) w.count -= 1;
    },
    close: async () => undefined,
  };
}

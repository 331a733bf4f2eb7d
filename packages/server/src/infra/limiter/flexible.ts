import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import type { LimitResult, Limiter } from './limiter.ts';

const WINDOW_SECONDS = 60;

/**
 * A Limiter over rate-limiter-flexible: one counter per (limit, key), atomic in memory and in
 * Redis (where it is an INCR with expiry in one round trip), so an exact burst is counted exactly.
 */
class FlexibleLimiter implements Limiter {
  private readonly byLimit = new Map<number, RateLimiterAbstract>();
  constructor(private readonly make: (points: number) => RateLimiterAbstract, private readonly onClose: () => Promise<void>) {}

  async consume(key: string, limit: number): Promise<LimitResult> {
    let limiter = this.byLimit.get(limit);
    if (!limiter) this.byLimit.set(limit, (limiter = this.make(limit)));
    try {
      const res = await limiter.consume(key);
      return { allowed: true, limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
    }
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/** Counters in this process's memory: right for one instance. */
export function localLimiter(): Limiter {
  return new FlexibleLimiter((points) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS, keyPrefix: `l${points}` }), async () => undefined);
}

/** Counters in Redis, shared by every instance pointed at it. */
export function redisLimiter(url: string): Limiter {
  const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2 });
  client.on('error', () => undefined); // reconnects on its own; a failing consume surfaces the error
  return new FlexibleLimiter(
    (points) => new RateLimiterRedis({ storeClient: client, points, duration: WINDOW_SECONDS, keyPrefix: `svc:rl:${points}` }),
    async () => void (await client.quit().catch(() => undefined)),
  );
}

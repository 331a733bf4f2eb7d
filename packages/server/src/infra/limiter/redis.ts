import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import type { LimitResult, Limiter } from './limiter.ts';

const DEFAULT_WINDOW_SECONDS = 60;

/**
 * Counters in Redis, shared by every instance pointed at it: rate-limiter-flexible, one counter per
 * (limit, window, key), an INCR with expiry in one round trip, so an exact burst is counted
 * exactly across instances.
 */
export function redisLimiter(url: string): Limiter {
  const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2 });
  client.on('error', () => undefined); // reconnects on its own; a failing consume surfaces the error
  const byLimit = new Map<string, RateLimiterRedis>();
  const limiterFor = (limit: number, windowSeconds: number): RateLimiterRedis => {
    const id = `${limit}/${windowSeconds}`;
    let limiter = byLimit.get(id);
    if (!limiter) {
      // The one-minute windows keep their original key prefix.
      const keyPrefix = windowSeconds === DEFAULT_WINDOW_SECONDS ? `svc:rl:${limit}` : `svc:rl:${limit}w${windowSeconds}`;
      byLimit.set(id, (limiter = new RateLimiterRedis({ storeClient: client, points: limit, duration: windowSeconds, keyPrefix })));
    }
    return limiter;
  };
  return {
    async consume(key: string, limit: number, windowSeconds = DEFAULT_WINDOW_SECONDS): Promise<LimitResult> {
      const limiter = limiterFor(limit, windowSeconds);
      try {
        const res = await limiter.consume(key);
        return { allowed: true, limit, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
      }
    },
    async refund(key: string, limit: number, windowSeconds = DEFAULT_WINDOW_SECONDS): Promise<void> {
      await limiterFor(limit, windowSeconds).reward(key, 1);
    },
    close: async () => void (await client.quit().catch(() => undefined)),
  };
}

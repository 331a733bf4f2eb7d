import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { redisClient, watchRedis } from '../redis.ts';
import type { LimitResult, Limiter } from './limiter.ts';

const DEFAULT_WINDOW_SECONDS = 60;

/**
 * Counters in Redis, shared by every instance pointed at it: rate-limiter-flexible, one counter per
 * (limit, window, key), an INCR with expiry in one round trip, so an exact burst is counted
 * exactly across instances.
 *
 * Redis is never required to serve a request (API.md §11): while it is away (not connected, or a
 * command failed or timed out) each counter falls back to this instance's memory, the library's
 * insurance limiter, so limits hold per instance instead of across them until Redis is back.
 * The client never queues or retries a command (infra/redis.ts), so no request waits on a dead
 * Redis; `health` tells /ready and the log about it.
 */
export function redisLimiter(url: string): Limiter {
  const client = redisClient(url);
  const health = watchRedis(client);
  const byLimit = new Map<string, RateLimiterRedis>();
  const limiterFor = (limit: number, windowSeconds: number): RateLimiterRedis => {
    const id = `${limit}/${windowSeconds}`;
    let limiter = byLimit.get(id);
    if (!limiter) {
      // The one-minute windows keep their original key prefix.
      const keyPrefix = windowSeconds === DEFAULT_WINDOW_SECONDS ? `svc:rl:${limit}` : `svc:rl:${limit}w${windowSeconds}`;
      byLimit.set(
        id,
        (limiter = new RateLimiterRedis({
          storeClient: client,
          points: limit,
          duration: windowSeconds,
          keyPrefix,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix }),
        })),
      );
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
    health,
    close: () => health.close(),
  };
}

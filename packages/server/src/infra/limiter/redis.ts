import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import type { LimitResult, Limiter } from './limiter.ts';

const DEFAULT_WINDOW_SECONDS = 60;

/**
 * A Limiter over rate-limiter-flexible: one counter per (limit, window, key), atomic in Redis (an
 * INCR with expiry in one round trip), so an exact burst is counted exactly across instances.
 */
class FlexibleLimiter implements Limiter {
  private readonly byLimit = new Map<string, RateLimiterAbstract>();
  constructor(private readonly make: (points: number, seconds: number) => RateLimiterAbstract, private readonly onClose: () => Promise<void>) {}

  async consume(key: string, limit: number, windowSeconds = DEFAULT_WINDOW_SECONDS): Promise<LimitResult> {
    const id = `${limit}/${windowSeconds}`;
    let limiter = this.byLimit.get(id);
    if (!limiter) this.byLimit.set(id, (limiter = this.make(limit, windowSeconds)));
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

/** Counter namespace per (limit, window); the one-minute windows keep their original prefix. */
const prefix = (base: string, points: number, seconds: number): string =>
  seconds === DEFAULT_WINDOW_SECONDS ? `${base}${points}` : `${base}${points}w${seconds}`;

/** Counters in Redis, shared by every instance pointed at it. */
export function redisLimiter(url: string): Limiter {
  const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2 });
  client.on('error', () => undefined); // reconnects on its own; a failing consume surfaces the error
  return new FlexibleLimiter(
    (points, duration) => new RateLimiterRedis({ storeClient: client, points, duration, keyPrefix: prefix('svc:rl:', points, duration) }),
    async () => void (await client.quit().catch(() => undefined)),
  );
}

import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/store.ts';
import type { RedisHealth } from '../infra/redis.ts';

/**
 * What GET /ready answers (API.md §7, §11): 200 while the store answers, else 503; Redis, when
 * configured, is reported but never makes the instance unready, since requests are served without
 * it (rate limits count per instance, realtime reads the change log), and a shared Redis taking
 * every instance out of a load balancer's rotation at once would turn a degraded service into an
 * outage.
 *
 * @example 200 {"status":"ready","store":"ok","redis":"ok"}
 * @example 200 {"status":"degraded","store":"ok","redis":"down"}
 * @example 503 {"status":"unavailable","store":"down","error":{"code":"unavailable","message":"…"}}
 */
interface ReadyReport {
  status: 'ready' | 'degraded' | 'unavailable';
  store: 'ok' | 'down';
  /** Only when REDIS_URL is set. */
  redis?: 'ok' | 'down';
}

/** A dependency that doesn't answer within this long counts as down (probes time out too: Kubernetes' default is 1 s, set it to 3 s or more). */
const CHECK_TIMEOUT_MS = 2000;

/** Resolves true if `check` succeeds within CHECK_TIMEOUT_MS. */
function answers(check: () => Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
    check()
      .then(
        () => resolve(true),
        () => resolve(false),
      )
      .finally(() => clearTimeout(timer));
  });
}

/**
 * Checks the dependencies for /ready, and logs Redis going away and coming back, once each
 * (the limiter and the bus fall back silently; a line per request would drown the log).
 */
export function createReadiness(deps: { store: Store; redis?: RedisHealth; log: FastifyBaseLogger }): { check(): Promise<ReadyReport> } {
  deps.redis?.onChange((up) => {
    if (up) deps.log.info('Redis is reachable again: rate limits are shared by every instance again');
    else
      deps.log.warn("Redis is unreachable: until it is back, rate limits count per instance and realtime reads other instances' changes from the change log");
  });
  return {
    async check() {
      const [store, redis] = await Promise.all([
        answers(() => deps.store.ping()),
        deps.redis
          ? answers(async () => {
              if (!(await deps.redis!.check())) throw new Error('Redis does not answer');
            })
          : undefined,
      ]);
      const status = !store ? 'unavailable' : redis === false ? 'degraded' : 'ready';
      return { status, store: store ? 'ok' : 'down', ...(redis === undefined ? {} : { redis: redis ? 'ok' : 'down' }) };
    },
  };
}

import type { Feature } from '../feature.ts';
import type { RedisHealth } from '../infra/redis.ts';
import type { Store } from '../store/store.ts';
import type { Metrics } from './metrics.ts';
import { operationsRoutes } from './routes.ts';

/** §7 operations: /health, /ready, /metrics and /v1/openapi.json. */
export function createOperations(deps: { store: Store; metrics: Metrics; metricsToken?: string; redis?: RedisHealth }): Feature {
  return { routes: (app) => operationsRoutes(app, deps) };
}

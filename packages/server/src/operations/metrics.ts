import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ApiError } from '../errors.ts';
import { sameSecret } from '../keys/key-format.ts';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The service's Prometheus registry: one per app, so several apps in one process don't collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'svc_webhook_deliveries_total',
    labelNames: ['outcome'],
    registers: [registry],
    help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, another attempt is scheduled), failed (no attempts left)',
  });
  /** Set by the webhooks feature; read at each scrape. */
  const sources: { webhookQueueDepth?: () => Promise<number> } = {};
  new Gauge({
    name: 'svc_webhook_queue_depth',
    help: 'Pending webhook deliveries in the store (every instance)',
    registers: [registry],
    async collect() {
      if (sources.webhookQueueDepth) this.set(await sources.webhookQueueDepth().catch(() => Number.NaN));
    },
  });
  return { registry, requests, duration, webhookDeliveries, sources };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Counts and times every request by its route pattern (bounded label values, no ids). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Callback-style hooks (here and in http/) cost no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * With METRICS_TOKEN set, a scrape must send `Authorization: Bearer <token>`, else 401
 * `invalid_token` (the series name routes and counts, which is not for everyone). The token is
 * compared in constant time (sameSecret). Without a token the hook lets everything through.
 */
export function metricsAccess(token: string | undefined): onRequestHookHandler {
  return (request, reply, done) => {
    if (token === undefined) return done();
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (m && sameSecret(m[1], token)) return done();
    reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
    done(new ApiError('invalid_token', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'));
  };
}

import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../errors.ts';
import { sameSecret } from '../keys/key-format.ts';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

type RequestLabels = { method: string; route: string; status: string };

/**
 * Requests answered since the last scrape, as plain numbers, added to `svc_http_requests_total`
 * when it is collected (same series, same values). prom-client's `inc` builds and looks up a label
 * string on every call; here a request finds its tally by its route's config object (one per
 * route), its method and its status, about a tenth of that (docs/performance-notes.md).
 */
class AnsweredRequests {
  private readonly byRoute = new Map<object | undefined, Map<string, Map<number, { labels: RequestLabels; n: number }>>>();

  count(routeConfig: object | undefined, method: string, route: string, status: number): void {
    let byMethod = this.byRoute.get(routeConfig);
    if (!byMethod) this.byRoute.set(routeConfig, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    const tally = byStatus.get(status);
    if (tally) tally.n += 1;
    else byStatus.set(status, { labels: { method, route, status: String(status) }, n: 1 });
  }

  /** Hands over every count since the last flush. */
  flush(add: (labels: RequestLabels, n: number) => void): void {
    for (const byMethod of this.byRoute.values()) {
      for (const byStatus of byMethod.values()) {
        for (const tally of byStatus.values()) {
          if (tally.n === 0) continue;
          add(tally.labels, tally.n);
          tally.n = 0;
        }
      }
    }
  }
}

/** The service's Prometheus registry: one per app, so several apps in one process don't collide. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const answered = new AnsweredRequests();
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      answered.flush((labels, n) => this.inc(labels, n));
    },
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
  const listCache = new Counter({
    name: 'svc_list_cache_requests_total',
    labelNames: ['outcome'],
    registers: [registry],
    help: 'Lists of documents that could be answered from memory (LIST_CACHE_MB), by outcome: hit (from memory), miss (read from the store)',
  });
  // Pre-bound series: no label lookup per list, and both show from 0.
  const listCacheSeries = { hit: listCache.labels({ outcome: 'hit' }), miss: listCache.labels({ outcome: 'miss' }) };
  listCacheSeries.hit.inc(0);
  listCacheSeries.miss.inc(0);
  const countListCache = (outcome: 'hit' | 'miss') => listCacheSeries[outcome].inc();
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
  return { registry, requests, answered, duration, webhookDeliveries, countListCache, sources };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Counts and times every request by its route pattern (bounded label values, no ids). */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Callback-style hooks (here and in http/) cost no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const { config, url } = request.routeOptions;
    const route = url ?? 'unmatched';
    metrics.answered.count(config, request.method, route, reply.statusCode);
    metrics.duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
}

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever its TCP peer is. */
const FORWARDED = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Whether a request comes from this machine: its TCP peer is a loopback address (127.0.0.0/8, ::1,
 * ::ffff:127.x) and it names no forwarded client (a proxy on this host connects from loopback for
 * everyone). Read from the socket, not `request.ip`, which TRUST_PROXY takes from a header a client writes.
 */
function fromLoopback(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress;
  if (!peer || !ipaddr.isValid(peer) || ipaddr.process(peer).range() !== 'loopback') return false;
  return !FORWARDED.some((h) => request.headers[h] !== undefined);
}

/**
 * Who may scrape (safe by default: the series name routes and counts, which is not for
 * everyone, and the server listens on every interface). Without METRICS_TOKEN, only this machine
 * (403 `forbidden` otherwise, saying to set it). With it, every scrape must send
 * `Authorization: Bearer <token>`, else 401 `invalid_token`; it is compared in constant time (sameSecret).
 */
export function metricsAccess(token: string | undefined): onRequestHookHandler {
  return (request, reply, done) => {
    if (token === undefined) {
      if (fromLoopback(request)) return done();
      return done(
        new ApiError(
          'forbidden',
          'GET /metrics answers only this machine (loopback) while METRICS_TOKEN is unset: set it, and scrape with Authorization: Bearer <METRICS_TOKEN>',
        ),
      );
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (m && sameSecret(m[1], token)) return done();
    reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
    done(new ApiError('invalid_token', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'));
  };
}

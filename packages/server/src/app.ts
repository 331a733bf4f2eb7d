import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { OPENAPI_TAGS } from './docs/branding.ts';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Store } from './store/store.ts';
import type { Limiter } from './infra/limiter/limiter.ts';
import { installErrorHandling } from './errors.ts';
import { loggerOptions } from './http/logging.ts';
import { installBodyParsing } from './http/body.ts';
import { httpLayerOptions, installHttpLayerErrors } from './http/http-errors.ts';
import { installValidation } from './http/validation.ts';
import { installCors } from './http/cors.ts';
import { installRequestChecks } from './http/auth.ts';
import { requestCounter } from './http/rate-limit.ts';
import { createMetrics, installRequestMetrics } from './operations/metrics.ts';
import type { ChangeListener } from './changes/events.ts';
import { createKeyUsage } from './keys/last-used.ts';
import { createOperations } from './operations/operations.ts';
import { createAdmin } from './admin/admin.ts';
import { createDocuments } from './documents/documents.ts';
import { createDashboard } from './dashboard/dashboard.ts';
import { createSdk } from './sdk/sdk.ts';
import { createDocs } from './docs/docs.ts';
import { createWebhooks } from './webhooks/webhooks.ts';
import { createRules } from './rules/rules.ts';
import { createAuth } from './auth/auth.ts';
import { systemClock, type Clock } from './infra/clock.ts';
import type { Bus } from './infra/bus/bus.ts';
import { localBus } from './infra/bus/local.ts';
import { createRealtime } from './realtime/realtime.ts';
import { createSync } from './sync/sync.ts';
import { createJobs } from './infra/jobs.ts';
import { createInvalidation, type Invalidation } from './infra/invalidation/invalidation.ts';
import { InvalidatedCache } from './infra/invalidation/cache.ts';
import { createInvalidationFeature } from './infra/invalidation/feature.ts';
import type { Feature } from './feature.ts';
import { createFiles } from './files/files.ts';
import { createChangeRetention } from './changes/retention.ts';

interface AppDeps {
  config: Config;
  store: Store;
  limiter: Limiter;
  /** Hears every committed change (tests; realtime and webhooks build on it). */
  onChange?: ChangeListener;
  /** Time source for expiry, backoff, retention and timestamps (tests pass a ManualClock); operators' sessions keep the wall clock (keys/operator-sessions.ts). */
  clock?: Clock;
  /** Where the log goes instead of stdout (tests read it back). */
  logStream?: DestinationStream;
  /** Fan-out of committed changes between instances (default: in-process). */
  bus?: Bus;
  /** The first-run setup token main.ts prints while no operator exists (default: a fresh one nobody has seen). */
  setupToken?: string;
  /** How cached credentials learn they died (default: picked from config.databaseUrl, as the store is). */
  invalidation?: Invalidation;
}

/**
 * Builds the whole service. The order matters and reads top to bottom: error handling, CORS and
 * body parsing, then the request hooks (auth → rate limit → access check as one hook, metrics),
 * then every feature's routes in one list.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store, limiter } = deps;
  const clock = deps.clock ?? systemClock;
  const bus = deps.bus ?? localBus();
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream, config.logPretty),
    trustProxy: config.trustProxy,
    bodyLimit: config.limits.bodyBytes,
    // Path parameters are checked by the routes (ids are up to 128 characters); the router's default
    // of 100 would answer longer ones with its own 414, outside the error shape.
    routerOptions: { maxParamLength: 16 * 1024 },
    // The header limit, and the HTTP layer's own refusals in the §0 shape (src/http/http-errors.ts).
    ...httpLayerOptions(config.limits),
  });
  installErrorHandling(app);
  installHttpLayerErrors(app);
  installValidation(app);
  installCors(app);
  installBodyParsing(app, { maxDepth: config.limits.jsonDepth, smallBodyBytes: config.limits.smallBodyBytes });

  const metrics = createMetrics();
  const jobs = createJobs(app.log);
  const keyUsage = createKeyUsage({ store, clock, jobs });
  const invalidation = deps.invalidation ?? createInvalidation(config.databaseUrl, app.log, store);
  const cacheSize = { max: config.credentialCacheSize };
  installRequestChecks(
    app,
    {
      store,
      clock,
      lastUsed: keyUsage.tracker,
      keys: new InvalidatedCache(invalidation, cacheSize),
      operators: new InvalidatedCache(invalidation, cacheSize),
    },
    requestCounter({ limiter, perKey: config.rateLimitPerKey, perIp: config.rateLimitPerIp }),
  );
  installRequestMetrics(app, metrics);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'svc', version: '0.1.0', description: 'Documents, end-user accounts, realtime and webhooks behind one API key.' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ apiKey: [] }],
      // The reference's sections in this order: the data routes an app calls first, the operator's last.
      tags: OPENAPI_TAGS,
    },
  });

  const webhooks = createWebhooks({ config, store, clock, log: app.log, metrics, jobs });
  const onChange: ChangeListener = (events) => {
    bus.publish(events);
    deps.onChange?.(events);
  };
  const auth = createAuth({ store, config, limiter, clock, jobs, log: app.log, invalidation });
  // Databases' settings (rules, bucket settings) kept per instance: documents and files read them on most requests.
  const databaseSettings = new InvalidatedCache<string>(invalidation, cacheSize);
  const documents = createDocuments({
    store,
    limits: config.limits,
    clock,
    log: app.log,
    onChange,
    inTransaction: [webhooks.enqueue],
    jobs,
    cachedRuleReads: {
      invalidation,
      settings: databaseSettings,
      sessionUser: (databaseId, token) => auth.sessions.userOf(databaseId, token),
    },
    pageCache: { invalidation, maxBytes: config.listCacheMb * 1024 * 1024, counted: metrics.countListCache },
    crashAfterCommit: config.testCrashAfterCommitKey,
  });

  // Files (§12): their events reach webhooks and realtime like the documents' (the same hook, the same listener).
  const files = createFiles({
    config,
    store,
    clock,
    limiter,
    jobs,
    log: app.log,
    onChange,
    invalidation,
    settings: databaseSettings,
    inTransaction: async (tx, databaseId, events) => {
      const hooks = await webhooks.enqueue.prefetch(tx, databaseId);
      if (hooks) await webhooks.enqueue.apply(tx, hooks, events);
    },
  });

  // Every feature, in one list: routes registered in this order, started when the app is ready,
  // stopped in reverse order when it closes.
  const features: Feature[] = [
    createInvalidationFeature(app, invalidation, jobs),
    createOperations({ store, metrics, metricsToken: config.metricsToken, redis: limiter.health }),
    createAdmin({ store, clock, publicUrl: config.publicUrl, limiter, setupToken: deps.setupToken }),
    documents,
    createChangeRetention({ store, clock, log: app.log, jobs, maxAgeMs: config.eventRetentionHours * 3_600_000 }),
    webhooks,
    auth,
    createRealtime({ config, store, clock, bus, limiter, jobs, metrics, log: app.log, invalidation, sessions: auth.sessions }),
    createRules({ store, clock }),
    files,
    createSync({ store, rules: documents.rules, log: app.log }),
    createDocs({ publicUrl: config.publicUrl }),
    createDashboard({ publicUrl: config.publicUrl }),
    createSdk(),
    keyUsage,
  ];
  for (const feature of features) feature.routes(app);
  app.addHook('onReady', async () => {
    for (const feature of features) await feature.start?.();
  });
  // Before the HTTP server closes, which waits for every open connection (WebSockets included).
  app.addHook('preClose', async () => {
    for (const feature of [...features].reverse()) await feature.closing?.();
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
    for (const feature of [...features].reverse()) await feature.stop?.();
  });
  return app;
}

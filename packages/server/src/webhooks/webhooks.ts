import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';
import { WebhooksService, type HookFilter } from './service.ts';
import { Dispatcher } from './dispatcher.ts';
import { pruneOldDeliveries } from './retention.ts';
import type { Jobs } from '../infra/jobs.ts';
import { Sender } from './sender.ts';
import { UrlGuard } from './url-guard.ts';
import { queueDepth } from './deliveries.ts';
import type { Metrics } from '../operations/metrics.ts';
import type { WriteHook } from '../documents/service.ts';
import type { Feature } from '../feature.ts';
import { webhookRoutes } from './routes.ts';

/** How often finished deliveries are pruned (the change log prunes its events itself: changes/retention.ts). */
const RETENTION_EVERY_MS = 10 * 60_000;

/** The whole webhooks feature, wired once by the app: what app.ts hands to the documents service, the routes and the lifecycle. */
export interface Webhooks extends Feature {
  service: WebhooksService;
  /**
   * DocumentsDeps.inTransaction hook: reads the database's enabled webhooks before the change log
   * is appended, queues the deliveries of the write's events in its transaction, and wakes the
   * dispatcher once that transaction committed, if it queued any.
   */
  enqueue: WriteHook<HookFilter[]>;
  start(): void;
  stop(): Promise<void>;
}

export function createWebhooks(deps: { config: Config; store: Store; clock: Clock; log: FastifyBaseLogger; metrics: Metrics; jobs: Jobs }): Webhooks {
  const { config, store, clock, log, metrics, jobs } = deps;
  metrics.sources.webhookQueueDepth = () => queueDepth(store);
  const guard = new UrlGuard(config.webhookAllowPrivateUrls);
  const sender = new Sender(guard, config.webhookTimeoutMs);
  const dispatcher = new Dispatcher({
    store,
    sender,
    clock,
    log,
    onAttempt: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
    timeoutMs: config.webhookTimeoutMs,
    retryBaseMs: config.webhookRetryBaseMs,
    maxAttempts: config.webhookMaxAttempts,
    disableAfterFailures: config.webhookDisableAfterFailures,
    disableAfterMs: config.webhookDisableAfterHours * 3_600_000,
    maxInFlight: config.webhookConcurrency,
  });
  const pruneDeliveries = async () => {
    const deliveries = await pruneOldDeliveries(store, clock, config.webhookRetentionDays * 86_400_000);
    if (deliveries) log.info({ deliveries }, 'pruned old webhook deliveries');
  };
  const service = new WebhooksService({ store, guard, clock, maxWebhooks: config.limits.webhooksPerDatabase, wake: () => dispatcher.wake() });
  return {
    service,
    routes: (app) => webhookRoutes(app, { webhooks: service, maxPageSize: config.limits.pageSize }),
    enqueue: {
      async prefetch(tx, databaseId) {
        const hooks = await service.enabledHooks(tx, databaseId);
        return hooks.length ? hooks : undefined;
      },
      async apply(tx, hooks, events) {
        if ((await service.enqueue(tx, hooks, events)) > 0) tx.afterCommit(() => dispatcher.wake());
      },
    },
    start() {
      dispatcher.start();
      // A first pass soon after start, then every 10 minutes.
      jobs.every('webhook retention', RETENTION_EVERY_MS, pruneDeliveries, { firstAfterMs: 30_000 });
    },
    async stop() {
      await dispatcher.stop();
      sender.close();
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../infra/clock.ts';
import type { ChangeEvent } from '../documents/changes.ts';
import type { Queryable, Store } from '../store/store.ts';
import { WebhooksService } from './service.ts';
import { Dispatcher } from './dispatcher.ts';
import { Retention } from './retention.ts';
import { Sender } from './sender.ts';
import { UrlGuard } from './url-guard.ts';
import { queueDepth } from './deliveries.ts';
import type { Metrics } from '../operations/metrics.ts';
import type { WriteHook } from '../documents/service.ts';
import type { Feature } from '../feature.ts';
import { webhookRoutes } from './routes.ts';

/** The whole webhooks feature, wired once by the app: what app.ts hands to the documents service, the routes and the lifecycle. */
export interface Webhooks extends Feature {
  service: WebhooksService;
  /** DocumentsDeps.inTransaction hook: queues the deliveries of a write in its transaction. */
  enqueue: WriteHook;
  /** DocumentsDeps.onChange listener: wakes the dispatcher when a committed write queued deliveries. */
  onChange(events: ChangeEvent[]): void;
  start(): void;
  stop(): Promise<void>;
}

export function createWebhooks(deps: {
  config: Config; store: Store; clock: Clock; log: FastifyBaseLogger; metrics: Metrics;
}): Webhooks {
  const { config, store, clock, log, metrics } = deps;
  metrics.sources.webhookQueueDepth = () => queueDepth(store);
  const guard = new UrlGuard(config.webhookAllowPrivateUrls);
  const sender = new Sender(guard, config.webhookTimeoutMs);
  const dispatcher = new Dispatcher({
    store, sender, clock, log, onAttempt: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
    timeoutMs: config.webhookTimeoutMs, retryBaseMs: config.webhookRetryBaseMs, maxAttempts: config.webhookMaxAttempts,
    disableAfterFailures: config.webhookDisableAfterFailures, disableAfterMs: config.webhookDisableAfterHours * 3_600_000,
  });
  const retention = new Retention({
    store, clock, log, deliveryMaxAgeMs: config.webhookRetentionDays * 86_400_000, eventMaxAgeMs: config.eventRetentionHours * 3_600_000,
  });
  const service = new WebhooksService({ store, guard, clock, maxWebhooks: config.limits.webhooksPerDatabase, wake: () => dispatcher.wake() });
  // The event arrays of writes that queued deliveries: onChange gets the same array after COMMIT,
  // so only those wake the dispatcher (a rolled-back write's array is simply forgotten).
  const queued = new WeakSet<ChangeEvent[]>();
  return {
    service,
    routes: (app) => webhookRoutes(app, { webhooks: service, maxPageSize: config.limits.pageSize }),
    enqueue: async (tx, databaseId) => {
      const hooks = await service.enabledHooks(tx, databaseId);
      if (hooks.length === 0) return undefined;
      return async (events) => {
        if ((await service.enqueue(tx, hooks, events)) > 0) queued.add(events);
      };
    },
    onChange: (events) => {
      if (queued.has(events)) dispatcher.wake();
    },
    start() {
      dispatcher.start();
      retention.start();
    },
    async stop() {
      await retention.stop();
      await dispatcher.stop();
      sender.close();
    },
  };
}

import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';
import { MIN_CHANGE_RETENTION_MS, pruneChangesBefore } from '../changes/retention.ts';

export interface RetentionOptions {
  store: Store;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Finished deliveries older than this go (their attempts with them). */
  deliveryMaxAgeMs: number;
  /** Change-log events older than this go; never less than an hour (realtime replay). */
  eventMaxAgeMs: number;
}

const BATCH = 1000;

/**
 * Prunes old delivery rows and change-log events in the background, in small batches so no
 * statement holds the writer for long. Pending deliveries are never pruned: they carry their own
 * body, so they do not need their event. Idempotent: several instances may run it.
 */
export class Retention {
  constructor(private readonly o: RetentionOptions) {}

  /** One pass (run by `jobs.every`, which logs a failure); returns how many deliveries and events it removed. */
  async runOnce(): Promise<{ deliveries: number; events: number }> {
    const now = this.o.clock.now();
    const deliveryCutoff = new Date(now - this.o.deliveryMaxAgeMs).toISOString();
    const eventCutoff = new Date(now - Math.max(this.o.eventMaxAgeMs, MIN_CHANGE_RETENTION_MS)).toISOString();
    const { store } = this.o;
    let deliveries = 0;
    for (;;) {
      const n = await store.run(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending' LIMIT ${BATCH})`,
        [deliveryCutoff],
      );
      deliveries += n;
      if (n < BATCH) break;
    }
    let events = 0;
    for (;;) {
      const n = await pruneChangesBefore(store, eventCutoff, BATCH);
      events += n;
      if (n < BATCH) break;
    }
    if (deliveries || events) this.o.log.info({ deliveries, events }, 'pruned old webhook deliveries and events');
    return { deliveries, events };
  }
}

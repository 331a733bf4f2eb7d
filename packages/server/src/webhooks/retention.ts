import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../infra/clock.ts';
import type { Queryable } from '../store/store.ts';
import { pruneOldChanges } from '../changes/retention.ts';

const BATCH = 1000;

/**
 * Deletes the finished deliveries (their attempts with them) older than `maxAgeMs`, in small
 * batches so no statement holds the writer for long; returns how many. Pending deliveries are never
 * pruned. Idempotent: several instances may run it.
 */
export async function pruneOldDeliveries(q: Queryable, clock: Clock, maxAgeMs: number): Promise<number> {
  const cutoff = new Date(clock.now() - maxAgeMs).toISOString();
  let deliveries = 0;
  for (;;) {
    const n = await q.run(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending' LIMIT ${BATCH})`,
      [cutoff],
    );
    deliveries += n;
    if (n < BATCH) return deliveries;
  }
}

interface RetentionOptions {
  store: Queryable;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Finished deliveries older than this go (their attempts with them). */
  deliveryMaxAgeMs: number;
  /** Change-log events older than this go; never less than an hour (realtime replay). */
  eventMaxAgeMs: number;
}

/**
 * Both prunings in one pass: finished deliveries (this feature's job, webhooks.ts) and change-log
 * events (the change log's own job, changes/retention.ts). The app runs them as two jobs; this
 * pass is what the webhook queue's tests call (test/webhooks/queue.test.ts).
 */
export class Retention {
  constructor(private readonly o: RetentionOptions) {}

  /** One pass; returns how many deliveries and events it removed. */
  async runOnce(): Promise<{ deliveries: number; events: number }> {
    const { store, clock } = this.o;
    const deliveries = await pruneOldDeliveries(store, clock, this.o.deliveryMaxAgeMs);
    const events = await pruneOldChanges(store, clock, this.o.eventMaxAgeMs);
    if (deliveries || events) this.o.log.info({ deliveries, events }, 'pruned old webhook deliveries and events');
    return { deliveries, events };
  }
}

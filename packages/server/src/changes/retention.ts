import type { FastifyBaseLogger } from 'fastify';
import type { Feature } from '../feature.ts';
import type { Clock } from '../infra/clock.ts';
import type { Jobs } from '../infra/jobs.ts';
import type { Queryable, Store } from '../store/store.ts';

/** Events are kept at least this long whatever the setting: realtime clients resume from them. */
const MIN_CHANGE_RETENTION_MS = 3_600_000;

/** How often old events are pruned. */
const PRUNE_EVERY_MS = 10 * 60_000;

const BATCH = 1000;

/**
 * Deletes up to `batch` events (of any database) written before `cutoff` (ISO 8601); returns how
 * many it removed. Small batches, so no statement holds the writer for long: call it until it
 * returns less than `batch`. Safe to run from several instances at once.
 */
export async function pruneChangesBefore(q: Queryable, cutoff: string, batch: number): Promise<number> {
  return q.run(
    `DELETE FROM events WHERE (database_id, id) IN (
       SELECT database_id, id FROM events WHERE created_at < ? LIMIT ${Math.trunc(batch)})`,
    [cutoff],
  );
}

/**
 * Deletes the events older than `maxAgeMs` (never younger than MIN_CHANGE_RETENTION_MS), batch
 * after batch; returns how many. Webhook deliveries do not need their event (they carry their own
 * body), sync starts over from a snapshot past a pruned event (sync/service.ts).
 */
export async function pruneOldChanges(q: Queryable, clock: Clock, maxAgeMs: number): Promise<number> {
  const cutoff = new Date(clock.now() - Math.max(maxAgeMs, MIN_CHANGE_RETENTION_MS)).toISOString();
  let events = 0;
  for (;;) {
    const n = await pruneChangesBefore(q, cutoff, BATCH);
    events += n;
    if (n < BATCH) return events;
  }
}

/** The change log's retention (EVENT_RETENTION_HOURS): a job soon after start, then every 10 minutes. No routes. */
export function createChangeRetention(deps: { store: Store; clock: Clock; log: FastifyBaseLogger; jobs: Jobs; maxAgeMs: number }): Feature {
  const { store, clock, log, jobs, maxAgeMs } = deps;
  return {
    routes() {},
    start() {
      jobs.every(
        'change log retention',
        PRUNE_EVERY_MS,
        async () => {
          const events = await pruneOldChanges(store, clock, maxAgeMs);
          if (events) log.info({ events }, 'pruned old events');
        },
        { firstAfterMs: 30_000 },
      );
    },
  };
}

import type { Queryable } from '../store/store.ts';

/** Events are kept at least this long whatever the setting: realtime clients resume from them. */
export const MIN_CHANGE_RETENTION_MS = 3_600_000;

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

import type { Dialect, Param, Queryable } from '../store/store.ts';
import type { ChangeEvent, ChangeType } from './events.ts';

// Event ids are read as text: they are 64-bit counters, which neither driver returns exactly as a
// number past 2^53 (better-sqlite3 rounds, pg's int8 parser refuses: store/postgres/pool.ts).

/** Reads the change log of a database after an event id, in order (realtime replay, tests). */
export async function readChanges(
  q: Queryable,
  dialect: Dialect,
  databaseId: string,
  afterId: string,
  { limit = 1000, upTo, collections }: { limit?: number; upTo?: string; collections?: string[] } = {},
): Promise<ChangeEvent[]> {
  const params: Param[] = [databaseId, afterId];
  let where = 'database_id = ? AND id > ?';
  if (upTo !== undefined) {
    where += ' AND id <= ?';
    params.push(upTo);
  }
  if (collections?.length) {
    where += ` AND collection IN (${collections.map(() => '?').join(', ')})`;
    params.push(...collections);
  }
  const rows = await q.all<{ id: string; collection: string; type: ChangeType; document: string; previous: string | null; created_at: string }>(
    `SELECT CAST(id AS TEXT) AS id, collection, type, ${dialect.jsonText('document')} AS document, ${dialect.jsonText('previous')} AS previous, created_at
     FROM events WHERE ${where} ORDER BY events.id LIMIT ?`,
    [...params, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    databaseId,
    collection: r.collection,
    type: r.type,
    document: JSON.parse(r.document),
    previous: r.previous === null ? null : JSON.parse(r.previous),
    timestamp: r.created_at,
  }));
}

/** The id of the last committed change of a database (0n when none; undefined when no such database). */
export async function lastChangeId(q: Queryable, databaseId: string): Promise<bigint | undefined> {
  const row = await q.get<{ last: string }>('SELECT CAST(last_event_id AS TEXT) AS last FROM databases WHERE id = ?', [databaseId]);
  return row ? BigInt(row.last) : undefined;
}

/** The oldest change still retained for a database, if any. */
export async function firstRetainedChangeId(q: Queryable, databaseId: string): Promise<bigint | undefined> {
  const row = await q.get<{ first: string | null }>('SELECT CAST(min(id) AS TEXT) AS first FROM events WHERE database_id = ?', [databaseId]);
  return row?.first === null || row?.first === undefined ? undefined : BigInt(row.first);
}

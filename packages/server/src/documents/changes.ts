import type { Dialect, Param, Queryable } from '../store/store.ts';

export type ChangeType = 'document.created' | 'document.updated' | 'document.deleted';

/** One entry of the change log, as realtime and webhooks consume it. */
export interface ChangeEvent {
  id: string;
  databaseId: string;
  collection: string;
  type: ChangeType;
  document: Record<string, unknown>;
  previous: Record<string, unknown> | null;
  timestamp: string;
}

export type NewChange = Omit<ChangeEvent, 'id' | 'databaseId'>;

/**
 * Appends changes to the log inside the caller's transaction and returns them with their ids.
 *
 * Ids come from the database's own counter (`databases.last_event_id`), bumped by an UPDATE that
 * is the last thing a writing transaction does before COMMIT. On PostgreSQL that UPDATE takes the
 * row lock of the database's row and holds it until COMMIT, so a concurrent writer of the same
 * database waits at this point and reads the counter only after the first one committed: ids are
 * handed out in commit order, with no gaps, which a sequence could not promise (a sequence value
 * taken by a transaction that commits later would let a reader resuming "after X" skip it). On
 * SQLite there is a single writer, so the same statement is trivially in commit order. The cost
 * is that writes to one database serialise for the few statements between this UPDATE and COMMIT.
 */
export async function appendChanges(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<ChangeEvent[]> {
  if (changes.length === 0) return [];
  const row = await tx.get<{ last: number | string }>(
    'UPDATE databases SET last_event_id = last_event_id + ? WHERE id = ? RETURNING last_event_id AS last',
    [changes.length, databaseId],
  );
  const last = BigInt(row!.last);
  const first = last - BigInt(changes.length) + 1n;
  const events = changes.map((c, i) => ({ ...c, id: String(first + BigInt(i)), databaseId }));
  for (let start = 0; start < events.length; start += 500) {
    const chunk = events.slice(start, start + 500);
    const values = chunk.map(() => `(?, ?, ?, ?, ?, ${dialect.jsonParam}, ${dialect.jsonParam}, ?)`).join(', ');
    await tx.run(
      `INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at) VALUES ${values}`,
      chunk.flatMap((e) => [
        databaseId, e.id, e.collection, e.type, String(e.document.id), JSON.stringify(e.document),
        e.previous === null ? null : JSON.stringify(e.previous), e.timestamp,
      ]),
    );
  }
  return events;
}

/** Reads the change log of a database after an event id, in order (realtime replay, tests). */
export async function readChanges(
  q: Queryable, dialect: Dialect, databaseId: string, afterId: string,
  opts: { limit?: number; upTo?: string; collections?: string[] } | number = {},
): Promise<ChangeEvent[]> {
  const { limit = 1000, upTo, collections } = typeof opts === 'number' ? { limit: opts } : opts;
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
  const rows = await q.all<{ id: number | string; collection: string; type: ChangeType; document: string; previous: string | null; created_at: string }>(
    `SELECT id, collection, type, ${dialect.jsonText('document')} AS document, ${dialect.jsonText('previous')} AS previous, created_at
     FROM events WHERE ${where} ORDER BY id LIMIT ?`,
    [...params, limit],
  );
  return rows.map((r) => ({
    id: String(r.id), databaseId, collection: r.collection, type: r.type,
    document: JSON.parse(r.document), previous: r.previous === null ? null : JSON.parse(r.previous), timestamp: r.created_at,
  }));
}

/** The id of the last committed change of a database ('0' when none). */
export async function lastChangeId(q: Queryable, databaseId: string): Promise<bigint | undefined> {
  const row = await q.get<{ last: number | string }>('SELECT last_event_id AS last FROM databases WHERE id = ?', [databaseId]);
  return row ? BigInt(row.last) : undefined;
}

/** The oldest change still retained for a database, if any. */
export async function firstRetainedChangeId(q: Queryable, databaseId: string): Promise<bigint | undefined> {
  const row = await q.get<{ first: number | string | null }>('SELECT min(id) AS first FROM events WHERE database_id = ?', [databaseId]);
  return row?.first === null || row?.first === undefined ? undefined : BigInt(row.first);
}

/** Something that hears about committed changes (realtime fan-out, webhook dispatch). */
export type ChangeListener = (events: ChangeEvent[]) => void;

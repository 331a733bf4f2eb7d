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
 * Appends changes to the log inside the caller's transaction, moves the collection's document
 * count by the documents created minus deleted, and returns the changes with their ids.
 *
 * Ids come from the database's own counter (`databases.last_event_id`), bumped by an UPDATE that
 * is the last thing a writing transaction does before COMMIT. On PostgreSQL that UPDATE takes the
 * row lock of the database's row and holds it until COMMIT, so a concurrent writer of the same
 * database waits at this point and reads the counter only after the first one committed: ids are
 * handed out in commit order, with no gaps, which a sequence could not promise (a sequence value
 * taken by a transaction that commits later would let a reader resuming "after X" skip it). On
 * SQLite there is a single writer, so the same statement is trivially in commit order.
 *
 * The cost is that writes to one database serialise from this point to COMMIT, so the point is
 * kept short: where the dialect has data-modifying CTEs (PostgreSQL) the counter, the collection
 * count and the events are one statement, i.e. one round trip, then COMMIT. The counter row is
 * always locked before the collection row, so two writers can't deadlock on them.
 */
export async function appendChanges(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<ChangeEvent[]> {
  if (changes.length === 0) return [];
  const n = changes.length;
  const collection = changes[0].collection;
  const delta = changes.reduce((d, c) => d + (c.type === 'document.created' ? 1 : c.type === 'document.deleted' ? -1 : 0), 0);
  const rows = (from: number, to: number) => changes.slice(from, to);
  const values = (count: number) => Array.from({ length: count }, () => `(?, ?, ?, ?, ${dialect.jsonParam}, ${dialect.jsonParam}, ?)`).join(', ');
  const params = (chunk: NewChange[], firstN: number): Param[] => chunk.flatMap((c, i) => [
    firstN + i, c.collection, c.type, String(c.document.id), JSON.stringify(c.document),
    c.previous === null ? null : JSON.stringify(c.previous), c.timestamp,
  ]);
  let last: bigint;
  if (dialect.writableCte) {
    const head = rows(0, CHUNK);
    const row = await tx.get<{ last: number | string }>(
      `WITH ctr AS (UPDATE databases SET last_event_id = last_event_id + ? WHERE id = ? RETURNING last_event_id),
       cnt AS (INSERT INTO collections (database_id, name, count) SELECT ?, ?, ? FROM ctr WHERE CAST(? AS bigint) <> 0
               ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + EXCLUDED.count RETURNING 1),
       v (n, collection, type, document_id, document, previous, created_at) AS (VALUES ${values(head.length)}),
       ins AS (INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at)
               SELECT ?, ctr.last_event_id - ? + CAST(v.n AS bigint), v.collection, v.type, v.document_id, v.document, v.previous, v.created_at FROM ctr, v RETURNING 1)
       SELECT last_event_id AS last FROM ctr`,
      [n, databaseId, databaseId, collection, delta, delta, ...params(head, 1), databaseId, n],
    );
    last = BigInt(row!.last);
  } else {
    const row = await tx.get<{ last: number | string }>(
      'UPDATE databases SET last_event_id = last_event_id + ? WHERE id = ? RETURNING last_event_id AS last', [n, databaseId],
    );
    last = BigInt(row!.last);
    if (delta !== 0) {
      await tx.run(
        'INSERT INTO collections (database_id, name, count) VALUES (?, ?, ?) ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + ?',
        [databaseId, collection, delta, delta],
      );
    }
  }
  const first = last - BigInt(n) + 1n;
  for (let start = dialect.writableCte ? CHUNK : 0; start < n; start += CHUNK) {
    const chunk = rows(start, start + CHUNK);
    await tx.run(
      `INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at) VALUES ${
        chunk.map(() => `(?, ?, ?, ?, ?, ${dialect.jsonParam}, ${dialect.jsonParam}, ?)`).join(', ')}`,
      chunk.flatMap((c, i) => [databaseId, String(first + BigInt(start + i)), ...params([c], 0).slice(1)]),
    );
  }
  return changes.map((c, i) => ({ ...c, id: String(first + BigInt(i)), databaseId }));
}

/** Events per statement: 7 parameters each, well under both engines' parameter limits. */
const CHUNK = 500;

/** Reads the change log of a database after an event id, in order (realtime replay, tests). */
export async function readChanges(
  q: Queryable, dialect: Dialect, databaseId: string, afterId: string,
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

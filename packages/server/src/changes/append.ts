import type { Dialect, Param, Queryable } from '../store/store.ts';
import type { ChangeEvent, NewChange } from './events.ts';

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
 * kept short: where the dialect has data-modifying CTEs the counter, the collection count and the
 * events are one statement, i.e. one round trip, then COMMIT (`appendWithCte`); elsewhere they are
 * three statements on an in-process writer (`appendStepwise`). The counter row is always locked
 * before the collection row, so two writers can't deadlock on them.
 */
export async function appendChanges(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<ChangeEvent[]> {
  if (changes.length === 0) return [];
  const append = dialect.writableCte ? appendWithCte : appendStepwise;
  return append(tx, dialect, databaseId, changes);
}

/** Events per statement: 7 parameters each, well under both engines' parameter limits. */
const CHUNK = 500;

/** Documents created minus deleted: how much the collection's count moves. */
const countDelta = (changes: NewChange[]) =>
  changes.reduce((d, c) => d + (c.type === 'document.created' ? 1 : c.type === 'document.deleted' ? -1 : 0), 0);

/** The columns of one event after its id, as bound parameters. */
const eventParams = (c: NewChange): Param[] => [
  c.collection, c.type, String(c.document.id), JSON.stringify(c.document), c.previous === null ? null : JSON.stringify(c.previous), c.timestamp,
];

/** The changes with the ids `first`, `first + 1`, …. */
const numbered = (changes: NewChange[], databaseId: string, first: bigint): ChangeEvent[] =>
  changes.map((c, i) => ({ ...c, id: String(first + BigInt(i)), databaseId }));

/** Inserts the events of `changes` from index `from` on, numbered from `first`, a chunk per statement. */
async function insertEvents(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[], first: bigint, from: number): Promise<void> {
  const { jsonParam } = dialect;
  for (let start = from; start < changes.length; start += CHUNK) {
    const chunk = changes.slice(start, start + CHUNK);
    await tx.run(
      `INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at) VALUES ${
        chunk.map(() => `(?, ?, ?, ?, ?, ${jsonParam}, ${jsonParam}, ?)`).join(', ')}`,
      chunk.flatMap((c, i) => [databaseId, String(first + BigInt(start + i)), ...eventParams(c)]),
    );
  }
}

/**
 * PostgreSQL: the counter, the collection count and the first CHUNK events in one statement, so
 * the row lock on the database's counter is held for one round trip before COMMIT.
 */
export async function appendWithCte(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<ChangeEvent[]> {
  const n = changes.length;
  const delta = countDelta(changes);
  const head = changes.slice(0, CHUNK);
  const values = head.map(() => `(?, ?, ?, ?, ${dialect.jsonParam}, ${dialect.jsonParam}, ?)`).join(', ');
  const row = await tx.get<{ last: string }>(
    `WITH ctr AS (UPDATE databases SET last_event_id = last_event_id + ? WHERE id = ? RETURNING last_event_id),
     cnt AS (INSERT INTO collections (database_id, name, count) SELECT ?, ?, ? FROM ctr WHERE CAST(? AS bigint) <> 0
             ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + EXCLUDED.count RETURNING 1),
     v (n, collection, type, document_id, document, previous, created_at) AS (VALUES ${values}),
     ins AS (INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at)
             SELECT ?, ctr.last_event_id - ? + CAST(v.n AS bigint), v.collection, v.type, v.document_id, v.document, v.previous, v.created_at FROM ctr, v RETURNING 1)
     SELECT CAST(last_event_id AS TEXT) AS last FROM ctr`,
    [n, databaseId, databaseId, changes[0].collection, delta, delta, ...head.flatMap((c, i) => [i + 1, ...eventParams(c)]), databaseId, n],
  );
  const first = BigInt(row!.last) - BigInt(n) + 1n;
  await insertEvents(tx, dialect, databaseId, changes, first, head.length);
  return numbered(changes, databaseId, first);
}

/** SQLite (one in-process writer): the counter, then the collection count, then the events. */
export async function appendStepwise(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<ChangeEvent[]> {
  const n = changes.length;
  const delta = countDelta(changes);
  const row = await tx.get<{ last: string }>(
    // n as a BigInt: better-sqlite3 binds a JS number as a double, and integer + double rounds past 2^53.
    'UPDATE databases SET last_event_id = last_event_id + ? WHERE id = ? RETURNING CAST(last_event_id AS TEXT) AS last', [BigInt(n), databaseId],
  );
  if (delta !== 0) {
    await tx.run(
      'INSERT INTO collections (database_id, name, count) VALUES (?, ?, ?) ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + ?',
      [databaseId, changes[0].collection, delta, delta],
    );
  }
  const first = BigInt(row!.last) - BigInt(n) + 1n;
  await insertEvents(tx, dialect, databaseId, changes, first, 0);
  return numbered(changes, databaseId, first);
}

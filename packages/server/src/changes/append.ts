import type { CommitGroup, Dialect, Param, Queryable } from '../store/store.ts';
import type { ChangeEvent, NewChange } from './events.ts';

/**
 * Appends changes to the log inside the caller's transaction, moves the collection's document
 * count by the documents created minus deleted, and returns the changes with their ids.
 *
 * Ids come from the database's own counter (`databases.last_event_id`), and whoever numbers
 * events holds the lock of the database's row until COMMIT: a concurrent writer of the same
 * database reads the counter only after the first one committed, so ids are handed out in commit
 * order, with no gaps, which a sequence could not promise (a sequence value taken by a
 * transaction that commits later would let a reader resuming "after X" skip it). Readers need
 * nothing more: everything up to the committed counter is in the log (docs/architecture.md,
 * "Event ids and commit order").
 *
 * That lock makes one database's writes commit one at a time, so on PostgreSQL they share it:
 * the documents service runs each write in the database's commit group (`changeGroup`), and the
 * store runs the writes waiting together in one transaction, each in a savepoint
 * (store/postgres/group-commit.ts). The group's `begin` takes the lock once, each write numbers
 * its events after the largest id so far (`appendInGroup`), and the group's `end` moves the
 * counter and the collection counts once, from the events the group kept, before the one COMMIT.
 * A write whose savepoint rolled back leaves no event, so the next one reuses its ids: no gap.
 *
 * Outside a group (SQLite, whose single writer already groups transactions; a plain PostgreSQL
 * transaction) each append moves the counter itself: `appendWithCte` where the dialect has
 * data-modifying CTEs (counter, count and events in one statement, one round trip, then COMMIT),
 * else `appendStepwise`. The counter row is always locked before a collection row, so two
 * writers can't deadlock on them; in a group it is locked before any document row too.
 */
export async function appendChanges(
  tx: Queryable & { readonly group?: CommitGroup }, dialect: Dialect, databaseId: string, changes: NewChange[],
): Promise<ChangeEvent[]> {
  if (changes.length === 0) return [];
  const append = tx.group?.key === groupKey(databaseId) ? appendInGroup : dialect.writableCte ? appendWithCte : appendStepwise;
  return append(tx, dialect, databaseId, changes);
}

const groupKey = (databaseId: string) => `changes:${databaseId}`;

/**
 * The commit group of a database's writes (store.ts CommitGroup), for PostgreSQL: `begin` locks
 * the database's row, so writes of one database commit in turn on every instance, and before any
 * of the group's writes locks a document (always this order, so two groups can't deadlock);
 * `end` moves the counter to the group's last event and each collection's count by its
 * documents created minus deleted, read from the events the group's writes kept.
 */
export function changeGroup(databaseId: string): CommitGroup {
  return {
    key: groupKey(databaseId),
    // NO KEY UPDATE: the lock an UPDATE of last_event_id takes; it leaves other sessions' foreign
    // key checks (KEY SHARE: a realtime token, a webhook of this database) free.
    begin: async (q) => void (await q.run('SELECT 1 FROM databases WHERE id = ? FOR NO KEY UPDATE', [databaseId])),
    end: async (q) => void (await q.run(
      `WITH batch AS (SELECT id, collection, type FROM events WHERE database_id = ? AND id > (SELECT last_event_id FROM databases WHERE id = ?)),
       ctr AS (UPDATE databases SET last_event_id = (SELECT max(id) FROM batch) WHERE id = ? AND EXISTS (SELECT 1 FROM batch) RETURNING 1),
       cnt AS (INSERT INTO collections (database_id, name, count)
               SELECT ?, collection, delta FROM (
                 SELECT collection, sum(CASE type WHEN 'document.created' THEN 1 WHEN 'document.deleted' THEN -1 ELSE 0 END) AS delta FROM batch GROUP BY collection) d
               WHERE delta <> 0
               ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + EXCLUDED.count RETURNING 1)
       SELECT (SELECT count(*) FROM ctr) + (SELECT count(*) FROM cnt) AS n`,
      [databaseId, databaseId, databaseId, databaseId],
    )),
  };
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
 * PostgreSQL, inside the database's commit group (its `begin` holds the counter's lock): the
 * events numbered after the largest id so far, the committed counter or an event of an earlier
 * write of the group, in one statement. The counter and the counts are left to the group's `end`.
 */
export async function appendInGroup(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[]): Promise<ChangeEvent[]> {
  const head = changes.slice(0, CHUNK);
  const values = head.map(() => `(?, ?, ?, ?, ${dialect.jsonParam}, ${dialect.jsonParam}, ?)`).join(', ');
  const row = await tx.get<{ last: string }>(
    // greatest() skips a NULL max: every event of the database may have been pruned.
    `WITH last AS (SELECT greatest((SELECT last_event_id FROM databases WHERE id = ?), (SELECT max(id) FROM events WHERE database_id = ?)) AS id),
     v (n, collection, type, document_id, document, previous, created_at) AS (VALUES ${values}),
     ins AS (INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at)
             SELECT ?, last.id + CAST(v.n AS bigint), v.collection, v.type, v.document_id, v.document, v.previous, v.created_at FROM last, v RETURNING 1)
     SELECT CAST(id AS TEXT) AS last FROM last`,
    [databaseId, databaseId, ...head.flatMap((c, i) => [i + 1, ...eventParams(c)]), databaseId],
  );
  const first = BigInt(row!.last) + 1n;
  await insertEvents(tx, dialect, databaseId, changes, first, head.length);
  return numbered(changes, databaseId, first);
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

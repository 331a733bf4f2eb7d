import type { CommitGroup, Dialect, Param, Queryable, Statement, Transaction } from '../store/store.ts';
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
 * That lock makes one database's writes commit one at a time, so they share it: the documents
 * service runs each write in the database's commit group (`changeGroup`), and the store runs the
 * writes waiting together in one transaction (store/postgres/group-commit.ts; SQLite's batch of
 * one turn). The group's `begin` takes the lock and reads the counter once; each write numbers its
 * events from there in memory (`appendInGroup`: no statement for the ids; on SQLite it inserts
 * the events at once); the group's `end` moves the counter and each collection's count once
 * (and on PostgreSQL inserts the events), before the one COMMIT. A write rolled back alone takes
 * its events back out, so the next one reuses their ids: no gap.
 *
 * Outside a group (a lone transaction) each append moves the counter itself: `appendWithCte`
 * where the dialect has data-modifying CTEs (counter, count and events in one statement, one round
 * trip, then COMMIT), else `appendStepwise`. The counter row is always locked before a collection row, so two
 * writers can't deadlock on them; in a group it is locked before any document row too, while a
 * plain transaction locks its documents first: on PostgreSQL every document write goes through
 * the group, or a plain one and a group could each hold what the other waits for.
 */
export async function appendChanges(
  tx: Queryable & Pick<Transaction, 'group' | 'onRollback'>,
  dialect: Dialect,
  databaseId: string,
  changes: NewChange[],
): Promise<ChangeEvent[]> {
  if (changes.length === 0) return [];
  if (tx.group?.key === groupKey(databaseId) && tx.onRollback) return appendInGroup(tx, dialect, tx.group.state as Pending, tx.onRollback, databaseId, changes);
  return (dialect.writableCte ? appendWithCte : appendStepwise)(tx, dialect, databaseId, changes);
}

const groupKey = (databaseId: string) => `changes:${databaseId}`;

/** What the writes of one shared transaction appended, written by the group's `end`. */
interface Pending {
  /**
   * The group leaves its rows to `end` (PostgreSQL: one statement, `jsonRecords`): events,
   * deferred documents and keys' rows. Else (SQLite, whose writes run in-process) each write
   * inserts its own rows at once, and `end` moves only the counter and the counts.
   */
  deferRows: boolean;
  /** The counter as `begin` read it: `end` moves it only if the group's writes appended. */
  first: bigint;
  /** The id of the next event. */
  next: bigint;
  /** Each event as a row of `writePending`'s events, JSON object text (eventRecord). */
  events: string[];
  /** Per collection, documents created minus deleted. */
  deltas: Map<string, number>;
  /** The database's `settings.search` (JSON text) as the group's lock found it: what its writes index (documents/search.ts). */
  search: string | null;
  /**
   * New documents the group's writes left for its `end` to insert (deferDocuments), one JSON
   * object's text per write: `{collection, at, documents: [[id, version, data], …]}`.
   */
  documents: string[];
  /** Idempotency keys' rows the group's writes left for its `end` to insert (deferKeyRow), as JSON objects' text. */
  keyRows: string[];
}

/**
 * Inside the database's commit group: queues new documents for the group's `end`, which inserts
 * them with its events in the same statement, and returns true; false outside a group (the
 * caller inserts them itself). The `end` also writes each one's `document.created` event from its
 * record (event id = the document's version, the document as its answer shows it), so the caller
 * marks those changes `fromDeferredDocument`: PostgreSQL turns the document's JSON into jsonb once
 * instead of twice, and svc sends its text once. Only for ids the service generated (random UUIDv7s): they cannot
 * collide, so the write needs no answer from the INSERT, and nobody can name them before COMMIT,
 * so no later write of the group misses them. This turns a group of N single inserts from N
 * round trips on its one connection into none (the connection's round trips bounded a
 * database's write rate). Rolled back alone, the write takes its documents back out.
 */
export function deferDocuments(
  tx: Pick<Transaction, 'group' | 'onRollback'>,
  databaseId: string,
  collection: string,
  docs: Array<{ id: string; text: string; version: string }>,
  at: string,
): boolean {
  if (tx.group?.key !== groupKey(databaseId) || !tx.onRollback || !(tx.group.state as Pending).deferRows) return false;
  const pending = tx.group.state as Pending;
  const before = pending.documents.length;
  tx.onRollback(() => {
    pending.documents.length = before;
  });
  // One record per write, its documents as [id, version, data] arrays: what they share (collection,
  // time) once, and no key names per document, for PostgreSQL to parse (docs/performance-notes.md).
  // d.text is the document's JSON already: spliced in, not parsed and serialised again.
  let record = `{"collection":${JSON.stringify(collection)},"at":${JSON.stringify(at)},"documents":[`;
  for (let i = 0; i < docs.length; i++) record += `${i ? ',' : ''}[${JSON.stringify(docs[i].id)},${docs[i].version},${docs[i].text}]`;
  pending.documents.push(`${record}]}`);
  return true;
}

/**
 * Inside the database's commit group: leaves an idempotency key's row (API.md §1.2), with its
 * answer, for the group's `end`, which inserts it in the same statement as the events, so a keyed
 * write costs its group no round trip (idempotency/keys.ts), and returns true; false outside a
 * group, or when the group runs each member alone (the caller writes the row itself). `row`: makes
 * the JSON text of `{scope, key, fingerprint, claimed_at, status, etag, body}`, where `etag` and
 * `body` are the stored text itself as JSON values (the entity tag `"1042"` is a JSON string as it
 * is; the body is JSON text): read verbatim (dialect.jsonRecords), they are stored byte for byte,
 * with nothing escaped in svc or unescaped by PostgreSQL (a backslash in the group's parameter
 * also makes its literal an escaped one, store/postgres/statements.ts). If a key is taken by
 * the time `end` inserts it, `end` fails on the key's unique constraint and the members run again
 * alone (CommitGroup.memberRows), so that only the write that lost the key fails. Rolled back alone, the write
 * takes its row back out.
 */
export function deferKeyRow(tx: Pick<Transaction, 'group' | 'onRollback'>, databaseId: string, row: () => string): boolean {
  if (tx.group?.key !== groupKey(databaseId) || tx.group.alone || !tx.onRollback || !(tx.group.state as Pending).deferRows) return false;
  const pending = tx.group.state as Pending;
  const before = pending.keyRows.length;
  tx.onRollback(() => {
    pending.keyRows.length = before;
  });
  pending.keyRows.push(row());
  return true;
}

/**
 * The id the next event appended in this transaction will get: a write stamps it on its documents
 * as their version (API.md §1.2) before it appends, so the version is written with the row, in the
 * same statement, at no extra round trip. In the database's commit group the counter is locked
 * since `begin` and numbered in memory: no statement. Elsewhere the counter's row is read (and
 * locked where writers are concurrent, so nobody numbers between this read and the append).
 */
export async function nextEventId(tx: Queryable & Pick<Transaction, 'group'>, dialect: Dialect, databaseId: string): Promise<bigint> {
  if (tx.group?.key === groupKey(databaseId)) return (tx.group.state as Pending).next;
  const row = await tx.get<{ last: string }>(`SELECT CAST(last_event_id AS TEXT) AS last FROM databases WHERE id = ?${dialect.lockRows}`, [databaseId]);
  return BigInt(row?.last ?? '0') + 1n;
}

/**
 * Inside the database's commit group: its `settings.search` as JSON text (null: none), read by
 * `begin` under the lock a settings change must wait for; undefined outside a group.
 */
export function groupSearchSettings(tx: Pick<Transaction, 'group'>, databaseId: string): string | null | undefined {
  return tx.group?.key === groupKey(databaseId) ? (tx.group.state as Pending).search : undefined;
}

/**
 * The commit group of a database's writes (store.ts CommitGroup). On PostgreSQL `begin` locks
 * the database's row, so writes of one database commit in turn on every instance, and before any
 * of the group's writes locks a document (always this order, so two groups can't deadlock), and
 * reads the counter; `end` writes what the group's writes appended (`writePending`), in one
 * statement (`last`), which PostgreSQL's group commit sends with the COMMIT. On SQLite the
 * batch's write lock is the lock: `begin` reads the counter (and the search settings) once for
 * the writes of one batch, which insert their own rows, and `end` moves the counter and each
 * collection's count once (`writeCounters`) instead of each write doing both.
 */
export function changeGroup(databaseId: string, dialect: Dialect): CommitGroup<Pending> {
  const deferRows = dialect.jsonRecords !== undefined;
  return {
    key: groupKey(databaseId),
    async begin(q) {
      // NO KEY UPDATE: the lock an UPDATE of last_event_id takes; it leaves other sessions' foreign
      // key checks (KEY SHARE: a realtime token, a webhook of this database) free. (SQLite has no
      // row locks: its batch holds the file's write lock.)
      const row = await q.get<{ last: string; search: string | null }>(
        `SELECT CAST(last_event_id AS TEXT) AS last, ${dialect.search.settings} AS search FROM databases WHERE id = ?${dialect.lockRows && ' FOR NO KEY UPDATE'}`,
        [databaseId],
      );
      // No row: the database is gone. Its documents and events have no foreign key on PostgreSQL
      // (migration 18): this lock, held until COMMIT, is what keeps them from outliving it.
      if (!row) throw new Error(`Database '${databaseId}' does not exist (deleted meanwhile)`);
      const first = BigInt(row.last) + 1n;
      return { deferRows, first, next: first, events: [], deltas: new Map(), search: row.search, documents: [], keyRows: [] };
    },
    end: (q, pending) => (deferRows ? writePending(q, dialect, databaseId, pending) : writeCounters(q, databaseId, pending)),
    last: deferRows ? (pending) => pendingStatement(dialect, databaseId, pending) : undefined,
    // A key another request holds (an earlier one, or another member of this group) fails the insert of the keys.
    memberRows: ['idempotency_keys_pkey'],
  };
}

/**
 * Inside the database's commit group: numbers the changes from the group's next id (the counter's
 * lock is held since `begin`, so nobody else numbers meanwhile). Where the group leaves its rows
 * to `end` (PostgreSQL) the events are kept for it, in memory; else (SQLite) they are inserted at
 * once, and `end` moves the counter and the count (`writeCounters`). Rolled back alone, the write
 * takes its ids, events and count back out.
 */
async function appendInGroup(
  tx: Queryable,
  dialect: Dialect,
  pending: Pending,
  onRollback: (fn: () => void) => void,
  databaseId: string,
  changes: NewChange[],
): Promise<ChangeEvent[]> {
  const first = pending.next;
  const before = { length: pending.events.length, deltas: new Map(pending.deltas) };
  onRollback(() => {
    pending.next = first;
    pending.events.length = before.length;
    pending.deltas = before.deltas;
  });
  const events = numbered(changes, databaseId, first);
  pending.next += BigInt(changes.length);
  const delta = countDelta(changes);
  if (delta !== 0) pending.deltas.set(changes[0].collection, (pending.deltas.get(changes[0].collection) ?? 0) + delta);
  if (!pending.deferRows) await insertEvents(tx, dialect, databaseId, changes, first, 0);
  else for (const [i, e] of events.entries()) if (!changes[i].fromDeferredDocument) pending.events.push(eventRecord(e, changes[i].documentText));
  return events;
}

/** The group's `end` on SQLite: the counter to the group's last event, and each collection's count by its delta, once per group. */
async function writeCounters(q: Queryable, databaseId: string, pending: Pending): Promise<void> {
  if (pending.next === pending.first) return;
  // A BigInt: better-sqlite3 binds a JS number as a double.
  await q.run('UPDATE databases SET last_event_id = ? WHERE id = ?', [pending.next - 1n, databaseId]);
  for (const [name, delta] of pending.deltas) if (delta !== 0) await q.run(MOVE_COUNT, [databaseId, name, delta, delta]);
}

/** A collection's count moved by a delta (bound twice), its row made at the first document. */
const MOVE_COUNT =
  'INSERT INTO collections (database_id, name, count) VALUES (?, ?, ?) ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + ?';

/**
 * The group's `end`, one statement of a fixed text whatever the group holds: the counter moved
 * to the last event, each collection's count by its delta, the events, the deferred documents and
 * idempotency keys' rows, each set bound as one JSON array (`dialect.jsonRecords`). A fixed text
 * stays a named prepared statement, so PostgreSQL neither parses nor plans it per group, and svc
 * binds 11 parameters per group instead of some per write.
 */
async function writePending(q: Queryable, dialect: Dialect, databaseId: string, pending: Pending): Promise<void> {
  const statement = pendingStatement(dialect, databaseId, pending);
  if (statement) await q.run(statement.sql, statement.params);
}

/** The statement of `writePending` with its parameters (the group's `last`, which the store sends with COMMIT); undefined: nothing to write. */
function pendingStatement(dialect: Dialect, databaseId: string, pending: Pending): Statement | undefined {
  const { events, documents, keyRows } = pending;
  if (events.length === 0 && documents.length === 0 && keyRows.length === 0) return undefined;
  const deltas = [...pending.deltas].filter(([, d]) => d !== 0).map(([name, delta]) => ({ name, delta }));
  return {
    sql: writePendingSql(dialect),
    params: [
      String(pending.next - 1n),
      databaseId,
      databaseId,
      JSON.stringify(deltas),
      jsonArray(documents),
      databaseId,
      jsonArray(events),
      databaseId,
      databaseId,
      databaseId,
      jsonArray(keyRows),
    ],
  };
}

/**
 * `[a,b,…]` from the elements' JSON texts, as one flat string: a template around a join is a rope
 * of the join's copy, which every later step over the text (its escaping as a literal, its length
 * in bytes) would copy whole again, and a group's records run to hundreds of kilobytes.
 */
function jsonArray(elements: string[]): string {
  if (elements.length === 0) return '[]';
  const parts = new Array<string>(elements.length * 2 + 1);
  parts[0] = '[';
  for (let i = 0; i < elements.length; i++) {
    parts[2 * i + 1] = elements[i];
    parts[2 * i + 2] = ',';
  }
  parts[parts.length - 1] = ']';
  return parts.join('');
}

/**
 * The statement of `writePending` (PostgreSQL's: the one store with commit groups and
 * `jsonRecords`). Each row names the database itself rather than joining the counter's row; a
 * database deleted meanwhile fails the group's `begin`, whose lock then keeps it until COMMIT.
 */
function writePendingSql(dialect: Dialect): string {
  let sql = writePendingSqls.get(dialect);
  if (sql === undefined) writePendingSqls.set(dialect, (sql = buildWritePendingSql(dialect.jsonRecords!)));
  return sql;
}
/** Built once per dialect: the statement cache looks the text up on every group. */
const writePendingSqls = new WeakMap<Dialect, string>();
const buildWritePendingSql = (records: NonNullable<Dialect['jsonRecords']>) =>
  `WITH ctr AS (UPDATE databases SET last_event_id = CAST(? AS bigint) WHERE id = ? RETURNING 1),
   cnt AS (INSERT INTO collections (database_id, name, count) SELECT CAST(? AS text), c.name, c.delta FROM ${records('c', ['name text', 'delta bigint'])}
           ON CONFLICT (database_id, name) DO UPDATE SET count = collections.count + EXCLUDED.count RETURNING 1),
   dr AS (SELECT w.collection, x.e ->> 0 AS id, x.e -> 2 AS data, w.at, CAST(x.e ->> 1 AS bigint) AS version
          FROM ${records('w', ['collection text', 'at text', 'documents jsonb'])}, jsonb_array_elements(w.documents) AS x(e)),
   ins AS (INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at)
           SELECT CAST(? AS text), e.id, e.collection, e.type, e.document_id, e.document, e.previous, e.created_at FROM ${records('e', [
             'id bigint',
             'collection text',
             'type text',
             'document_id text',
             'document jsonb',
             'previous jsonb',
             'created_at text',
           ])}
           UNION ALL
           SELECT CAST(? AS text), d.version, d.collection, 'document.created', d.id,
                  jsonb_build_object('id', d.id, 'createdAt', d.at, 'updatedAt', d.at) || d.data, NULL, d.at FROM dr d
           RETURNING 1),
   docs AS (INSERT INTO documents (database_id, collection, id, data, created_at, updated_at, version)
            SELECT CAST(? AS text), d.collection, d.id, d.data, d.at, d.at, d.version FROM dr d RETURNING 1),
   idem AS (INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body)
            SELECT a.scope, a.key, CAST(? AS text), a.fingerprint, a.claimed_at, a.status, CAST(a.etag AS text), CAST(a.body AS text)
            FROM ${records('a', ['scope text', 'key text', 'fingerprint text', 'claimed_at text', 'status int', 'etag json', 'body json'], true)} RETURNING 1)
   SELECT 1`;

/**
 * An event as a row of `writePending`'s events, JSON object text (its JSON columns as JSON values,
 * not text); `documentText`: the document's JSON text, spliced in when the writer had it.
 */
const eventRecord = (e: ChangeEvent, documentText: string | undefined): string =>
  `{"id":${e.id},"collection":${JSON.stringify(e.collection)},"type":"${e.type}","document_id":${JSON.stringify(String(e.document.id))},"document":${
    documentText ?? JSON.stringify(e.document)
  },"previous":${e.previous === null ? 'null' : JSON.stringify(e.previous)},"created_at":${JSON.stringify(e.timestamp)}}`;

/** Events per statement: 7 parameters each, well under both engines' parameter limits. */
const CHUNK = 500;

/** Documents created minus deleted: how much the collection's count moves. */
const countDelta = (changes: NewChange[]) => changes.reduce((d, c) => d + (c.type === 'document.created' ? 1 : c.type === 'document.deleted' ? -1 : 0), 0);

/** The columns of one event after its id, as bound parameters. */
const eventParams = (c: NewChange): Param[] => [
  c.collection,
  c.type,
  String(c.document.id),
  c.documentText ?? JSON.stringify(c.document),
  c.previous === null ? null : JSON.stringify(c.previous),
  c.timestamp,
];

/**
 * The changes with the ids `first`, `first + 1`, …, as events: one object literal of one shape
 * (not a spread of the change, which also kept its `documentText`).
 */
function numbered(changes: NewChange[], databaseId: string, first: bigint): ChangeEvent[] {
  const events = new Array<ChangeEvent>(changes.length);
  // Ids as decimal text from a number while they are exact (always, in practice), else from a BigInt.
  const start = Number(first);
  const exact = Number.isSafeInteger(start + changes.length);
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i];
    events[i] = {
      id: exact ? String(start + i) : String(first + BigInt(i)),
      databaseId,
      collection: c.collection,
      type: c.type,
      document: c.document,
      previous: c.previous,
      timestamp: c.timestamp,
    };
  }
  return events;
}

/** One event per statement (dialect.insertRows 1): the statement SQLite prepares once. */
const INSERT_ONE_EVENT = 'INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

/** Inserts the events of `changes` from index `from` on, numbered from `first`, `dialect.insertRows` (at most CHUNK) per statement. */
async function insertEvents(tx: Queryable, dialect: Dialect, databaseId: string, changes: NewChange[], first: bigint, from: number): Promise<void> {
  const { jsonParam } = dialect;
  if (dialect.insertRows === 1 && jsonParam === '?') {
    for (let i = from; i < changes.length; i++) await tx.run(INSERT_ONE_EVENT, [databaseId, String(first + BigInt(i)), ...eventParams(changes[i])]);
    return;
  }
  const chunkSize = Math.min(CHUNK, dialect.insertRows);
  for (let start = from; start < changes.length; start += chunkSize) {
    const chunk = changes.slice(start, start + chunkSize);
    await tx.run(
      `INSERT INTO events (database_id, id, collection, type, document_id, document, previous, created_at) VALUES ${chunk
        .map(() => `(?, ?, ?, ?, ?, ${jsonParam}, ${jsonParam}, ?)`)
        .join(', ')}`,
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
    'UPDATE databases SET last_event_id = last_event_id + ? WHERE id = ? RETURNING CAST(last_event_id AS TEXT) AS last',
    [BigInt(n), databaseId],
  );
  if (delta !== 0) await tx.run(MOVE_COUNT, [databaseId, changes[0].collection, delta, delta]);
  const first = BigInt(row!.last) - BigInt(n) + 1n;
  await insertEvents(tx, dialect, databaseId, changes, first, 0);
  return numbered(changes, databaseId, first);
}

/**
 * The narrow storage interface every feature uses. Features write portable SQL with `?`
 * placeholders; what differs between SQLite and PostgreSQL (JSON expressions, column types,
 * index creation) is asked of `store.dialect`, never decided with `if (dialect === …)` outside
 * this folder.
 *
 * Why not Kysely: the hot paths (insert, get by id, list) run prepared statements straight on
 * better-sqlite3 / pg, and the JSON sort and filter expressions are dialect-specific raw SQL
 * either way; a query builder would add a compile step per request and little safety.
 *
 * @example
 *   const row = await store.get<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE database_id = ?', [id]);
 *   await store.transaction(async (tx) => { await tx.run('UPDATE …', [a]); await tx.run('INSERT …', [b]); });
 */
export type Row = Record<string, unknown>;

/** A parameter value: booleans are bound as 1/0 on SQLite. */
export type Param = string | number | bigint | boolean | null;

/** Statements against the store or inside one transaction. */
export interface Queryable {
  /** Every row of a query. */
  all<T = Row>(sql: string, params?: Param[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T = Row>(sql: string, params?: Param[]): Promise<T | undefined>;
  /** Runs a statement; returns the number of rows it changed. */
  run(sql: string, params?: Param[]): Promise<number>;
}

/** How a dialect spells the JSON expressions of a document field path (segments already validated). */
export interface JsonSql {
  /** Expressions to ORDER BY, in order, for the §1 cross-type ordering of a field. */
  sortKeys(path: string[]): string[];
  /** SQL true when the field holds a value of `type` comparing with `op` against the parameter. */
  compare(path: string[], op: CompareOp, type: ScalarType): string;
  /** SQL true when the field is missing or JSON null. */
  isNullish(path: string[]): string;
  /** SQL true when the field is present (null included). */
  exists(path: string[]): string;
  /** The JSON text of a top-level field of the document (`key` a validated segment), NULL when it is missing: a projection's column. */
  fieldText(key: string): string;
  /** Converts a parameter of the given type to what the driver binds. */
  param(value: string | number | boolean): Param;
  /**
   * Arrays and text (§1.1), on terms: the value at `path` under `from` (a term holding an
   * object; the document when absent), through objects only. Every condition below is never
   * NULL, so NOT of it is exact. A term of the document's root is spelt as `sortKeys` spells it,
   * so the automatic indexes serve it.
   */
  term(path: string[], from?: JsonTerm): JsonTerm;
  /** A FROM item over the elements of `term` when it holds an array (no rows otherwise), with a WHERE guard. */
  elements(term: JsonTerm, alias: string): { from: string; where: string; element: JsonTerm };
  isArray(term: JsonTerm): string;
  isObject(term: JsonTerm): string;
  compareTerm(term: JsonTerm, op: CompareOp, type: ScalarType): string;
  isNullishTerm(term: JsonTerm): string;
  existsTerm(term: JsonTerm): string;
  /** An array of as many elements as the parameter (an integer). */
  arraySize(term: JsonTerm): string;
  /** A string within [first parameter, second parameter), or ≥ the only one when `bounded` is false. */
  stringRange(term: JsonTerm, bounded: boolean): string;
  /** A string holding the parameter under case folding (@svc/filter's casefold). */
  icontains(term: JsonTerm): string;
  /**
   * The values reached through the first array of several candidates (at most one of which can be
   * an array in a document: past the first array along a path, the path is missing): a FROM item
   * over the elements of that array, each at `rest` under it, with a WHERE guard. One FROM item
   * whatever the number of candidates, so a test on them is written once (store/filter-sql.ts).
   */
  crossing(candidates: Array<{ array: JsonTerm; rest: string[] }>, alias: string): { from: string; where: string; element: JsonTerm };
  /** A value of `type` equal to one of the parameter's: a JSON array of such values, however many. */
  inList(term: JsonTerm, type: ScalarType): string;
  /** A subquery of the strings of the parameter, a JSON array of strings (for `column IN …`). */
  textList(): string;
  /** A FROM item over the elements of the parameter, a JSON array of scalars, as rows of `alias`. */
  listRows(alias: string): string;
  /** The term equals the value of a `listRows` row (§1 equality; a null value: missing or null). */
  equalsRow(term: JsonTerm, alias: string): string;
  /**
   * When present (PostgreSQL): an array holding the parameter, a scalar as JSON text, by a
   * GIN-indexable test; with `list`, the parameter is a JSON array of scalars, one of which is held.
   */
  arrayHolds?(term: JsonTerm, list: boolean): string;
  /** With arrayHolds: the statement that builds a GIN index on a field of the document, which serves it; with `where`, partial. */
  arrayIndex?(name: string, path: string[], where?: string): string;
  /**
   * Where present (PostgreSQL): the statement that makes ANALYZE keep statistics of a field's
   * expressions (`sortKeys`, or with `array` the term arrayIndex indexes) over the whole table. The
   * planner reads an expression's statistics from an index on it, but never from a partial one, so
   * without these a collection's automatic indexes left its filters estimated by default
   * selectivities (a GIN passed over for a B-tree range of every array). They cost writes nothing.
   */
  fieldStatistics?(name: string, path: string[], array: boolean): string;
}

/** A JSON value in SQL as a dialect spells it (SQLite: a JSON path into `data`; PostgreSQL: a jsonb expression). */
export type JsonTerm = string & { readonly __jsonTerm: true };

export type CompareOp = '=' | '<' | '<=' | '>' | '>=';
export type ScalarType = 'number' | 'string' | 'boolean';

/**
 * The statements of one open transaction, and what to do once it committed.
 *
 * @example
 *   await store.transaction(async (tx) => {
 *     await tx.run('INSERT INTO webhook_deliveries …', params);
 *     tx.afterCommit(() => dispatcher.wake());
 *   });
 */
export interface Transaction extends Queryable {
  /**
   * Runs `fn` once this transaction has committed, before its `transaction()` call resolves;
   * never when it rolls back (on SQLite: also when only its savepoint of a group commit rolls
   * back). Callbacks run in the order they were added. `fn` must not throw: the transaction is
   * committed whatever it does, so an exception is reported as a process warning and ignored.
   */
  afterCommit(fn: () => void): void;
  /**
   * The commit group this transaction runs in, and the state its `begin` returned for this shared
   * transaction (for a `transaction(fn, group)`); undefined when it runs on its own (every other
   * transaction). `alone`: this member runs again after its group's `end` violated one of its
   * `memberRows`: it writes itself what it would have left to `end`, so that a conflict is its own.
   */
  readonly group?: { readonly key: string; readonly state: unknown; readonly alone?: boolean };
  /**
   * Present on a member of a shared transaction (`group` set): runs `fn` if this member's work is
   * undone while the shared transaction goes on (its savepoint rolled back), so in-memory state it
   * added to `group.state` can be taken back out; never otherwise. Registering one counts as a
   * change: a member that has one and then fails is rolled back through a savepoint.
   */
  onRollback?(fn: () => void): void;
}

/**
 * Transactions that may share one database transaction (group commit): on PostgreSQL, those
 * asked for with the same `key` while an earlier one of the key is running are run together,
 * one after another on one connection, each rolled back alone when it throws (as if in its own
 * SAVEPOINT), between one `begin` and one `end`, then committed by one COMMIT. Nobody learns the
 * outcome before that COMMIT; if it fails, every member fails. What a member reads of a
 * savepoint before it is its neighbours' uncommitted work, as in any transaction.
 *
 * The point is one expensive step per group instead of per transaction: a lock that orders the
 * writers of a key (taken once by `begin`), rows written once for all (`end`, from the state the
 * members filled), one COMMIT (one WAL flush): changes/append.ts. Objects with the same key must
 * behave the same: any one of them runs a group. A member must not wait for another transaction
 * of its own group (it would wait for itself), and its `fn` may run twice (PostgreSQL runs a
 * group again, each member in a savepoint, after a failure it can't shed otherwise:
 * store/postgres/group-commit.ts), so before COMMIT it must do nothing but statements on its
 * transaction, `afterCommit`, and changes to `group.state` it can undo in `onRollback`.
 *
 * @example
 *   const group = { key: `hits:${db}`, begin: async () => ({ hits: 0 }), end: (q, s) => q.run('UPDATE stats SET hits = hits + ?', [s.hits]) };
 *   await store.transaction(async (tx) => { const s = tx.group!.state as { hits: number }; s.hits += 1; tx.onRollback?.(() => { s.hits -= 1; }); }, group);
 */
export interface CommitGroup<State = unknown> {
  readonly key: string;
  /** Runs first in every shared transaction, before its members (e.g. takes the lock that orders the group's commits); returns their shared state. */
  begin(q: Queryable): Promise<State>;
  /** Runs last, after the members (those rolled back took their part of the state back out), before COMMIT; a failure fails them all, but see `memberRows`. */
  end(q: Queryable, state: State): Promise<void>;
  /**
   * Unique constraints of rows `end` writes on behalf of single members (an idempotency key's). If
   * `end` violates one, one member's row was taken: nothing commits, and the store runs the
   * members again, first in a later shared transaction, each writing its own rows
   * (`Transaction.group.alone`), so that the conflict fails only the member it belongs to.
   */
  readonly memberRows?: readonly string[];
  /**
   * Optional: what `end` does as one statement (undefined: nothing to write), which the store may
   * send in one message with COMMIT instead of calling `end`: one round trip fewer per group.
   */
  last?(state: State): Statement | undefined;
}

/** One statement with its parameters. */
export interface Statement {
  sql: string;
  params: Param[];
}

/** Runs the callbacks a committed transaction registered (see Transaction.afterCommit). */
export function runAfterCommit(callbacks: Array<() => void>): void {
  for (const fn of callbacks) {
    try {
      fn();
    } catch (e) {
      process.emitWarning(e instanceof Error ? e : new Error(String(e)), 'AfterCommitWarning');
    }
  }
}

/** What differs between dialects, as data and small SQL builders. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Column type for JSON values. */
  readonly jsonType: string;
  /** Column type for 64-bit integers. */
  readonly bigintType: string;
  /** A placeholder that binds a JSON string as a JSON value. */
  readonly jsonParam: string;
  /** Appended to a SELECT inside a transaction to lock the rows it reads until COMMIT ('' where writers are serial anyway). */
  readonly lockRows: string;
  /** Appended to a SELECT that claims queue rows: locks them and skips rows another transaction holds ('' where writers are serial). */
  readonly claimRows: string;
  /** Whether INSERT/UPDATE may appear inside WITH (several writes in one statement, one round trip). */
  readonly writableCte: boolean;
  /**
   * A column of every table that grows with each row inserted (SQLite's `rowid`: one more than the
   * largest, as long as no table declares AUTOINCREMENT or fills 2^63), so a table appended in
   * time order can be walked oldest first without an index; null where rows have no such order
   * (PostgreSQL's heap reuses the space of deleted rows).
   */
  readonly insertOrder: string | null;
  /**
   * Rows one INSERT of many rows should carry. PostgreSQL: as many as the parameter limit allows
   * (each statement is a round trip). SQLite: one, a prepared single-row statement run per row, since
   * there is no round trip to save and SQLite binds and plans a 700-parameter VALUES list (with
   * RETURNING) for more CPU than 100 runs of a 7-parameter one (the bulk profile in BENCHMARKS.md: 2.2 → 1.6 ms of
   * CPU per bulk of 100 documents).
   */
  readonly insertRows: number;
  /** Selects a JSON column as text. */
  jsonText(column: string): string;
  /** The bytes of a JSON column's text (UTF-8), without ` AS ` in it (it may be a select column's expression). */
  jsonBytes(column: string): string;
  /**
   * Where present (PostgreSQL): a FROM item over the objects of a JSON array bound as one
   * parameter, as rows of `alias` with the given columns (`name type`, the array's keys): any
   * number of rows through one statement text, which stays a prepared statement (changes/append.ts).
   * `verbatim`: a column of type `json` is the value's own text, as the parameter spells it (no
   * parsing into a normalised form): JSON text stored as text goes in unescaped, byte for byte.
   */
  jsonRecords?(alias: string, columns: string[], verbatim?: boolean): string;
  readonly json: JsonSql;
  /** A statement that drops an index of `documents` by name, if it exists, as a failed build leaves it. */
  dropDocumentIndex(name: string): string;
  /**
   * A statement that creates an index on `documents` over the given expressions (its whole key),
   * unless it exists; with `where`, a partial index of the rows that meet it.
   */
  createDocumentIndex(name: string, expressions: string[], where?: string): string;
  /**
   * The placeholder of a value that picks rows by key (database, collection, id, a cursor's
   * position) and should not steer the plan. SQLite (built with STAT4, as better-sqlite3 is)
   * plans with the bound values of parameters compared to index columns it has samples of, and
   * then prepares the statement again on every bind: `+?` (a no-op) keeps the value out of
   * planning: same plan, without the planning on every bind (docs/performance-notes.md).
   * PostgreSQL: `?`.
   */
  readonly keyParam: string;
  /** Full-text search (documents/search.ts). */
  readonly search: SearchSql;
}

/** How a dialect indexes and matches the words of `document_search` (documents/search.ts). */
export interface SearchSql {
  /** Migration 0010: `document_search` (database_id, collection, id, words, length) and its index. */
  readonly schema: string[];
  /** An expression over `databases.settings`: its `search` object as JSON text, or NULL. */
  readonly settings: string;
  /** A condition on `documents.id`, with the parameters database id, collection, `query(words)`. */
  readonly matches: string;
  /**
   * The matching rows of `document_search` as `s`, a FROM … WHERE … with the same parameters: the
   * ranked list reads the rank from them in the same pass (documents/search.ts).
   */
  readonly matching: string;
  /** Appended to a derived table to keep the planner from flattening it (PostgreSQL: ` OFFSET 0`), else ''. */
  readonly fence: string;
  /** The match parameter: documents holding a word starting with each of `words` (tokens: letters, marks, digits). */
  query(words: string[]): string;
  /** The SQL type of an IEEE double. */
  readonly float: string;
}

/**
 * How a store writes and finds the row of an idempotency key in `idempotency_keys`: PostgreSQL
 * through the table's primary key on (scope, key); SQLite through an index the store keeps in
 * memory (sqlite/key-index.ts, migration 21), so every key's row must be inserted through `insert`.
 */
export interface KeyRows {
  /** Inserts a key's row (scope, key, database_id, fingerprint, claimed_at, status, etag, body) in `tx`; false, writing nothing, when the key has one. */
  insert(tx: Transaction, row: Param[]): Promise<boolean>;
  /** A condition that picks the row of one key of one scope, with its parameters. */
  match(scope: string, key: string): Statement;
  /** After the prune deleted rows: lets go of what the store kept of them. */
  pruned(): Promise<void>;
}

/** A store: one database engine, shared by every feature and every tenant database. */
export interface Store extends Queryable {
  readonly dialect: Dialect;
  /** Writes and finds idempotency keys' rows (idempotency/keys.ts). */
  readonly keyRows: KeyRows;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * On SQLite transactions are serialised in-process, those of one turn in one BEGIN … COMMIT, and
   * the members of a `group` among them share its `begin` and `end` (until a transaction of no
   * group comes between them: the group ends before it, and begins again after); on
   * PostgreSQL each takes a pooled client, or, with a `group`, shares one with the group's other
   * transactions waiting at the same moment (CommitGroup).
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, group?: CommitGroup): Promise<T>;
  /**
   * Runs slow maintenance statements (index builds, ANALYZE) without the per-statement time-out
   * that bounds request work (StoreTimeouts): on PostgreSQL on a connection of its own, one run at
   * a time across every instance (postgres-store.ts, takeMaintenanceLock).
   */
  maintenance<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Applies the numbered migrations not applied yet (safe to call from several instances). */
  migrate(): Promise<void>;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

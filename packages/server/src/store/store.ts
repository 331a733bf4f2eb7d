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
  /** Converts a parameter of the given type to what the driver binds. */
  param(value: string | number | boolean): Param;
}

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
  /** Selects a JSON column as text. */
  jsonText(column: string): string;
  readonly json: JsonSql;
  /** A statement that creates an index on `documents` over the given expressions, unless it exists. */
  createDocumentIndex(name: string, expressions: string[]): string;
}

/** A store: one database engine, shared by every feature and every tenant database. */
export interface Store extends Queryable {
  readonly dialect: Dialect;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws.
   * On SQLite transactions are serialised in-process; on PostgreSQL each takes a pooled client.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Runs slow maintenance statements (index builds, ANALYZE) without the per-statement time-out
   * that bounds request work (StoreTimeouts): on PostgreSQL on a connection of its own.
   */
  maintenance<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Applies the numbered migrations not applied yet (safe to call from several instances). */
  migrate(): Promise<void>;
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

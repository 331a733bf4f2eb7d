import Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { STATEMENT_CACHE } from '../statement-cache.ts';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { runAfterCommit, type CommitGroup, type Dialect, type Param, type Queryable, type Row, type Store, type Transaction } from '../store.ts';
import { applyMigrations } from '../migrations/apply.ts';
import { sqliteJson } from './json-sql.ts';
import { sqliteSearch } from './search-sql.ts';
import { casefold } from '@svc/filter';
import { sqliteError } from './errors.ts';
import { StoreUnavailable } from '../errors.ts';
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from '../timeouts.ts';
import { BACKSTOP_PAGES, Checkpointer } from './checkpointer.ts';
import { SqliteKeyRows } from './key-index.ts';

const dialect: Dialect = {
  name: 'sqlite',
  jsonType: 'TEXT',
  bigintType: 'INTEGER',
  jsonParam: '?',
  writableCte: false,
  insertOrder: 'rowid',
  insertRows: 1,
  lockRows: '',
  claimRows: '',
  jsonText: (column) => column,
  jsonBytes: (column) => `octet_length(${column})`,
  json: sqliteJson,
  dropDocumentIndex: (name) => `DROP INDEX IF EXISTS ${name}`,
  createDocumentIndex: (name, expressions, where) =>
    `CREATE INDEX IF NOT EXISTS ${name} ON documents (${expressions.join(', ')})${where ? ` WHERE ${where}` : ''}`,
  keyParam: '+?',
  search: sqliteSearch,
};

type Statement = Database.Statement<unknown[], Row>;

/** A prepared statement, and for one that returns rows the function that turns its raw rows into objects. */
interface Prepared {
  stmt: Statement;
  shape: RowShape | undefined;
}

/** Builds the object of a raw row; `width`: the number of columns it was built for. */
type RowShape = ((values: unknown[]) => Row) & { width: number };

/**
 * A function building a row object from a raw row (an array) in one object literal. better-sqlite3
 * builds row objects in C++ through V8's API, interning every column name again for every row,
 * a large share of the CPU of a list (`Data::GetFlatRowJS`). Raw rows turned into objects by a
 * literal of a fixed shape (one hidden class per statement, built once) cost far less
 * (docs/performance-notes.md). Undefined (objects built by better-sqlite3)
 * when a column name can't be a plain key: `__proto__` would set the prototype in a literal.
 */
function rowShape(stmt: Statement): RowShape | undefined {
  if (!stmt.reader) return undefined;
  const names = stmt.columns().map((c) => c.name);
  if (names.includes('__proto__')) return undefined;
  // Keys as JSON strings (any name is safe quoted); a repeated name keeps its last value, as better-sqlite3 does.
  const shape = new Function('v', `return {${names.map((n, i) => `${JSON.stringify(n)}: v[${i}]`).join(', ')}};`) as RowShape;
  shape.width = names.length;
  return shape;
}

/** Prepared statements of one connection, by SQL text. */
class Connection implements Queryable {
  private readonly cache = new LRUCache<string, Prepared>({ ...STATEMENT_CACHE, sizeCalculation: (_, sql) => Math.max(1, sql.length) });
  /**
   * The statement asked for last: a bulk runs one statement per row (dialect insertRows), and the
   * LRU's lookup was a visible share of it (the bulk profile in BENCHMARKS.md). A statement the LRU dropped since
   * stays usable (nothing finalises it).
   */
  private last: { sql: string; p: Prepared } | undefined;
  constructor(readonly db: Database.Database) {}

  prepared(sql: string): Prepared {
    if (this.last?.sql === sql) return this.last.p;
    let p = this.cache.get(sql);
    if (!p) {
      let stmt: Statement;
      try {
        stmt = this.db.prepare<unknown[], Row>(sql);
      } catch (e) {
        throw sqliteError(e);
      }
      const shape = rowShape(stmt);
      if (shape) stmt.raw(true);
      p = { stmt, shape };
      this.cache.set(sql, p);
    }
    // Long text is not kept (statement-cache.ts), here either.
    this.last = sql.length <= STATEMENT_CACHE.maxEntrySize ? { sql, p } : undefined;
    return p;
  }

  prepare(sql: string): Statement {
    return this.prepared(sql).stmt;
  }

  /**
   * The shape of rows `width` wide: the statement's, or, when SQLite re-prepared it after a schema
   * change that altered a `SELECT *` (a migration run by another instance), a new one.
   */
  private shapeOf(p: Prepared, width: number): RowShape {
    if (p.shape && p.shape.width !== width) p.shape = rowShape(p.stmt) ?? p.shape;
    return p.shape as RowShape;
  }

  /** Every row; throws the driver's own error. `p`: the statement when the caller prepared it already (long text is not cached). */
  allNow<T = Row>(sql: string, params: Param[] = [], prepared?: Prepared): T[] {
    const p = prepared ?? this.prepared(sql);
    const rows = p.stmt.all(...bind(params)) as unknown as unknown[][];
    if (!p.shape || rows.length === 0) return rows as T[];
    const shape = this.shapeOf(p, rows[0].length);
    const out = new Array<Row>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = shape(rows[i]);
    return out as T[];
  }
  getNow<T = Row>(sql: string, params: Param[] = [], prepared?: Prepared): T | undefined {
    const p = prepared ?? this.prepared(sql);
    const row = p.stmt.get(...bind(params)) as unknown[] | Row | undefined;
    return (p.shape && row ? this.shapeOf(p, (row as unknown[]).length)(row as unknown[]) : row) as T | undefined;
  }
  runNow(sql: string, params: Param[] = []): number {
    return this.prepare(sql).run(...bind(params)).changes;
  }

  async all<T = Row>(sql: string, params: Param[] = [], prepared?: Prepared): Promise<T[]> {
    try {
      return this.allNow<T>(sql, params, prepared);
    } catch (e) {
      throw sqliteError(e);
    }
  }
  async get<T = Row>(sql: string, params: Param[] = [], prepared?: Prepared): Promise<T | undefined> {
    try {
      return this.getNow<T>(sql, params, prepared);
    } catch (e) {
      throw sqliteError(e);
    }
  }
  async run(sql: string, params: Param[] = []): Promise<number> {
    try {
      return this.runNow(sql, params);
    } catch (e) {
      throw sqliteError(e);
    }
  }
}

/** What became of one transaction of a batch: its value and transaction (callbacks), or its error. */
type Outcome = { ok: true; value: unknown; tx: GroupedTransaction } | { ok: false; value: unknown };

/** One transaction of a group commit: statements on the writer, and its after-commit callbacks. */
class GroupedTransaction implements Transaction {
  readonly committed: Array<() => void> = [];
  /** What undoes this member's part of its group's state, should its savepoint roll back (Transaction.onRollback). */
  readonly undo: Array<() => void> = [];
  readonly onRollback?: (fn: () => void) => void;
  constructor(
    private readonly w: Connection,
    readonly group?: { readonly key: string; readonly state: unknown },
  ) {
    if (group) this.onRollback = (fn) => void this.undo.push(fn);
  }
  /**
   * Whether a statement of this member changed a row (a `run` that reports changes, or any `all`
   * or `get` of a statement that writes): one that failed (a statement that fails leaves nothing)
   * or changed nothing needs no savepoint to undo (attemptBatch).
   */
  changed = false;
  async all<T = Row>(sql: string, params?: Param[]): Promise<T[]> {
    const p = this.w.prepared(sql);
    if (!p.stmt.readonly) this.changed = true;
    return this.w.all<T>(sql, params, p);
  }
  async get<T = Row>(sql: string, params?: Param[]): Promise<T | undefined> {
    const p = this.w.prepared(sql);
    if (!p.stmt.readonly) this.changed = true;
    return this.w.get<T>(sql, params, p);
  }
  async run(sql: string, params?: Param[]): Promise<number> {
    const changes = await this.w.run(sql, params);
    if (changes > 0) this.changed = true;
    return changes;
  }
  afterCommit(fn: () => void): void {
    this.committed.push(fn);
  }
}

/** `svc_casefold(text)` for `$icontains` (sqlite/json-sql.ts): @svc/filter's casefold, as its matcher folds. */
function registerFunctions(db: Database.Database): void {
  db.function('svc_casefold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? casefold(s) : null));
}

/**
 * SQLite's default page cache is 2 MB per connection: past a few thousand documents every list
 * reads its pages again through the kernel (a read() per page). A larger cache, and the file
 * mapped into memory for reads, keep a working set of a few hundred MB out of syscalls. Both are
 * limits, not allocations: memory is used as pages are touched (and mapped pages belong to the OS
 * page cache, shared by the reader and the writer).
 */
function tunePageCache(db: Database.Database): void {
  db.pragma(`cache_size = -${64 * 1024}`); // KiB: 64 MiB per connection
  db.pragma(`mmap_size = ${256 * 1024 * 1024}`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const isBusy = (e: unknown): boolean => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code.startsWith('SQLITE_BUSY') : e instanceof StoreUnavailable && isBusy(e.cause);
};

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY (another process holds the write lock: a
 * second server, `svc import`, a backup tool), waiting between tries without holding the event
 * loop, until `deadline` (then the busy error goes up: 503). The writer's own busy time-out is 0:
 * SQLite's busy handler sleeps in the calling thread, which for better-sqlite3 is the event loop,
 * so one locked file froze every request, reads and /health included, for the whole time-out.
 * A BUSY statement had no effect (it could not start a write), so trying again is safe.
 */
async function whenUnlocked<T>(attempt: () => T, deadline: number): Promise<T> {
  for (let delay = 2; ; delay = Math.min(delay * 2, 100)) {
    try {
      return attempt();
    } catch (e) {
      if (!isBusy(e) || Date.now() + delay > deadline) throw e;
    }
    await sleep(delay);
  }
}

/** better-sqlite3 binds no booleans; the same array when it holds none (most statements: no copy). */
function bind(params: Param[]): unknown[] {
  for (const p of params) if (typeof p === 'boolean') return params.map((q) => (typeof q === 'boolean' ? (q ? 1 : 0) : q));
  return params;
}

/**
 * The embedded store: one SQLite file in WAL mode, a writer connection and a reader connection.
 *
 * better-sqlite3 is synchronous but our transactions are async functions, so two requests could
 * interleave statements inside one open transaction. Hence: every write runs on the writer under
 * an in-process queue (one transaction at a time), and plain reads run on the reader, which in
 * WAL mode sees only committed data and never waits for the writer.
 *
 * Group commit: transactions requested during one turn of the event loop run one after another
 * inside a single BEGIN … COMMIT, each in its own SAVEPOINT, so one failing rolls back alone. A
 * COMMIT (the WAL write) is the largest fixed cost of a small write; under concurrent load it is
 * shared. Every caller learns its outcome only after the COMMIT, so nothing is announced that
 * isn't durable; likewise the afterCommit callbacks of a transaction run after the COMMIT, and
 * never for one whose savepoint rolled back.
 */
export class SqliteStore implements Store {
  readonly dialect = dialect;
  /** Idempotency keys' rows, and their index in memory (key-index.ts). */
  readonly keyRows = new SqliteKeyRows(this);
  private readonly writer: Connection;
  private readonly reader: Connection;
  /** WAL checkpoints in a worker thread (checkpointer.ts); none for an in-memory database. */
  private readonly checkpointer: Checkpointer | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private batch: Array<{
    fn: (tx: Transaction) => Promise<unknown>;
    group: CommitGroup | undefined;
    resolve: (v: unknown) => void;
    reject: (e: unknown) => void;
    since: number;
  }> = [];

  constructor(
    path: string,
    private readonly timeouts: StoreTimeouts = DEFAULT_STORE_TIMEOUTS,
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const w = new Database(path);
    w.pragma('journal_mode = WAL');
    w.pragma('synchronous = NORMAL');
    w.pragma('foreign_keys = ON');
    // Never wait for another process's lock inside SQLite (that wait blocks the event loop):
    // whenUnlocked waits between tries instead, up to timeouts.statementMs, then 503s.
    w.pragma('busy_timeout = 0');
    const onDisk = path !== ':memory:' && path !== '';
    if (onDisk) {
      w.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
      this.checkpointer = new Checkpointer(path);
    }
    tunePageCache(w);
    registerFunctions(w);
    this.writer = new Connection(w);
    const r = new Database(path, { readonly: false });
    r.pragma('busy_timeout = 0'); // as the writer's: a read that meets a lock waits in `read`, off the event loop
    r.pragma('query_only = ON');
    tunePageCache(r);
    registerFunctions(r);
    this.reader = new Connection(r);
  }

  /** The writer's connection, where infra/invalidation/sqlite.ts hears this process's writes; nothing else may use it. */
  writerConnection(): Database.Database {
    return this.writer.db;
  }

  /** Runs `fn` alone on the writer, after every write queued before it. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.queue.then(fn);
    this.queue = result.catch(() => undefined);
    return result;
  }

  async all<T = Row>(sql: string, params?: Param[]): Promise<T[]> {
    const p = this.reader.prepared(sql);
    if (p.stmt.readonly) return this.read(() => this.reader.allNow<T>(sql, params, p));
    const deadline = Date.now() + this.timeouts.statementMs;
    return this.exclusive(() => whenUnlocked(() => this.writer.allNow<T>(sql, params), deadline).catch((e) => Promise.reject(sqliteError(e))));
  }
  async get<T = Row>(sql: string, params?: Param[]): Promise<T | undefined> {
    const p = this.reader.prepared(sql);
    if (p.stmt.readonly) return this.read(() => this.reader.getNow<T>(sql, params, p));
    const deadline = Date.now() + this.timeouts.statementMs;
    return this.exclusive(() => whenUnlocked(() => this.writer.getNow<T>(sql, params), deadline).catch((e) => Promise.reject(sqliteError(e))));
  }
  /**
   * A read on the reader, at once. In WAL mode a read meets a lock only in rare moments (another
   * process recovering the WAL, or a tool that left WAL mode); then it waits as a write does.
   */
  private read<T>(attempt: () => T): Promise<T> {
    try {
      return Promise.resolve(attempt());
    } catch (e) {
      if (!isBusy(e)) return Promise.reject(sqliteError(e));
      return whenUnlocked(attempt, Date.now() + this.timeouts.statementMs).catch((e2) => Promise.reject(sqliteError(e2)));
    }
  }

  async run(sql: string, params?: Param[]): Promise<number> {
    const deadline = Date.now() + this.timeouts.statementMs;
    const changed = await this.exclusive(() => whenUnlocked(() => this.writer.runNow(sql, params), deadline).catch((e) => Promise.reject(sqliteError(e))));
    this.checkpointer?.committed();
    return changed;
  }

  transaction<T>(fn: (tx: Transaction) => Promise<T>, group?: CommitGroup): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => void this.exclusive(() => this.commitBatch()));
      this.batch.push({ fn, group, resolve: resolve as (v: unknown) => void, reject, since: Date.now() });
    });
  }

  /**
   * Runs the queued transactions in one BEGIN … COMMIT, each in a savepoint; settles them after COMMIT.
   *
   * Members of a commit group (store.ts CommitGroup) share their group's `begin` and `end` within
   * the batch, as on PostgreSQL: a database's writes read its event counter once and move it, and
   * each collection's count, once per batch rather than each (changes/append.ts). A transaction of
   * no group may read or write what a group's `end` has yet to write (the counter), so the groups
   * begun so far end before it runs; a later member of theirs begins its group again.
   */
  private async commitBatch(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    // Without savepoints when every transaction is a member of a group, whose `fn` may run twice
    // (store.ts CommitGroup); with them, a batch is never run again.
    let outcomes = await this.attemptBatch(batch, !batch.every((item) => item.group));
    while (outcomes === 'again') outcomes = await this.attemptBatch(batch, true);
    if (!Array.isArray(outcomes)) {
      for (const item of batch) item.reject(sqliteError(outcomes.error));
      return;
    }
    for (const [i, item] of batch.entries()) {
      const outcome = outcomes[i];
      if (!outcome.ok) {
        item.reject(outcome.value);
        continue;
      }
      runAfterCommit(outcome.tx.committed);
      item.resolve(outcome.value);
    }
  }

  /**
   * One BEGIN … COMMIT of the batch: each transaction's outcome, `{ error }` when the batch itself
   * failed (nothing committed), or 'again' (rolled back) when, without savepoints, a member failed
   * having changed rows: then the batch runs again, each member in a SAVEPOINT, as PostgreSQL's
   * groups do (store/postgres/group-commit.ts). A SAVEPOINT and its RELEASE per member were a few
   * µs of every insert (docs/performance-notes.md); most failures (a 404, a 412, a 409 on an id
   * taken) change nothing first.
   */
  private async attemptBatch(batch: SqliteStore['batch'], savepoints: boolean): Promise<Outcome[] | { error: unknown } | 'again'> {
    const w = this.writer;
    const outcomes: Outcome[] = [];
    const begun = new Map<string, { group: CommitGroup; state: unknown }>();
    const endGroups = async () => {
      for (const { group, state } of begun.values()) await group.end(w, state);
      begun.clear();
    };
    try {
      // Each transaction waits for the lock at most the statement time-out from when it was asked for.
      await whenUnlocked(() => w.prepare('BEGIN IMMEDIATE').run(), batch[0].since + this.timeouts.statementMs);
      for (const { fn, group } of batch) {
        let run: { key: string; state: unknown } | undefined;
        if (!group) await endGroups();
        else {
          let g = begun.get(group.key);
          if (!g) {
            // `begin` only reads (under the write lock this batch holds): a failure fails this member, not the batch.
            try {
              g = { group, state: await group.begin(w) };
            } catch (e) {
              outcomes.push({ ok: false, value: e });
              continue;
            }
            begun.set(group.key, g);
          }
          run = { key: group.key, state: g.state };
        }
        if (savepoints) w.prepare('SAVEPOINT tx').run();
        const tx = new GroupedTransaction(w, run);
        try {
          const value = await fn(tx);
          if (savepoints) w.prepare('RELEASE tx').run();
          outcomes.push({ ok: true, value, tx });
        } catch (e) {
          if (savepoints) {
            w.prepare('ROLLBACK TO tx').run();
            w.prepare('RELEASE tx').run();
          } else if (tx.changed) {
            w.prepare('ROLLBACK').run();
            return 'again';
          }
          // Its part of the group's state goes back out, newest first.
          for (let i = tx.undo.length - 1; i >= 0; i--) tx.undo[i]();
          outcomes.push({ ok: false, value: e });
        }
      }
      await endGroups();
      w.prepare('COMMIT').run();
      this.checkpointer?.committed();
      return outcomes;
    } catch (e) {
      if (w.db.inTransaction) w.prepare('ROLLBACK').run();
      return { error: e };
    }
  }

  /** One writer does everything on SQLite; waiting for another process's lock (whenUnlocked) is the only wait, and it is not per statement. */
  maintenance<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return fn(this);
  }

  async migrate(): Promise<void> {
    await applyMigrations(this, dialect, (fn) => this.transaction(fn));
    await this.exclusive(async () => this.keyRows.load(this.writer.db));
  }

  async ping(): Promise<void> {
    this.reader.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    while (this.batch.length) await new Promise((r) => setImmediate(r));
    await this.queue;
    await this.checkpointer?.close();
    this.reader.db.close();
    this.writer.db.close();
  }
}

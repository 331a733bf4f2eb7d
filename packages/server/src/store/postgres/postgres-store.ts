import pg from 'pg';
import { runAfterCommit, type CommitGroup, type Param, type Dialect, type KeyRows, type Queryable, type Store, type Transaction } from '../store.ts';
import { applyMigrations } from '../migrations/apply.ts';
import { postgresJson } from './json-sql.ts';
import { postgresSearch } from './search-sql.ts';
import { PgStatements } from './statements.ts';
import { storeError } from './errors.ts';
import { maintenanceConfig, poolConfig } from './pool.ts';
import { abort, commit, PgQueryable, PgTransaction, withSession } from './queryable.ts';
import { GroupCommit } from './group-commit.ts';
import { SharedRuns } from '../../infra/shared-runs.ts';
import { readKey, shareable } from './shared-reads.ts';
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from '../timeouts.ts';

const dialect: Dialect = {
  name: 'postgres',
  jsonType: 'JSONB',
  bigintType: 'BIGINT',
  jsonParam: 'CAST(? AS jsonb)',
  writableCte: true,
  insertOrder: null,
  insertRows: 500,
  lockRows: ' FOR UPDATE',
  claimRows: ' FOR UPDATE SKIP LOCKED',
  jsonText: (column) => `${column}::text`,
  jsonBytes: (column) => `octet_length(${column}::text)`,
  jsonRecords: (alias, columns, verbatim) =>
    `${verbatim ? 'json_to_recordset(CAST(? AS json))' : 'jsonb_to_recordset(CAST(? AS jsonb))'} AS ${alias}(${columns.join(', ')})`,
  json: postgresJson,
  // CONCURRENTLY: building an index on a large table must not block writers.
  // CONCURRENTLY, as the build: a plain DROP INDEX would hold every read and write of the table in its queue.
  dropDocumentIndex: (name) => `DROP INDEX CONCURRENTLY IF EXISTS ${name}`,
  createDocumentIndex: (name, expressions, where) =>
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON documents (${expressions.join(', ')})${where ? ` WHERE ${where}` : ''}`,
  keyParam: '?',
  search: postgresSearch,
};

/** Any number that fits in PostgreSQL's advisory lock space, fixed for svc's migrations. */
const MIGRATION_LOCK = 874_200_001;
/** The same, for maintenance (the automatic index builds): one at a time in the whole store. */
const MAINTENANCE_LOCK = 874_200_002;
/** How long a maintenance run waits for another's to end before it gives up (it is tried again later). */
const MAINTENANCE_WAIT_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes the maintenance lock by trying, never by waiting inside PostgreSQL. `CREATE INDEX
 * CONCURRENTLY` waits, before it ends, for every transaction whose snapshot is older than its own
 * (an expression index is not exempt as a plain one is since PostgreSQL 14), and a statement
 * waiting for a lock holds such a snapshot: one instance's build waiting in `pg_advisory_lock`, or
 * in the ANALYZE or the `CREATE INDEX CONCURRENTLY` that follows another's build, waited for the
 * other while the other waited for it, and PostgreSQL ended one with "deadlock detected". Holding
 * the lock across a build, and taking it by polling `pg_try_advisory_lock` (each try a snapshot of
 * an instant), no build ever waits for another inside the server.
 */
async function takeMaintenanceLock(q: Queryable): Promise<void> {
  const deadline = Date.now() + MAINTENANCE_WAIT_MS;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    const row = await q.get<{ locked: boolean }>('SELECT pg_try_advisory_lock(?) AS locked', [MAINTENANCE_LOCK]);
    if (row?.locked) return;
    if (Date.now() + delay > deadline) throw new Error('another instance has been running maintenance (an index build) for too long; tried again later');
    await sleep(delay);
  }
}

/** A joining read's own copy of a shared answer: its rows are objects its caller may change. */
const ownRows = (r: pg.QueryResult): pg.QueryResult => ({ ...r, rows: r.rows.map((row) => ({ ...row })) });

/** Key rows through the table's primary key on (scope, key): a second insert of a key waits for the first transaction, then changes nothing. */
const keyRows: KeyRows = {
  insert: async (tx, row) =>
    (await tx.run(
      `INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope, key) DO NOTHING`,
      row,
    )) === 1,
  match: (scope, key) => ({ sql: 'scope = ? AND key = ?', params: [scope, key] }),
  pruned: async () => undefined,
};

/**
 * The scale-out store: PostgreSQL through a pg pool, shared by any number of instances.
 *
 * Every wait is bounded (pool.ts), and a connection-class failure surfaces as StoreUnavailable
 * (errors.ts): while the server is away requests fail fast with 503, and they succeed again as
 * soon as it is back, since the pool drops the broken clients and opens new ones.
 *
 * A transaction asked for with a commit group shares one with the group's others waiting at the
 * same moment (group-commit.ts); any other takes a pooled client of its own. A read outside a
 * transaction that finds an identical one running waits for it, and shares the next run with the
 * identical reads asked for meanwhile (infra/shared-runs.ts).
 */
export class PostgresStore extends PgQueryable implements Store {
  readonly dialect = dialect;
  readonly keyRows = keyRows;
  private readonly pool: pg.Pool;
  private readonly groups: GroupCommit;
  /** Identical reads on the pool share a run not sent yet (shared-reads.ts says which may). */
  readonly sharedReads = new SharedRuns<pg.QueryResult>();

  constructor(
    private readonly connectionString: string,
    private readonly timeouts: StoreTimeouts = DEFAULT_STORE_TIMEOUTS,
  ) {
    const pool = new pg.Pool(poolConfig(connectionString, timeouts));
    // An idle client that loses its connection must not crash the process (the pool drops it).
    pool.on('error', () => undefined);
    const statements = new PgStatements();
    super(pool, statements);
    this.pool = pool;
    this.groups = new GroupCommit(pool, statements);
  }

  protected override exec<T>(sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    if (!shareable(sql)) return super.exec<T>(sql, params);
    return this.sharedReads.run(readKey(sql, params), () => super.exec(sql, params), ownRows) as Promise<pg.QueryResult<T & pg.QueryResultRow>>;
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>, group?: CommitGroup): Promise<T> {
    if (group) return this.groups.run(group, fn);
    return withSession(this.pool, async (s) => {
      try {
        await s.client.query('BEGIN');
        const tx = new PgTransaction(s.client, this.statements);
        const result = await fn(tx);
        await commit(s.client);
        runAfterCommit(tx.committed);
        return result;
      } catch (e) {
        throw await abort(s, e);
      }
    });
  }

  /**
   * Runs `fn` on a connection of its own, without statement time-outs, closed afterwards, holding
   * the store's maintenance lock: one maintenance run at a time across every instance.
   */
  async maintenance<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return this.session(async (q) => {
      await takeMaintenanceLock(q);
      try {
        return await fn(q);
      } finally {
        await q.run('SELECT pg_advisory_unlock(?)', [MAINTENANCE_LOCK]).catch(() => undefined);
      }
    });
  }

  /** Runs `fn` on a connection of its own, without statement time-outs, closed afterwards. */
  private async session<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = new pg.Client(maintenanceConfig(this.connectionString, this.timeouts));
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (e) {
      throw storeError(e);
    }
    try {
      return await fn(new PgQueryable(client, new PgStatements()));
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async migrate(): Promise<void> {
    // A migration may rewrite a large table: no statement time-out, on a connection of its own.
    await this.session(async (q) => {
      await q.run('SELECT pg_advisory_lock(?)', [MIGRATION_LOCK]);
      try {
        await applyMigrations(q, dialect, async (fn) => {
          await q.run('BEGIN');
          try {
            await fn(q);
            await q.run('COMMIT');
          } catch (e) {
            await q.run('ROLLBACK');
            throw e;
          }
        });
      } finally {
        await q.run('SELECT pg_advisory_unlock(?)', [MIGRATION_LOCK]).catch(() => undefined);
      }
    });
  }

  async ping(): Promise<void> {
    await this.get('SELECT 1');
  }

  async close(): Promise<void> {
    await this.groups.idle();
    await this.pool.end();
  }
}

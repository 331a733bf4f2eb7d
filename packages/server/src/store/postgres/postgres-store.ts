import pg from 'pg';
import { runAfterCommit, type Dialect, type Param, type Queryable, type Row, type Store, type Transaction } from '../store.ts';
import { applyMigrations } from '../migrations/apply.ts';
import { postgresJson } from './json-sql.ts';
import { PgStatements } from './statements.ts';
import { isConnectionError, mayHaveRun, storeError } from './errors.ts';
import { maintenanceConfig, poolConfig } from './pool.ts';
import { CommitOutcomeUnknown, StoreUnavailable } from '../errors.ts';
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from '../timeouts.ts';

const dialect: Dialect = {
  name: 'postgres',
  jsonType: 'JSONB',
  bigintType: 'BIGINT',
  jsonParam: 'CAST(? AS jsonb)',
  writableCte: true,
  lockRows: ' FOR UPDATE',
  claimRows: ' FOR UPDATE SKIP LOCKED',
  jsonText: (column) => `${column}::text`,
  json: postgresJson,
  // CONCURRENTLY: building an index on a large table must not block writers.
  createDocumentIndex: (name, expressions) =>
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON documents (database_id, collection, ${expressions.join(', ')}, id)`,
};

/** Any number that fits in PostgreSQL's advisory lock space, fixed for svc's migrations. */
const MIGRATION_LOCK = 874_200_001;

type Client = pg.Pool | pg.ClientBase;

async function query<T>(client: Client, statements: PgStatements, sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const text = statements.text(sql);
  try {
    return await client.query<T & pg.QueryResultRow>({ name: statements.name(text, params.length), text, values: params as unknown[] });
  } catch (e) {
    throw storeError(e);
  }
}

/** Statements on one pooled client (inside a transaction) or on the pool. */
class PgQueryable implements Queryable {
  constructor(private readonly client: Client, protected readonly statements: PgStatements) {}
  async all<T = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    return (await query<T>(this.client, this.statements, sql, params)).rows;
  }
  async get<T = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await query<T>(this.client, this.statements, sql, params)).rows[0];
  }
  async run(sql: string, params: Param[] = []): Promise<number> {
    try {
      return (await query(this.client, this.statements, sql, params)).rowCount ?? 0;
    } catch (e) {
      // On the pool a write commits by itself: cut off after it was sent, it may have committed.
      if (e instanceof StoreUnavailable && this.client instanceof pg.Pool && mayHaveRun(e)) throw new CommitOutcomeUnknown(e.cause);
      throw e;
    }
  }
}

/** One transaction on its pooled client, with the callbacks to run once it committed. */
class PgTransaction extends PgQueryable implements Transaction {
  readonly committed: Array<() => void> = [];
  afterCommit(fn: () => void): void {
    this.committed.push(fn);
  }
}

/**
 * The scale-out store: PostgreSQL through a pg pool, shared by any number of instances.
 *
 * Every wait is bounded (pool.ts), and a connection-class failure surfaces as StoreUnavailable
 * (errors.ts): while the server is away requests fail fast with 503, and they succeed again as
 * soon as it is back, since the pool drops the broken clients and opens new ones.
 */
export class PostgresStore extends PgQueryable implements Store {
  readonly dialect = dialect;
  private readonly pool: pg.Pool;

  constructor(private readonly connectionString: string, private readonly timeouts: StoreTimeouts = DEFAULT_STORE_TIMEOUTS) {
    const pool = new pg.Pool(poolConfig(connectionString, timeouts));
    // An idle client that loses its connection must not crash the process (the pool drops it).
    pool.on('error', () => undefined);
    super(pool, new PgStatements());
    this.pool = pool;
  }

  /** A pooled client for a transaction. */
  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (e) {
      throw storeError(e);
    }
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.connect();
    // A client whose connection failed goes back with the error, so the pool discards it.
    let broken: Error | undefined;
    // A checked-out client has no listener of the pool's: a connection lost between two
    // statements would otherwise be an uncaught 'error' event.
    const lost = (e: Error) => { broken = e; };
    client.on('error', lost);
    try {
      await client.query('BEGIN');
      const tx = new PgTransaction(client, this.statements);
      const result = await fn(tx);
      await client.query('COMMIT').catch((e: unknown) => {
        if (!isConnectionError(e)) throw e;
        throw mayHaveRun(e) ? new CommitOutcomeUnknown(e) : new StoreUnavailable(e);
      });
      runAfterCommit(tx.committed);
      return result;
    } catch (e) {
      if (e instanceof CommitOutcomeUnknown || isConnectionError(e)) {
        // No ROLLBACK on a dead connection (it would wait out its own time-out): the server
        // rolls back an uncommitted transaction whose connection ends.
        broken = e as Error;
        throw storeError(e);
      }
      await client.query('ROLLBACK').catch((r: Error) => { broken = r; });
      throw e;
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  /** Runs `fn` on a connection of its own, without statement time-outs, closed afterwards. */
  async maintenance<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
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
    await this.maintenance(async (q) => {
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
    await this.pool.end();
  }
}

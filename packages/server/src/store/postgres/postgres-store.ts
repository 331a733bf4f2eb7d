import pg from 'pg';
import { runAfterCommit, type Dialect, type Param, type Queryable, type Row, type Store, type Transaction } from '../store.ts';
import { applyMigrations } from '../migrations/apply.ts';
import { postgresJson } from './json-sql.ts';

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

const converted = new Map<string, string>();

/** Rewrites portable `?` placeholders as `$1, $2…` (outside quoted literals). */
export function toPgPlaceholders(sql: string): string {
  let out = converted.get(sql);
  if (out !== undefined) return out;
  let n = 0;
  let quote: string | null = null;
  out = '';
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  if (converted.size > 5000) converted.clear();
  converted.set(sql, out);
  return out;
}

type Client = pg.Pool | pg.PoolClient;

/**
 * Statements that recur become named prepared statements, so PostgreSQL parses and plans them
 * once per connection instead of on every request. Only short text seen a few times is named:
 * dynamic SQL (filters) and multi-row writes stay unnamed; a generic plan for a bulk insert of
 * hundreds of rows measured several times slower than planning it each time. At most MAX_NAMED.
 */
const NAME_AFTER_USES = 3;
const MAX_NAMED = 500;
const MAX_NAMED_PARAMS = 32;
const uses = new Map<string, number>();
const names = new Map<string, string>();

function statementName(text: string, paramCount: number): string | undefined {
  if (paramCount > MAX_NAMED_PARAMS) return undefined;
  const named = names.get(text);
  if (named !== undefined || names.size >= MAX_NAMED) return named;
  const n = (uses.get(text) ?? 0) + 1;
  if (n < NAME_AFTER_USES) {
    if (uses.size > 5000) uses.clear();
    uses.set(text, n);
    return undefined;
  }
  uses.delete(text);
  const name = `svc_${names.size + 1}`;
  names.set(text, name);
  return name;
}

async function query<T>(client: Client, sql: string, params: Param[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
  const text = toPgPlaceholders(sql);
  return client.query<T & pg.QueryResultRow>({ name: statementName(text, params.length), text, values: params as unknown[] });
}

/** Statements on one pooled client (inside a transaction) or on the pool. */
class PgQueryable implements Queryable {
  constructor(private readonly client: Client) {}
  async all<T = Row>(sql: string, params: Param[] = []): Promise<T[]> {
    return (await query<T>(this.client, sql, params)).rows;
  }
  async get<T = Row>(sql: string, params: Param[] = []): Promise<T | undefined> {
    return (await query<T>(this.client, sql, params)).rows[0];
  }
  async run(sql: string, params: Param[] = []): Promise<number> {
    return (await query(this.client, sql, params)).rowCount ?? 0;
  }
}

/** One transaction on its pooled client, with the callbacks to run once it committed. */
class PgTransaction extends PgQueryable implements Transaction {
  readonly committed: Array<() => void> = [];
  afterCommit(fn: () => void): void {
    this.committed.push(fn);
  }
}

/** The scale-out store: PostgreSQL through a pg pool, shared by any number of instances. */
export class PostgresStore extends PgQueryable implements Store {
  readonly dialect = dialect;
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    const pool = new pg.Pool({ connectionString, max: 20 });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => undefined);
    super(pool);
    this.pool = pool;
  }

  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const tx = new PgTransaction(client);
      const result = await fn(tx);
      await client.query('COMMIT');
      runAfterCommit(tx.committed);
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const q = new PgQueryable(client);
      await applyMigrations(q, dialect, async (fn) => {
        await client.query('BEGIN');
        try {
          await fn(q);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK');
          throw e;
        }
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

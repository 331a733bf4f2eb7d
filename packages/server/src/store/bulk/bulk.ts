import type { Param, Queryable, Row } from '../store.ts';
import { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from '../timeouts.ts';
import { openSqliteBulk } from './sqlite-bulk.ts';
import { openPostgresBulk } from './postgres-bulk.ts';
import type { PortableRow } from './portable.ts';

export type { PortableRow, PortableValue } from './portable.ts';

/**
 * One long-lived connection for moving whole databases (svc export/import), outside the store's
 * request path: no statement time-outs (a million rows outlast any), one transaction for its
 * whole life, and rows read through a cursor. Statements use portable `?` placeholders.
 *
 * - `read`: a consistent snapshot (SQLite: a read transaction, which in WAL mode never blocks
 *   the writers of a running server; PostgreSQL: REPEATABLE READ, READ ONLY).
 * - `write`: one write transaction, made durable by `commit()`; `close()` without it rolls back.
 *   On SQLite it holds the file's write lock until then (a running server's writes wait).
 *
 * @example
 *   const c = await openBulk('sqlite:./data/svc.db', 'read');
 *   try { for await (const row of c.rows('SELECT * FROM documents WHERE database_id = ?', [id])) … } finally { await c.close(); }
 */
export interface BulkConnection extends Queryable {
  /** The store's tables. */
  tables(): Promise<string[]>;
  /** The stored columns of a table, in table order (generated columns left out: they can't be written). */
  columns(table: string): Promise<string[]>;
  /** The rows of a query, fetched from a cursor in batches, with portable values. */
  rows(sql: string, params?: Param[]): AsyncIterable<PortableRow>;
  /** The first row of a query (Queryable's other methods too: features' SQL helpers run on it), with portable values. */
  get<T = Row>(sql: string, params?: Param[]): Promise<T | undefined>;
  /** Commits the transaction (write mode). */
  commit(): Promise<void>;
  /** Ends the connection, rolling back what was not committed. */
  close(): Promise<void>;
}

/** Opens a bulk connection to the store named by a DATABASE_URL (`sqlite:<path>` or `postgres://…`). */
export function openBulk(databaseUrl: string, mode: 'read' | 'write', timeouts: StoreTimeouts = DEFAULT_STORE_TIMEOUTS): Promise<BulkConnection> {
  return databaseUrl.startsWith('sqlite:')
    ? openSqliteBulk(databaseUrl.slice('sqlite:'.length), mode, timeouts)
    : openPostgresBulk(databaseUrl, mode, timeouts);
}

/** Whether a DATABASE_URL names a SQLite store. */
export const isSqliteUrl = (databaseUrl: string): boolean => databaseUrl.startsWith('sqlite:');

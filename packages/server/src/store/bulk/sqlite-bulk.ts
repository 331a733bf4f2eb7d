import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { Param } from '../store.ts';
import type { StoreTimeouts } from '../timeouts.ts';
import { sqliteError } from '../sqlite/errors.ts';
import type { BulkConnection } from './bulk.ts';
import { portableInteger, type PortableRow, type PortableValue } from './portable.ts';

/** better-sqlite3 binds no booleans. */
const bind = (params: Param[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/** A SQLite value as a portable one: 64-bit integers arrive as BigInt (safeIntegers), blobs are not svc's. */
function portable(v: unknown): PortableValue {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  if (typeof v === 'bigint') return portableInteger(v);
  throw new Error(`unexpected ${typeof v} value in the store`);
}

function portableRow(row: Record<string, unknown>): PortableRow {
  const out: PortableRow = {};
  for (const [k, v] of Object.entries(row)) out[k] = portable(v);
  return out;
}

/**
 * A bulk connection to a SQLite file (bulk.ts): a connection of its own beside any server's. A
 * read snapshot is a deferred read transaction started at once (WAL: writers go on meanwhile); a
 * write takes the write lock with BEGIN IMMEDIATE, waiting up to the busy time-out for it.
 */
export async function openSqliteBulk(path: string, mode: 'read' | 'write', timeouts: StoreTimeouts): Promise<BulkConnection> {
  if (!existsSync(path)) throw new Error(`no SQLite store at ${path}`);
  const db = new Database(path, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${timeouts.statementMs}`);
    if (mode === 'read') {
      db.pragma('query_only = ON');
      db.prepare('BEGIN').run();
      db.prepare('SELECT count(*) FROM sqlite_master').get(); // the snapshot starts at the first read
    } else {
      db.pragma('foreign_keys = ON');
      db.prepare('BEGIN IMMEDIATE').run();
    }
  } catch (e) {
    db.close();
    throw sqliteError(e);
  }
  const prepare = (sql: string) => {
    try {
      return db.prepare(sql);
    } catch (e) {
      throw sqliteError(e);
    }
  };
  return {
    async tables() {
      const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{
        name: string;
      }>;
      return rows.map((r) => r.name);
    },
    async columns(table) {
      // table_info leaves out generated and hidden columns, which can't be inserted.
      return (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all(table) as Array<{ name: string }>).map((r) => r.name);
    },
    async *rows(sql, params = []) {
      const stmt = prepare(sql).safeIntegers(true);
      try {
        for (const row of stmt.iterate(...bind(params))) yield portableRow(row as Record<string, unknown>);
      } catch (e) {
        throw sqliteError(e);
      }
    },
    async get<T>(sql: string, params: Param[] = []) {
      try {
        const row = prepare(sql)
          .safeIntegers(true)
          .get(...bind(params)) as Record<string, unknown> | undefined;
        return (row && portableRow(row)) as T | undefined;
      } catch (e) {
        throw sqliteError(e);
      }
    },
    async all<T>(sql: string, params: Param[] = []) {
      try {
        return (
          prepare(sql)
            .safeIntegers(true)
            .all(...bind(params)) as Array<Record<string, unknown>>
        ).map(portableRow) as T[];
      } catch (e) {
        throw sqliteError(e);
      }
    },
    async run(sql, params = []) {
      try {
        return prepare(sql).run(...bind(params)).changes;
      } catch (e) {
        throw sqliteError(e);
      }
    },
    async commit() {
      try {
        db.prepare('COMMIT').run();
      } catch (e) {
        throw sqliteError(e);
      }
    },
    async close() {
      if (db.inTransaction) db.prepare('ROLLBACK').run();
      db.close();
    },
  };
}

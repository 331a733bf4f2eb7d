import pg from 'pg';
import type { Param } from '../store.ts';
import type { StoreTimeouts } from '../timeouts.ts';
import { maintenanceConfig } from '../postgres/pool.ts';
import { toPgPlaceholders } from '../postgres/statements.ts';
import { storeError } from '../postgres/errors.ts';
import type { BulkConnection } from './bulk.ts';
import { portableInteger, type PortableRow } from './portable.ts';

/** Rows per FETCH from a cursor: bounds memory whatever the table holds. */
const FETCH = 1000;

const { builtins } = pg.types;
const number = (s: string) => Number(s);
/**
 * Type parsers giving the portable values of bulk.ts: integers as numbers (int8 and numeric as
 * text past 2^53), booleans as 0/1, everything else (text, JSON, timestamps) as PostgreSQL's text.
 */
const PORTABLE_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) => {
    switch (oid) {
      case builtins.INT2:
      case builtins.INT4:
      case builtins.OID:
      case builtins.FLOAT4:
      case builtins.FLOAT8:
        return number;
      case builtins.INT8:
        return portableInteger;
      case builtins.NUMERIC:
        return (s: string) => (/^-?\d+$/.test(s) ? portableInteger(s) : Number(s));
      case builtins.BOOL:
        return (s: string) => (s === 't' ? 1 : 0);
      default:
        return (s: string) => s;
    }
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A bulk connection to PostgreSQL (bulk.ts): a client of its own, without the statement
 * time-outs of the request pool. A read is REPEATABLE READ READ ONLY (one snapshot for the whole
 * export); rows come from a cursor, FETCH rows at a time.
 */
export async function openPostgresBulk(url: string, mode: 'read' | 'write', timeouts: StoreTimeouts): Promise<BulkConnection> {
  const client = new pg.Client({ ...maintenanceConfig(url, timeouts), types: PORTABLE_TYPES });
  client.on('error', () => undefined);
  const query = async (sql: string, params: Param[] = []) => {
    try {
      return await client.query<PortableRow>(toPgPlaceholders(sql), params as unknown[]);
    } catch (e) {
      throw storeError(e);
    }
  };
  try {
    await client.connect();
  } catch (e) {
    throw storeError(e);
  }
  let open = true;
  let cursors = 0;
  try {
    await query(mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return {
    async tables() {
      const r = await query(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
      );
      return r.rows.map((row) => String(row.name));
    },
    async columns(table) {
      const r = await query(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position",
        [table],
      );
      return r.rows.map((row) => String(row.name));
    },
    async *rows(sql, params = []) {
      const name = `svc_bulk_${++cursors}`;
      await query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params);
      for (;;) {
        const batch = await query(`FETCH ${FETCH} FROM ${name}`);
        yield* batch.rows;
        if (batch.rows.length < FETCH) break;
      }
      await query(`CLOSE ${name}`);
    },
    async get<T>(sql: string, params: Param[] = []) {
      return (await query(sql, params)).rows[0] as T | undefined;
    },
    async all<T>(sql: string, params: Param[] = []) {
      return (await query(sql, params)).rows as T[];
    },
    async run(sql, params = []) {
      return (await query(sql, params)).rowCount ?? 0;
    },
    async commit() {
      await query('COMMIT');
      open = false;
    },
    async close() {
      if (open) await query('ROLLBACK').catch(() => undefined);
      open = false;
      await client.end().catch(() => undefined);
    },
  };
}

import type { Writable } from 'node:stream';
import { notFound } from '../errors.ts';
import { openBulk } from '../store/bulk/bulk.ts';
import type { StoreTimeouts } from '../store/timeouts.ts';
import { CARRIED, FORMAT, FORMAT_VERSION, LEFT_BEHIND, type EndLine, type Header } from './format.ts';
import { LineWriter, quoteIdent } from './lines.ts';

export interface ExportOptions {
  databaseUrl: string;
  databaseId: string;
  out: Writable;
  timeouts?: StoreTimeouts;
  /** Told about tables of the store this version neither carries nor knowingly leaves behind. */
  warn?: (message: string) => void;
}

/**
 * Writes one database as NDJSON (format.ts) to `out`, from one consistent snapshot of the store:
 * a running server may go on writing, and the file holds the database as of one moment, with the
 * event counter of that moment. Rows are read through a cursor and written with backpressure,
 * so memory stays flat whatever the database holds. Returns the rows written per table.
 */
export async function exportDatabase(opts: ExportOptions): Promise<EndLine> {
  const c = await openBulk(opts.databaseUrl, 'read', opts.timeouts);
  try {
    const db = await c.get<{ last: string }>('SELECT CAST(last_event_id AS TEXT) AS last FROM databases WHERE id = ?', [opts.databaseId]);
    if (!db) throw notFound(`Database '${opts.databaseId}' not found`);
    const schema = await c.get<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
    const tables = await c.tables();
    for (const t of tables) {
      if (!CARRIED.some((x) => x.table === t) && !(t in LEFT_BEHIND)) opts.warn?.(`table ${t} is not known to this export and is not carried`);
    }
    const w = new LineWriter(opts.out);
    const header: Header = {
      format: FORMAT,
      version: FORMAT_VERSION,
      database: opts.databaseId,
      schema: Number(schema?.v ?? 0),
      exportedAt: new Date().toISOString(),
    };
    await w.line(header);
    const rows: Record<string, number> = {};
    for (const { table, where, order } of CARRIED) {
      if (!tables.includes(table)) continue;
      const columns = (await c.columns(table)).map(quoteIdent).join(', ');
      const params = where.split('?').length - 1;
      let n = 0;
      for await (const row of c.rows(`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${order}`, Array(params).fill(opts.databaseId))) {
        await w.line({ table, row });
        n += 1;
      }
      rows[table] = n;
    }
    const end: EndLine = { end: true, lastEventId: String(db.last), rows };
    await w.line(end);
    await w.flush();
    return end;
  } finally {
    await c.close();
  }
}

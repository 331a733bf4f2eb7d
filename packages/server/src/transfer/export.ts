import type { Writable } from 'node:stream';
import { notFound } from '../errors.ts';
import { openBulk } from '../store/bulk/bulk.ts';
import type { StoreTimeouts } from '../store/timeouts.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import { originalKey } from '../files/keys.ts';
import { CARRIED, CHUNK_BYTES, FORMAT, FORMAT_VERSION, LEFT_BEHIND, type ChunkLine, type EndLine, type Header } from './format.ts';
import { LineWriter, quoteIdent } from './lines.ts';

interface ExportOptions {
  databaseUrl: string;
  databaseId: string;
  out: Writable;
  timeouts?: StoreTimeouts;
  /** Where the database's file bytes are (written as chunk lines); without it, files and their bytes are not carried. */
  bytes?: ByteStore;
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
    const files: string[] = [];
    for (const { table, where, order } of CARRIED) {
      if (!tables.includes(table) || (table === 'files' && !opts.bytes)) continue;
      const columns = (await c.columns(table)).map(quoteIdent).join(', ');
      const params = where.split('?').length - 1;
      let n = 0;
      for await (const row of c.rows(`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${order}`, Array(params).fill(opts.databaseId))) {
        await w.line({ table, row });
        if (table === 'files') files.push(String(row.id));
        n += 1;
      }
      rows[table] = n;
    }
    const chunks = opts.bytes ? await writeChunks(w, opts.bytes, opts.databaseId, files) : 0;
    const end: EndLine = { end: true, lastEventId: String(db.last), rows, chunks };
    await w.line(end);
    await w.flush();
    return end;
  } finally {
    await c.close();
  }
}

/**
 * Every file's bytes as chunk lines, file after file, read from the byte store with backpressure
 * (one chunk in memory at a time). A file whose bytes are missing fails the export: an import of
 * it would hold a record that points to nothing.
 */
async function writeChunks(w: LineWriter, bytes: ByteStore, databaseId: string, files: string[]): Promise<number> {
  let n = 0;
  for (const id of files) {
    const body = await bytes.get(originalKey(databaseId, id));
    if (!body) throw new Error(`the bytes of file ${id} are missing from the byte store`);
    let pending: Buffer[] = [];
    let size = 0;
    const emit = async () => {
      const line: ChunkLine = { type: 'chunk', file: id, data: Buffer.concat(pending).toString('base64') };
      await w.line(line);
      n += 1;
      pending = [];
      size = 0;
    };
    for await (const piece of body as AsyncIterable<Buffer>) {
      let rest = piece;
      while (rest.length) {
        const take = rest.subarray(0, CHUNK_BYTES - size);
        pending.push(take);
        size += take.length;
        rest = rest.subarray(take.length);
        if (size === CHUNK_BYTES) await emit();
      }
    }
    if (size > 0) await emit();
  }
  return n;
}

import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { ApiError } from '../errors.ts';
import { StoreUnavailable } from '../store/errors.ts';
import { openBulk, type BulkConnection, type PortableRow } from '../store/bulk/bulk.ts';
import { MIGRATIONS } from '../store/migrations/index.ts';
import type { StoreTimeouts } from '../store/timeouts.ts';
import { CARRIED, parseHeader, type ChunkLine, type EndLine, type Header, type RowLine } from './format.ts';
import type { ByteStore } from '../infra/bytes/bytes.ts';
import { FileBytes } from './file-bytes.ts';
import { quoteIdent } from './lines.ts';
import { fieldsOf, indexDocuments } from '../documents/search.ts';
import type { JsonObject } from '../json/merge-patch.ts';

interface ImportOptions {
  databaseUrl: string;
  input: Readable;
  timeouts?: StoreTimeouts;
  /** Where the files' bytes go (chunk lines, format version 3); a file with files needs one. */
  bytes?: ByteStore;
}

/** Bound parameters per INSERT, under both engines' limits (SQLite 32,766; PostgreSQL 65,535). */
const MAX_PARAMS = 30_000;
/** Rows per INSERT at most. */
const MAX_ROWS = 500;

/** What is wrong with the file, and where. */
const badFile = (line: number, message: string) => new ApiError('validation_failed', `line ${line} of the export: ${message}`);

/**
 * Reads an export (format.ts) into the store named by `databaseUrl`, running or not, in one
 * transaction: the database appears whole or not at all. Lines are read one at a time and rows
 * inserted in multi-row statements as they come, so memory stays flat however large the file.
 * Refuses a database id the store already holds (409 conflict). Derived state is rebuilt rather
 * than trusted: the collection counts from the documents, and the event counter is set to the
 * file's last event id, so new events are numbered above every id a realtime client has seen.
 */
export async function importDatabase(opts: ImportOptions): Promise<{ header: Header; end: EndLine }> {
  const lines = createInterface({ input: opts.input, crlfDelay: Number.POSITIVE_INFINITY })[Symbol.asyncIterator]();
  let lineNo = 0;
  const next = async (): Promise<unknown | undefined> => {
    for (;;) {
      const r = await lines.next();
      if (r.done) return undefined;
      lineNo += 1;
      if (r.value.trim() === '') continue;
      try {
        return JSON.parse(r.value) as unknown;
      } catch {
        throw badFile(lineNo, 'not JSON');
      }
    }
  };
  const first = await next();
  if (first === undefined) throw new ApiError('validation_failed', 'the export is empty: nothing on standard input');
  let header: Header;
  try {
    header = parseHeader(first);
  } catch (e) {
    throw badFile(lineNo, (e as Error).message);
  }
  const known = Math.max(...MIGRATIONS.map((m) => m.version));
  if (header.schema > known) throw badFile(lineNo, `made by a newer svc (schema ${header.schema}; this one knows up to ${known}): upgrade this svc first`);

  const c = await openBulk(opts.databaseUrl, 'write', opts.timeouts);
  try {
    if (await c.get('SELECT 1 AS found FROM databases WHERE id = ?', [header.database]))
      throw new ApiError(
        'conflict',
        `Database '${header.database}' already exists in this store: an import never overwrites (delete it first, or import elsewhere)`,
      );
    // Search words are derived: written for each batch of documents as it is inserted.
    let search: string | null = null;
    const inserter = new Inserter(c, async (table, rows) => {
      if (table === 'databases') search = searchSettingsOf(rows[0]);
      if (table === 'documents') await indexSearch(c, header.database, search, rows);
    });
    // Rows without a database_id hang off a webhook or a delivery: those of this file only.
    const webhooks = new Set<unknown>();
    const deliveries = new Set<unknown>();
    // Second factors and passkeys (API.md §2.2) hang off a user of this file, never an operator.
    const users = new Set<unknown>();
    const ofFileUser = (row: PortableRow) => row.operator_id == null && users.has(row.user_id);
    const owned = (table: string, row: PortableRow): boolean => {
      switch (table) {
        case 'databases':
          return row.id === header.database;
        case 'webhook_deliveries':
          if (!webhooks.has(row.webhook_id)) return false;
          deliveries.add(row.id);
          return true;
        case 'webhook_attempts':
          return deliveries.has(row.delivery_id);
        case 'users':
          if (row.database_id !== header.database) return false;
          users.add(row.id);
          return true;
        case 'mfa_recovery_codes':
          return ofFileUser(row);
        case 'mfa_factors':
        case 'passkeys':
          return row.database_id === header.database && ofFileUser(row);
        case 'webhooks':
          if (row.database_id !== header.database) return false;
          webhooks.add(row.id);
          return true;
        default:
          return row.database_id === header.database;
      }
    };
    const counted: Record<string, number> = {};
    let position = 0;
    let end: EndLine | undefined;
    // Bytes are stored before the records commit (the transaction ends with the file); a failed import removes them.
    const fileBytes = new FileBytes(opts.bytes, header.database, (message) => badFile(lineNo, message));
    try {
      for (let value = await next(); value !== undefined; value = await next()) {
        if (end) throw badFile(lineNo, 'lines after the end line');
        const v = value as Partial<RowLine & EndLine & ChunkLine>;
        if (v.end === true) {
          end = v as EndLine;
          await fileBytes.finish(end.chunks ?? 0);
          continue;
        }
        if (v.type === 'chunk') {
          await inserter.flush();
          await fileBytes.chunk(v as ChunkLine);
          continue;
        }
        if (fileBytes.started) throw badFile(lineNo, 'rows after chunk lines: the bytes come last');
        const at = CARRIED.findIndex((t) => t.table === v.table);
        if (at < 0) throw badFile(lineNo, `unknown table ${JSON.stringify(v.table)}`);
        if (at < position) throw badFile(lineNo, `${v.table} rows after ${CARRIED[position].table} rows: parents come first`);
        position = at;
        if (!v.row || typeof v.row !== 'object' || Array.isArray(v.row)) throw badFile(lineNo, 'a row must be an object');
        const { table, reset } = CARRIED[at];
        const row: PortableRow = { ...v.row, ...(reset ?? {}) };
        if (!owned(table, row)) throw badFile(lineNo, `a ${table} row of another database than ${header.database}`);
        await inserter.add(lineNo, table, row);
        if (table === 'files') fileBytes.expect(row);
        counted[table] = (counted[table] ?? 0) + 1;
      }
      if (!end) throw badFile(lineNo, 'the export ends before its end line: the file is incomplete');
      await inserter.flush();
      await finish(c, header, end, counted);
      await c.commit();
    } catch (e) {
      await fileBytes.removeWritten();
      throw e;
    }
    return { header, end };
  } finally {
    await c.close();
  }
}

/**
 * Checks what the file promised and rebuilds what is derived: every table sent as many rows as
 * the end line says, rows hang only off this database's rows, the collection counts, and the
 * event counter.
 */
async function finish(c: BulkConnection, header: Header, end: EndLine, counted: Record<string, number>): Promise<void> {
  const id = header.database;
  if (typeof end.lastEventId !== 'string' || !/^\d+$/.test(end.lastEventId)) throw new ApiError('validation_failed', 'the end line has no lastEventId');
  for (const [table, n] of Object.entries(end.rows ?? {})) {
    if ((counted[table] ?? 0) !== n)
      throw new ApiError('validation_failed', `the export promised ${n} ${table} rows and held ${counted[table] ?? 0}: the file is damaged`);
  }
  if (!counted.databases) throw new ApiError('validation_failed', 'the export holds no databases row');
  const foreign = await c.get<{ n: number }>(
    'SELECT count(*) AS n FROM user_identities i JOIN users u ON u.id = i.user_id WHERE i.database_id = ? AND u.database_id <> ?',
    [id, id],
  );
  if (Number(foreign?.n) > 0) throw new ApiError('validation_failed', 'the export links identities to users of another database');
  await c.run(
    'INSERT INTO collections (database_id, name, count) SELECT database_id, collection, count(*) FROM documents WHERE database_id = ? GROUP BY database_id, collection',
    [id],
  );
  await c.run('UPDATE databases SET last_event_id = ? WHERE id = ?', [end.lastEventId, id]);
}

/** The `settings.search` of a databases row, as JSON text (null: no collection is searched). */
function searchSettingsOf(row: PortableRow | undefined): string | null {
  const settings = typeof row?.settings === 'string' ? (JSON.parse(row.settings) as { search?: unknown }) : undefined;
  return settings?.search ? JSON.stringify(settings.search) : null;
}

/** Writes the search words of inserted documents whose collection has search fields (documents/search.ts). */
async function indexSearch(c: BulkConnection, databaseId: string, search: string | null, rows: PortableRow[]): Promise<void> {
  if (!search) return;
  const byCollection = new Map<string, JsonObject[]>();
  for (const r of rows) {
    const collection = String(r.collection);
    if (!fieldsOf(search, collection)) continue;
    const doc = { id: r.id, ...(JSON.parse(String(r.data)) as JsonObject), createdAt: r.created_at, updatedAt: r.updated_at } as JsonObject;
    byCollection.set(collection, [...(byCollection.get(collection) ?? []), doc]);
  }
  for (const [collection, docs] of byCollection) await indexDocuments(c, databaseId, collection, fieldsOf(search, collection)!, docs);
}

/**
 * Gathers rows of one table and inserts them in multi-row statements. Columns are checked against
 * the store's: a column the store lacks means the file comes from a newer svc; a column the file
 * lacks (an older svc) takes the store's default.
 */
class Inserter {
  private table = '';
  private columns: string[] = [];
  private rows: PortableRow[] = [];
  private lastLine = 0;
  private readonly known = new Map<string, Set<string>>();
  constructor(
    private readonly c: BulkConnection,
    /** Runs after each multi-row insert, with its rows (in the same transaction). */
    private readonly inserted: (table: string, rows: PortableRow[]) => Promise<void>,
  ) {}

  async add(lineNo: number, table: string, row: PortableRow): Promise<void> {
    let stored = this.known.get(table);
    if (!stored) {
      stored = new Set(await this.c.columns(table));
      this.known.set(table, stored);
    }
    const columns = Object.keys(row);
    for (const col of columns) {
      if (!stored.has(col)) throw badFile(lineNo, `column ${col} of ${table} does not exist in this store: the file comes from a newer svc`);
      const v = row[col];
      if (v !== null && typeof v !== 'string' && typeof v !== 'number') throw badFile(lineNo, `${table}.${col} must be text, a number or null`);
    }
    if (table !== this.table || columns.join('\u0000') !== this.columns.join('\u0000')) {
      await this.flush();
      this.table = table;
      this.columns = columns;
    }
    this.rows.push(row);
    this.lastLine = lineNo;
    if (this.rows.length >= Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / Math.max(1, columns.length)))) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const { columns, rows } = this;
    this.rows = [];
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    try {
      await this.c.run(
        `INSERT INTO ${this.table} (${columns.map(quoteIdent).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
        rows.flatMap((r) => columns.map((col) => r[col])),
      );
    } catch (e) {
      // A constraint (a duplicate row, a parent missing): say which rows, keep the store's words.
      if (e instanceof StoreUnavailable) throw e;
      throw badFile(this.lastLine, `the ${this.table} rows up to here could not be written: ${e instanceof Error ? e.message : String(e)}`);
    }
    await this.inserted(this.table, rows);
  }
}

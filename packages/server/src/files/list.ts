import { ApiError } from '../errors.ts';
import type { JsonObject } from '../json/merge-patch.ts';
import type { Param, Store } from '../store/store.ts';
import type { CursorCodec } from '../documents/cursor.ts';
import { compileFilter, parseChecked, parseField } from '../documents/query.ts';
import { keyColumns, keysetRanges, keyValues, orderClause, sortOf } from '../documents/keyset.ts';
import { columns, fromRow, type FileRecord, type FileRow } from './record.ts';

export interface FileListQuery {
  limit: number;
  offset?: number;
  cursor?: string;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
  filter?: string;
}

interface FilePage {
  files: FileRecord[];
  total: number;
  limit: number;
  offset: number;
  nextCursor: string | null;
}

/**
 * Lists a bucket with §1/§1.1's query language. The documents' compiler serves as it is: a file's
 * row has the system columns it knows (id, created_at, updated_at) and `data` holds every other
 * field of the record (record.ts), so filters, sorts and keyset cursors mean here what they mean
 * on documents. A rule's filter (public keys) is ANDed in before the caller's filter, as §10 says.
 */
export async function listFiles(
  store: Store,
  cursors: CursorCodec,
  databaseId: string,
  bucket: string,
  q: FileListQuery,
  ruleFilter: JsonObject | undefined,
  caller: string,
): Promise<FilePage> {
  const { dialect } = store;
  await cursors.ready();
  if (q.cursor !== undefined && q.offset !== undefined) throw new ApiError('invalid_cursor', 'cursor and offset exclude each other');
  const where: string[] = ['database_id = ?', 'bucket = ?'];
  const params: Param[] = [databaseId, bucket];
  // The rule's filter is passed as the value resolveRule made, never as JSON text: its resolved
  // `$auth` operands (scalar-only markers, NEVER) are not JSON and would be lost in a round trip.
  for (const filter of [ruleFilter && parseChecked(ruleFilter), q.filter]) {
    if (!filter) continue;
    const compiled = compileFilter(dialect.json, filter);
    where.push(`(${compiled.sql})`);
    params.push(...compiled.params);
  }
  const field = parseField(q.sortBy ?? 'createdAt', (m) => new ApiError('validation_failed', m, [{ path: '/sortBy', message: m }]));
  const sort = sortOf(dialect.json, field, q.sortOrder === 'desc');
  const binding = cursors.binding([databaseId, `files/${bucket}`, q.sortBy ?? 'createdAt', q.sortOrder, q.filter, caller]);
  const totalRow = await store.get<{ n: string | number }>(`SELECT COUNT(*) AS n FROM files WHERE ${where.join(' AND ')}`, params);
  const total = Number(totalRow?.n ?? 0);
  const offset = q.offset ?? 0;
  if (q.limit === 0) return { files: [], total, limit: 0, offset, nextCursor: null };
  const pageWhere = [...where];
  const pageParams = [...params];
  if (q.cursor !== undefined) {
    const after = cursors.decode(q.cursor, binding, sort.nullable);
    const ranges = keysetRanges(sort, after.values, after.id);
    pageWhere.push(`(${ranges.map((r) => r.where.text).join(' OR ')})`);
    for (const r of ranges) pageParams.push(...r.where.params);
  }
  const rows = await store.all<FileRow & Record<string, unknown>>(
    `SELECT ${columns(dialect)}${keyColumns(sort)} FROM files WHERE ${pageWhere.join(' AND ')} ORDER BY ${orderClause(sort)} LIMIT ${q.limit + 1} OFFSET ${q.cursor === undefined ? offset : 0}`,
    pageParams,
  );
  const more = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const nextCursor = more && last ? cursors.encode(binding, { values: keyValues(sort, last), id: last.id, from: sort.keys.length }) : null;
  return { files: page.map((r) => fromRow(r).file), total, limit: q.limit, offset, nextCursor };
}

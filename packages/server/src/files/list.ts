import { CountCache } from '../documents/count-cache.ts';
import type { CursorCodec } from '../documents/cursor.ts';
import { type Listable, type ListedRow, listRows } from '../documents/list.ts';
import { parseChecked, parseField } from '../documents/query.ts';
import { ApiError } from '../errors.ts';
import type { JsonObject } from '../json/merge-patch.ts';
import { sql } from '../store/sql.ts';
import type { Store } from '../store/store.ts';
import { type FileRecord, type FileRow, fromRow } from './record.ts';

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
 * Totals of filtered bucket lists, one cache per store: a bucket's total is counted once per
 * version of the database, as a collection's filtered total is (documents/list.ts, `totalPlan`).
 */
const countsByStore = new WeakMap<Store, CountCache>();
function countsOf(store: Store): CountCache {
  let counts = countsByStore.get(store);
  if (!counts) countsByStore.set(store, (counts = new CountCache()));
  return counts;
}

/**
 * Lists a bucket with §1/§1.1's query language, through the documents' list plan
 * (documents/list.ts): a file's row has the system columns (id, created_at, updated_at) and
 * `data` holds every other field of the record (record.ts), so filters, sorts, keyset cursors and
 * totals mean here what they mean on documents. A rule's filter (public keys) is ANDed in before
 * the caller's filter, as §10 says. Buckets keep no counter: a total is always counted.
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
  const sortField = parseField(q.sortBy ?? 'createdAt', (m) => new ApiError('validation_failed', m, [{ path: '/sortBy', message: m }]));
  const files: Listable = { table: 'files', scope: sql`database_id = ${databaseId} AND bucket = ${bucket}`, name: `files/${bucket}` };
  const listed = await listRows<FileRow & ListedRow>({ store, cursors, counts: countsOf(store) }, databaseId, files, q, {
    sortField,
    // The rule's filter is passed as the value resolveRule made, never as JSON text: its resolved
    // `$auth` operands (scalar-only markers, NEVER) are not JSON and would be lost in a round trip.
    rule: ruleFilter && parseChecked(ruleFilter),
    columns: [
      { expression: dialect.jsonText('data'), name: 'data' },
      { expression: 'CAST(version AS TEXT)', name: 'version' },
    ],
    caller,
  });
  return { files: listed.rows.map((r) => fromRow(r).file), total: listed.total, limit: q.limit, offset: listed.offset, nextCursor: listed.nextCursor };
}

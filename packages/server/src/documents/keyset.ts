import { bound, type Sql } from '../store/sql.ts';
import type { JsonSql, Param } from '../store/store.ts';
import type { KeyValue } from './cursor.ts';
import type { Field } from './query.ts';

/**
 * The order of a list as SQL keys, and the keyset condition that continues it after a position
 * (API.md §1.1 cursor paging). `id` always breaks ties, last, in the same direction.
 *
 * A key may be NULL only where the keys before it already decide that every row sharing their
 * values has NULL there too (the value keys of a user field are NULL exactly for the type classes
 * whose rank says so: missing/null, objects and arrays, or the other class on PostgreSQL). So a
 * position whose value is NULL simply leaves that key out of the row comparison: rows that tie on
 * the keys before it tie on it as well.
 */
export interface Sort {
  /** ORDER BY expressions before `id`. */
  keys: string[];
  /** Whether each key may be NULL (the shape a cursor's values are checked against). */
  nullable: boolean[];
  desc: boolean;
}

/** The sort of a field (§1's cross-type order for user fields, the column for system fields). */
export function sortOf(json: JsonSql, field: Field, desc: boolean): Sort {
  if ('column' in field) return field.column === 'id' ? { keys: [], nullable: [], desc } : { keys: [field.column], nullable: [false], desc };
  const keys = json.sortKeys(field.path);
  return { keys, nullable: keys.map((_, i) => i > 0), desc };
}

/** `k1 DESC, k2 DESC, id DESC`. */
export function orderClause(sort: Sort): string {
  const dir = sort.desc ? ' DESC' : '';
  return [...sort.keys, 'id'].map((k) => k + dir).join(', ');
}

/** The keys as extra SELECT columns `k0, k1, …`, to build the cursor of a page's last row. */
export function keyColumns(sort: Sort): string {
  return sort.keys.map((k, i) => `, ${k} AS k${i}`).join('');
}

/**
 * The first key at which two rows' values differ (`values.length`: none, they tie up to `id`): for
 * a cursor's `from`. Numbers PostgreSQL gives as text count as equal when they are the same number
 * (`1.0` and `1` tie in SQL); calling two values equal that SQL tells apart only costs a range read.
 */
export function firstDifference(a: KeyValue[], b: KeyValue[]): number {
  const same = (x: KeyValue, y: KeyValue) =>
    x === y || (typeof x === 'string' && typeof y === 'string' && NUMERIC.test(x) && NUMERIC.test(y) && Number(x) === Number(y));
  const i = a.findIndex((x, k) => !same(x, b[k]));
  return i === -1 ? a.length : i;
}
const NUMERIC = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** The values of the key columns of a row selected with keyColumns. */
export function keyValues(sort: Sort, row: Record<string, unknown>): KeyValue[] {
  return sort.keys.map((_, i) => {
    const v = row[`k${i}`];
    return v === undefined || v === null ? null : typeof v === 'number' ? v : typeof v === 'bigint' ? String(v) : String(v);
  });
}

/** One range of the rows after a position: a WHERE fragment (with its parameters) and the ORDER BY within it. */
interface KeysetRange {
  where: Sql;
  order: string;
}

/** Sort columns of the documents table itself, each with its own index ending in id (migration 1). */
const SYSTEM_COLUMNS = new Set(['created_at', 'updated_at']);

/**
 * The rows strictly after a position, as consecutive ranges (those deeper than `from` left out), each one an index range in the order
 * of the list: first the rest of the position's ties (`k1 = v1 AND k2 = v2 AND id > ?`), then the
 * rest of its second key (`k1 = v1 AND k2 > v2`), then past its first key (`k1 > v1`); `<` when
 * descending. The list reads them in turn, each in index order and a page at most, until the page
 * is full; `from` (the cursor's) skips those that were empty when the cursor's page was read, so as
 * a rule one statement serves a page (a UNION ALL of all of them in one statement planned and ran
 * slower on PostgreSQL than that one statement). One
 * row-value comparison, `(k1, k2, id) > (?, ?, ?)`, would say the same, but SQLite cannot seek an
 * expression index with it (it scans the collection up to the position), and neither store can
 * when a key of the position is NULL. Each range orders only by the keys it does not fix, so both
 * stores read it in index order.
 */
export function keysetRanges(sort: Sort, values: KeyValue[], id: string, from = sort.keys.length, param = '?'): KeysetRange[] {
  const dir = sort.desc ? ' DESC' : '';
  const op = sort.desc ? '<' : '>';
  // A system column (never NULL) then id: one row-value range, which both stores seek in the
  // column's (database_id, collection, <column>, id) index, so a page is one statement whatever the
  // ties (the documents of one bulk share their createdAt, and a page often ends inside them).
  const [only] = sort.keys;
  if (sort.keys.length === 1 && SYSTEM_COLUMNS.has(only) && values[0] !== null) {
    return [{ where: bound(`((${only}, id) ${op} (${param}, ${param}))`, values[0] as Param, id), order: `${only}${dir}, id${dir}` }];
  }
  const keys = [...sort.keys, 'id'];
  const vals: KeyValue[] = [...values, id];
  const ranges: KeysetRange[] = [];
  for (let i = Math.min(from, keys.length - 1); i >= 0; i--) {
    if (vals[i] === null) continue; // nothing sorts after NULL within its class: the range is empty
    const fixed = keys.slice(0, i).map((k, j) => (vals[j] === null ? `${k} IS NULL` : `${k} = ${param}`));
    const params = vals.slice(0, i + 1).filter((v) => v !== null) as Param[];
    ranges.push({
      where: bound(`(${[...fixed, `${keys[i]} ${op} ${param}`].join(' AND ')})`, ...params),
      order: keys
        .slice(i)
        .map((k) => k + dir)
        .join(', '),
    });
  }
  return ranges;
}

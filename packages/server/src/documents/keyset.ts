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

/** The values of the key columns of a row selected with keyColumns. */
export function keyValues(sort: Sort, row: Record<string, unknown>): KeyValue[] {
  return sort.keys.map((_, i) => {
    const v = row[`k${i}`];
    return v === undefined || v === null ? null : typeof v === 'number' ? v : typeof v === 'bigint' ? String(v) : String(v);
  });
}

/**
 * The rows strictly after a position, as one row-value comparison (which both stores can answer
 * from the index that serves the ORDER BY): `(k1, k2, id) > (?, ?, ?)`, `<` when descending.
 */
export function keysetAfter(sort: Sort, values: KeyValue[], id: string): { sql: string; params: Param[] } {
  const keys: string[] = [];
  const params: Param[] = [];
  sort.keys.forEach((k, i) => {
    if (values[i] === null) return;
    keys.push(k);
    params.push(values[i]);
  });
  keys.push('id');
  params.push(id);
  return { sql: `((${keys.join(', ')}) ${sort.desc ? '<' : '>'} (${keys.map(() => '?').join(', ')}))`, params };
}

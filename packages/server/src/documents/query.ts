import { type Filter, FilterError, filterPaths, parseFilter, type ParseOptions } from '@svc/filter';
import { ApiError } from '../errors.ts';
import { FILTER_COST_BUDGET, filterCost, filterSql } from '../store/filter-sql.ts';
import type { JsonSql, Param } from '../store/store.ts';
import { parseFieldPath } from './names.ts';

/**
 * The list parameters of §1 as SQL: a filter (parsed by @svc/filter, then written by
 * store/filter-sql.ts in the store's dialect) and a sort field. Field paths are validated before
 * they reach SQL, and every value is a bound parameter, so neither can inject SQL.
 */

/**
 * System fields live in columns; everything else is a path into the JSON document. A Map, not an
 * object literal: a field called `constructor` or `toString` must not find Object.prototype's.
 */
const SYSTEM_COLUMNS = new Map([
  ['id', 'id'],
  ['createdAt', 'created_at'],
  ['updatedAt', 'updated_at'],
]);

export type Field = { column: string } | { path: string[] };

export function parseField(path: string, onError: (message: string) => ApiError): Field {
  const column = SYSTEM_COLUMNS.get(path);
  if (column) return { column };
  const segments = parseFieldPath(path);
  if (!segments) throw onError(`"${path.slice(0, 80)}" is not a field path (segments of [A-Za-z_][A-Za-z0-9_]* joined by dots)`);
  return { path: segments };
}

/** ORDER BY expressions for a sort field and direction; ties break by id in the same direction. */
export function orderBy(json: JsonSql, field: Field, desc: boolean): string {
  const dir = desc ? ' DESC' : '';
  const keys = 'column' in field ? [field.column] : json.sortKeys(field.path);
  if (!keys.includes('id')) keys.push('id');
  return keys.map((k) => k + dir).join(', ');
}

/**
 * Parses a filter (JSON text, or the value it parses to) as a list does: the parser's refusals,
 * then the filter cost budget, as 400 `invalid_filter`.
 */
export function parseChecked(filter: unknown, options?: ParseOptions): Filter {
  let tree: Filter;
  try {
    tree = parseFilter(filter, options);
  } catch (e) {
    if (e instanceof FilterError) throw new ApiError(e.code, e.message, e.detail && [e.detail]);
    throw e;
  }
  if (filterCost(tree) > FILTER_COST_BUDGET) {
    throw new ApiError(
      'invalid_filter',
      `the filter is too costly: past the filter cost budget of ${FILTER_COST_BUDGET} (one unit per comparison, one per array a path may open)`,
    );
  }
  return tree;
}

/** A compiled filter: a WHERE fragment and its parameters, plus the JSON paths it touches. */
export interface CompiledFilter {
  sql: string;
  params: Param[];
  paths: string[][];
}

/**
 * A filter as SQL of a dialect: `filter` is a list's `filter` parameter (JSON text, parsed and
 * checked here: 400 `invalid_filter`) or a tree already parsed (a resolved rule).
 */
export function compileFilter(json: JsonSql, filter: string | Filter): CompiledFilter {
  const tree = typeof filter === 'string' ? parseChecked(filter) : filter;
  const where = filterSql(json, tree);
  return { sql: where.text, params: [...where.params], paths: filterPaths(tree) };
}

export { FILTER_COST_BUDGET };

import type { CompareOp, JsonSql, ScalarType } from '../store.ts';

/** `data #> '{a,b}'` for a validated path (segments are [A-Za-z_][A-Za-z0-9_]*, so no quoting is needed). */
const at = (path: string[]): string => `(data #> '{${path.join(',')}}')`;
const atText = (path: string[]): string => `(data #>> '{${path.join(',')}}')`;

/**
 * The §1 ordering as three keys: the type class (missing/null 0, numbers 1, strings 2, booleans 3,
 * objects and arrays 4), the numeric value for numbers, and the text for strings and booleans
 * compared in the "C" collation, i.e. by UTF-8 bytes, which is code point order, as on SQLite.
 * The same expressions back the automatic indexes, so sort and filter can use them.
 */
const rank = (path: string[]): string =>
  `(CASE jsonb_typeof(${at(path)}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'boolean' THEN 3 ` + `WHEN 'object' THEN 4 WHEN 'array' THEN 4 ELSE 0 END)`;
const num = (path: string[]): string => `(CASE WHEN jsonb_typeof(${at(path)}) = 'number' THEN ${at(path)}::numeric END)`;
const txt = (path: string[]): string => `(CASE WHEN jsonb_typeof(${at(path)}) IN ('string', 'boolean') THEN ${atText(path)} END COLLATE "C")`;
const RANK_OF: Record<ScalarType, number> = { number: 1, string: 2, boolean: 3 };

/** PostgreSQL's jsonb spelling of document field expressions. */
export const postgresJson: JsonSql = {
  sortKeys: (path) => [rank(path), num(path), txt(path)],
  compare: (path, op: CompareOp, type) =>
    type === 'number'
      ? `(${rank(path)} = 1 AND ${num(path)} ${op} CAST(? AS numeric))`
      : `(${rank(path)} = ${RANK_OF[type]} AND ${num(path)} IS NULL AND ${txt(path)} ${op} CAST(? AS text))`,
  isNullish: (path) => `(${rank(path)} = 0)`,
  exists: (path) => `(${at(path)} IS NOT NULL)`,
  param: (v) => (typeof v === 'boolean' ? String(v) : v),
};

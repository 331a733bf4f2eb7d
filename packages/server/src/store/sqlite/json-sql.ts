import type { CompareOp, JsonSql, ScalarType } from '../store.ts';

/** `$.a.b` for a validated path (segments are [A-Za-z_][A-Za-z0-9_]*, so no quoting is needed). */
const jsonPath = (path: string[]): string => `'$.${path.join('.')}'`;

/**
 * The type class of a value, as the §1 ordering needs it: missing/null 0, numbers 1, strings 2,
 * booleans 3, objects and arrays 4. Within one class `json_extract` compares correctly: numbers
 * numerically, strings bytewise (UTF-8 bytes sort in code point order), booleans as 0/1.
 */
const rank = (path: string[]): string =>
  `(CASE json_type(data, ${jsonPath(path)}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 ` +
  `WHEN 'true' THEN 3 WHEN 'false' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 4 ELSE 0 END)`;
/**
 * The value within its class. Objects and arrays give NULL, so they tie and break by id as on
 * PostgreSQL (json_extract would return their JSON text, and order them by it).
 */
const value = (path: string[]): string =>
  `(CASE WHEN json_type(data, ${jsonPath(path)}) IN ('object', 'array') THEN NULL ELSE json_extract(data, ${jsonPath(path)}) END)`;
const RANK_OF: Record<ScalarType, number> = { number: 1, string: 2, boolean: 3 };

/** SQLite's JSON1 spelling of document field expressions. */
export const sqliteJson: JsonSql = {
  sortKeys: (path) => [rank(path), value(path)],
  compare: (path, op: CompareOp, type) => `(${rank(path)} = ${RANK_OF[type]} AND ${value(path)} ${op} ?)`,
  isNullish: (path) => `(${rank(path)} = 0)`,
  exists: (path) => `(json_type(data, ${jsonPath(path)}) IS NOT NULL)`,
  param: (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v),
};

import type { CompareOp, JsonSql, JsonTerm, ScalarType } from '../store.ts';

/** `$.a.b` for a validated path (segments are [A-Za-z_][A-Za-z0-9_]*, so no quoting is needed). */
const jsonPath = (path: string[]): string => `'$.${path.join('.')}'`;

/**
 * A term is an SQL expression giving a JSON path into `data`: a literal for a field of the
 * document, `eN.fullkey` for an element of an array that `json_each` walks (its `type` and `atom`
 * columns are read directly, without parsing `data` again), `(eN.fullkey || '.x')` for a field
 * of such an element.
 */
const ELEMENT = /^e\d+\.fullkey$/;
const alias = (t: string) => t.slice(0, -'.fullkey'.length);
const typeOf = (t: string): string => (ELEMENT.test(t) ? `${alias(t)}.type` : `json_type(data, ${t})`);
const extract = (t: string): string => (ELEMENT.test(t) ? `${alias(t)}.atom` : `json_extract(data, ${t})`);

/**
 * The type class of a value, as the §1 ordering needs it: missing/null 0, numbers 1, strings 2,
 * booleans 3, objects and arrays 4. Within one class `json_extract` compares correctly: numbers
 * numerically, strings bytewise (UTF-8 bytes sort in code point order), booleans as 0/1.
 */
const rank = (t: string): string =>
  `(CASE ${typeOf(t)} WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 ` +
  `WHEN 'true' THEN 3 WHEN 'false' THEN 3 WHEN 'object' THEN 4 WHEN 'array' THEN 4 ELSE 0 END)`;
/**
 * The value within its class. Objects and arrays give NULL, so they tie and break by id as on
 * PostgreSQL (json_extract would return their JSON text, and order them by it).
 */
const value = (t: string): string => `(CASE WHEN ${typeOf(t)} IN ('object', 'array') THEN NULL ELSE ${extract(t)} END)`;
const RANK_OF: Record<ScalarType, number> = { number: 1, string: 2, boolean: 3 };

const term = (path: string[], from?: JsonTerm): JsonTerm =>
  (from === undefined ? jsonPath(path) : path.length ? `(${from} || '.${path.join('.')}')` : from) as JsonTerm;
const compareTerm = (t: string, op: CompareOp, type: ScalarType) => `(${rank(t)} = ${RANK_OF[type]} AND ${value(t)} ${op} ?)`;
// `rank = 4` first: false for a missing field (json_type NULL), and servable by the field's index.
const isArray = (t: string) => `(${rank(t)} = 4 AND ${typeOf(t)} = 'array')`;

const elements = (t: JsonTerm, a: string) => ({ from: `json_each(data, ${t}) AS ${a}`, where: isArray(t), element: `${a}.fullkey` as JsonTerm });
const RANK_OF_TYPE = `CASE %.type WHEN 'text' THEN 2 WHEN 'true' THEN 3 WHEN 'false' THEN 3 ELSE 1 END`;

/**
 * The candidates as rows of paths, each with the path of its rest, the path NULL unless it holds an
 * array (json_each walks no rows then); the elements' values are read at `fullkey || rest`.
 */
function crossing(candidates: Array<{ array: JsonTerm; rest: string[] }>, a: string) {
  if (candidates.length === 1 && candidates[0].rest.length === 0) return elements(candidates[0].array, a);
  const rows = candidates.map(
    (c, i) =>
      `SELECT CASE WHEN json_type(data, ${c.array}) = 'array' THEN ${c.array} END${i ? '' : ' AS arr'}, '${c.rest.map((s) => `.${s}`).join('')}'${i ? '' : ' AS rest'}`,
  );
  return {
    from: `(${rows.join(' UNION ALL ')}) AS ${a}s, json_each(data, ${a}s.arr) AS ${a}`,
    where: '1',
    element: `(${a}.fullkey || ${a}s.rest)` as JsonTerm,
  };
}

/** SQLite's JSON1 spelling of document field expressions. */
export const sqliteJson: JsonSql = {
  sortKeys: (path) => [rank(jsonPath(path)), value(jsonPath(path))],
  compare: (path, op, type) => compareTerm(jsonPath(path), op, type),
  isNullish: (path) => `(${rank(jsonPath(path))} = 0)`,
  exists: (path) => `(json_type(data, ${jsonPath(path)}) IS NOT NULL)`,
  fieldText: (key) => `data -> '$.${key}'`,
  param: (v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v),
  term,
  elements,
  crossing,
  inList: (t, type) => `(${rank(t)} = ${RANK_OF[type]} AND ${value(t)} IN (SELECT value FROM json_each(?)))`,
  textList: () => '(SELECT value FROM json_each(?))',
  listRows: (a) => `json_each(?) AS ${a}`,
  // json_each gives true/false as 1/0, as json_extract does.
  equalsRow: (t, a) => `(CASE ${a}.type WHEN 'null' THEN ${rank(t)} = 0 ELSE ${rank(t)} = (${RANK_OF_TYPE.replace('%', a)}) AND ${value(t)} = ${a}.atom END)`,
  isArray,
  isObject: (t) => `(${rank(t)} = 4 AND ${typeOf(t)} = 'object')`,
  compareTerm,
  isNullishTerm: (t) => `(${rank(t)} = 0)`,
  existsTerm: (t) => `(${typeOf(t)} IS NOT NULL)`,
  arraySize: (t) => `(${isArray(t)} AND json_array_length(data, ${t}) = ?)`,
  stringRange: (t, bounded) => `(${rank(t)} = 2 AND ${value(t)} >= ?${bounded ? ` AND ${value(t)} < ?` : ''})`,
  // svc_casefold is @svc/filter's casefold, registered on each connection (sqlite-store.ts).
  icontains: (t) => `(${rank(t)} = 2 AND instr(svc_casefold(${value(t)}), svc_casefold(?)) > 0)`,
};

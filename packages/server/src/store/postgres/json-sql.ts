import type { CompareOp, JsonSql, JsonTerm, ScalarType } from '../store.ts';

/** `data #> '{a,b}'` for a validated path (segments are [A-Za-z_][A-Za-z0-9_]*, so no quoting is needed). */
const at = (path: string[]): string => `(data #> '{${path.join(',')}}')`;
const ROOT = "(data #> '{";
/** The text of a term: `data #>> '{a,b}'` for a field of the document (as the indexes spell it). */
const textOf = (t: string): string => (t.startsWith(ROOT) ? `(data #>> '{${t.slice(ROOT.length)}` : `(${t} #>> '{}')`);

/**
 * The §1 ordering as three keys: the type class (missing/null 0, numbers 1, strings 2, booleans 3,
 * objects and arrays 4), the numeric value for numbers, and the text for strings and booleans
 * compared in the "C" collation, i.e. by UTF-8 bytes, which is code point order, as on SQLite.
 * The same expressions back the automatic indexes, so sort and filter can use them.
 */
const rank = (t: string): string =>
  `(CASE jsonb_typeof(${t}) WHEN 'number' THEN 1 WHEN 'string' THEN 2 WHEN 'boolean' THEN 3 ` + `WHEN 'object' THEN 4 WHEN 'array' THEN 4 ELSE 0 END)`;
const num = (t: string): string => `(CASE WHEN jsonb_typeof(${t}) = 'number' THEN ${t}::numeric END)`;
const txt = (t: string): string => `(CASE WHEN jsonb_typeof(${t}) IN ('string', 'boolean') THEN ${textOf(t)} END COLLATE "C")`;
const RANK_OF: Record<ScalarType, number> = { number: 1, string: 2, boolean: 3 };

const compareTerm = (t: string, op: CompareOp, type: ScalarType): string =>
  type === 'number'
    ? `(${rank(t)} = 1 AND ${num(t)} ${op} CAST(? AS numeric))`
    : `(${rank(t)} = ${RANK_OF[type]} AND ${num(t)} IS NULL AND ${txt(t)} ${op} CAST(? AS text))`;
// `rank = 4` first: false for a missing field, and servable by the field's index.
const isArray = (t: string) => `(${rank(t)} = 4 AND jsonb_typeof(${t}) = 'array')`;
/** The term when it holds an array, else NULL: the array functions throw on anything else. */
const arrayOnly = (t: string) => `(CASE WHEN jsonb_typeof(${t}) = 'array' THEN ${t} END)`;

const elements = (t: JsonTerm, a: string) => ({ from: `jsonb_array_elements(${arrayOnly(t)}) AS ${a}(v)`, where: 'TRUE', element: `${a}.v` as JsonTerm });

/** The candidates as rows (the array term, the rest as a text[] path); the elements' values are `v #> rest`. */
function crossing(candidates: Array<{ array: JsonTerm; rest: string[] }>, a: string) {
  if (candidates.length === 1 && candidates[0].rest.length === 0) return elements(candidates[0].array, a);
  const rows = candidates.map((c) => `(${c.array}, CAST('{${c.rest.join(',')}}' AS text[]))`);
  return {
    from: `(VALUES ${rows.join(', ')}) AS ${a}s(arr, rest), jsonb_array_elements(${arrayOnly(`${a}s.arr`)}) AS ${a}(v)`,
    where: 'TRUE',
    element: `(${a}.v #> ${a}s.rest)` as JsonTerm,
  };
}

/** The values of a JSON array parameter as text, cast to a comparable type. */
const listed = (cast: string) => `(SELECT ${cast} FROM jsonb_array_elements_text(CAST(? AS jsonb)) AS x(v))`;

/** PostgreSQL's jsonb spelling of document field expressions. */
export const postgresJson: JsonSql = {
  sortKeys: (path) => [rank(at(path)), num(at(path)), txt(at(path))],
  compare: (path, op, type) => compareTerm(at(path), op, type),
  isNullish: (path) => `(${rank(at(path))} = 0)`,
  exists: (path) => `(${at(path)} IS NOT NULL)`,
  fieldText: (key) => `(data -> '${key}')::text`,
  param: (v) => (typeof v === 'boolean' ? String(v) : v),
  term: (path, from) => (from === undefined ? at(path) : path.length ? `(${from} #> '{${path.join(',')}}')` : from) as JsonTerm,
  elements,
  crossing,
  inList: (t, type) =>
    type === 'number'
      ? `(${rank(t)} = 1 AND ${num(t)} IN ${listed('CAST(x.v AS numeric)')})`
      : `(${rank(t)} = ${RANK_OF[type]} AND ${num(t)} IS NULL AND ${txt(t)} IN ${listed('x.v COLLATE "C"')})`,
  textList: () => '(SELECT jsonb_array_elements_text(CAST(? AS jsonb)))',
  listRows: (a) => `jsonb_array_elements(CAST(? AS jsonb)) AS ${a}(v)`,
  // jsonb equality of scalars: numbers numerically, strings by their bytes, as compareTerm.
  equalsRow: (t, a) => `(CASE WHEN jsonb_typeof(${a}.v) = 'null' THEN ${rank(t)} = 0 ELSE COALESCE(${t} = ${a}.v, FALSE) END)`,
  isArray,
  isObject: (t) => `(${rank(t)} = 4 AND jsonb_typeof(${t}) = 'object')`,
  compareTerm,
  isNullishTerm: (t) => `(${rank(t)} = 0)`,
  existsTerm: (t) => `(${t} IS NOT NULL)`,
  arraySize: (t) => `(${isArray(t)} AND COALESCE(jsonb_array_length(${arrayOnly(t)}), -1) = CAST(? AS integer))`,
  stringRange: (t, bounded) => `(${rank(t)} = 2 AND ${num(t)} IS NULL AND ${txt(t)} >= CAST(? AS text)${bounded ? ` AND ${txt(t)} < CAST(? AS text)` : ''})`,
  // lower(upper()) under the database's own collation: per character, Unicode's simple mappings
  // on a UTF-8 locale, as @svc/filter's casefold does (docs: where the two can differ).
  icontains: (t) =>
    `(${rank(t)} = 2 AND strpos(lower(upper(CASE WHEN jsonb_typeof(${t}) = 'string' THEN ${textOf(t)} END)), lower(upper(CAST(? AS text)))) > 0)`,
  // jsonb containment: an array holding the scalar at its top level (or the scalar itself, which
  // rank = 4 excludes). A GIN index on the term with jsonb_path_ops serves it (documents/indexes.ts).
  arrayHolds: (t, list) =>
    list ? `(${rank(t)} = 4 AND ${t} @> ANY(ARRAY(SELECT jsonb_array_elements(CAST(? AS jsonb)))))` : `(${rank(t)} = 4 AND ${t} @> CAST(? AS jsonb))`,
  // An expression alone takes no statistics kind; with several, ndistinct is the cheapest to name
  // (the expressions' own statistics, what the planner needs, are built either way).
  fieldStatistics: (name, path, array) => {
    const expressions = array ? [at(path)] : [rank(at(path)), num(at(path)), txt(at(path))];
    return `CREATE STATISTICS IF NOT EXISTS ${name}${expressions.length > 1 ? ' (ndistinct)' : ''} ON ${expressions.map((e) => `(${e})`).join(', ')} FROM documents`;
  },
  arrayIndex: (name, path, where) =>
    `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON documents USING gin (${at(path)} jsonb_path_ops)${where ? ` WHERE ${where}` : ''}`,
};

import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { casefold } from '../json/casefold.ts';
import { isObject } from '../json/merge-patch.ts';
import { isStorableString } from '../json/parse.ts';
import type { CompareOp, JsonSql, JsonTerm, Param, ScalarType } from '../store/store.ts';
import { parseFieldPath } from './names.ts';

/**
 * Turns the list parameters of §1 into SQL fragments. Field paths are validated against a strict
 * pattern before they reach SQL, and every value is a bound parameter, so neither can inject SQL.
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

const invalidFilter = (message: string) => new ApiError('invalid_filter', message);

/** A field of an array's element (inside `$elemMatch`): `id` and the timestamps are its own fields there. */
function elementField(path: string): Field {
  const segments = parseFieldPath(path);
  if (!segments) throw invalidFilter(`"${path.slice(0, 80)}" is not a field path (segments of [A-Za-z_][A-Za-z0-9_]* joined by dots)`);
  return { path: segments };
}

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

/** A compiled filter: a WHERE fragment and its parameters, plus the JSON paths it touches. */
export interface CompiledFilter {
  sql: string;
  params: Param[];
  paths: string[][];
}

type Scalar = string | number | boolean | null;
const OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$all', '$size', '$elemMatch', '$prefix', '$icontains']);
const RANGE = new Map<string, CompareOp>([
  ['$gt', '>'],
  ['$gte', '>='],
  ['$lt', '<'],
  ['$lte', '<='],
]);
const MAX_CLAUSES = 100;
const MAX_LIST = 1000;
const MAX_ARRAY_SIZE = 2_147_483_647;

/**
 * The key of an operand that compares with a field's value itself, never with the elements of an
 * array it holds: what a rule's `$auth` operand becomes (§10: "matches only a scalar equal to
 * it, never an array containing it"; rules/auth-operands.ts). Random per process, so a caller's
 * own filter cannot name it (it would only get a 400 for an object operand); rule filters are
 * resolved and compiled within one process.
 */
export const SCALAR_ONLY = `$scalar.${randomBytes(12).toString('hex')}`;

/** A `{[SCALAR_ONLY]: v}` operand. */
export const isScalarOnly = (v: unknown): v is Record<string, unknown> => isObject(v) && Object.hasOwn(v, SCALAR_ONLY) && Object.keys(v).length === 1;

/** Whether a field's value in a filter is an operator object (`{"$gt": 1}`), else an implicit equality. */
export const isOperatorObject = (v: unknown): v is Record<string, unknown> => isObject(v) && !isScalarOnly(v) && Object.keys(v).some((k) => k.startsWith('$'));

/**
 * The smallest string above every string starting with `p` (code point order, as both stores
 * compare): `p` with its last code point raised by one, after dropping trailing U+10FFFF; none
 * when `p` is only U+10FFFF. So `$prefix` is a range the field's index serves, exactly.
 */
export function prefixUpperBound(p: string): string | undefined {
  const cps = [...p];
  while (cps.length && cps[cps.length - 1] === '\u{10FFFF}') cps.pop();
  if (!cps.length) return undefined;
  let last = cps.pop()!.codePointAt(0)! + 1;
  if (last === 0xd800) last = 0xe000; // no surrogates in stored strings (json/parse.ts)
  return cps.join('') + String.fromCodePoint(last);
}

/**
 * What one filter may cost, in units of one comparison written into its SQL or one array its SQL
 * may open: the filter cost budget. A filter's SQL grows with its cost and nothing else (one test
 * per operator, whatever the number of values a list holds), so this bounds the SQL text (a few
 * hundred bytes a unit), its parameters and the work per document. Everyday filters cost tens of
 * units (a 16-segment path with a list of 900 values: 18); the other limits alone allow about
 * 1,800 (100 clauses on 16-segment paths: 350 KB of SQL). Past it: 400 `invalid_filter`, which
 * names it.
 */
export const FILTER_COST_BUDGET = 1000;

/**
 * Compiles a MongoDB-style filter (§1, §1.1). Throws 400 `invalid_filter` on anything unexpected.
 *
 * Arrays: a condition holds when the value at the path satisfies it, or (§1.1) an element of the
 * array it holds does, or, when the path crosses an array (`items.qty` over `items: [...]`), the
 * value at the rest of the path of one of its elements does (one array level in all: such a
 * value is not opened again). `$ne`/`$nin` are the negations. Where only a missing value matches
 * (`null`), a path that crosses an array is decided by the elements, not by being missing.
 *
 * Size: an operator's test is written at most twice (on the value at the path, which the field's
 * index serves, and once on every value reached through an array, `JsonSql.crossing`), and a list
 * operand (`$in`, `$nin`, `$all`) is one JSON parameter per type of value. So a filter's SQL is
 * bounded by its cost (FILTER_COST_BUDGET), not by the product of its lists and its paths' depth:
 * writing one test per value per path prefix made a 2 KB filter 8 MB of SQL.
 */
export function compileFilter(json: JsonSql, raw: string): CompiledFilter {
  let filter: unknown;
  try {
    filter = JSON.parse(raw);
  } catch {
    throw invalidFilter('filter is not valid JSON');
  }
  const params: Param[] = [];
  const paths: string[][] = [];
  let clauses = 0;
  let aliases = 0;
  let cost = 0;

  const spend = (units: number) => {
    cost += units;
    if (cost > FILTER_COST_BUDGET) {
      throw invalidFilter(
        `the filter is too costly: past the filter cost budget of ${FILTER_COST_BUDGET} (one unit per comparison, one per array a path may open)`,
      );
    }
  };
  const scalar = (v: unknown, op: string): Scalar => {
    if (typeof v === 'string' && !isStorableString(v)) throw invalidFilter(`${op} takes strings without NUL characters or unpaired surrogates`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return v;
    throw invalidFilter(`${op} takes a string, number, boolean or null; objects and arrays are not comparable`);
  };
  /** An operand, and whether it compares with the value itself only (SCALAR_ONLY). */
  const operand = (v: unknown, op: string): { v: Scalar; itself: boolean } =>
    isScalarOnly(v) ? { v: scalar(v[SCALAR_ONLY], op), itself: true } : { v: scalar(v, op), itself: false };
  const string = (v: unknown, op: string): { v: string; itself: boolean } => {
    const o = operand(v, op);
    if (typeof o.v !== 'string') throw invalidFilter(`${op} takes a string`);
    return o as { v: string; itself: boolean };
  };
  const list = (v: unknown, op: string): unknown[] => {
    if (!Array.isArray(v) || v.length > MAX_LIST) throw invalidFilter(`${op} takes a list of at most ${MAX_LIST} values`);
    return v;
  };

  /** A test of one value (no array opened), pushing its parameters when called; each written test costs a unit. */
  type Test = (t: JsonTerm) => string;
  const costs =
    (test: Test): Test =>
    (t) => {
      spend(1);
      return test(t);
    };
  const eqTest = (v: Scalar): Test =>
    costs((t) => {
      if (v === null) return json.isNullishTerm(t);
      params.push(json.param(v));
      return json.compareTerm(t, '=', typeof v as ScalarType);
    });
  const rangeTest = (op: CompareOp, v: Exclude<Scalar, null>): Test =>
    costs((t) => {
      params.push(json.param(v));
      return json.compareTerm(t, op, typeof v as ScalarType);
    });
  const prefixTest = (p: string): Test =>
    costs((t) => {
      const upper = prefixUpperBound(p);
      params.push(p);
      if (upper !== undefined) params.push(upper);
      return json.stringRange(t, upper !== undefined);
    });
  const icontainsTest = (s: string): Test =>
    costs((t) => {
      params.push(s);
      return json.icontains(t);
    });
  /** Equal to one of a list's values: a JSON array parameter per type of value, whatever their number. */
  const inTest = (l: Listed): Test =>
    costs((t) => {
      const parts: string[] = [];
      for (const type of SCALAR_TYPES) {
        if (!l[type].length) continue;
        params.push(JSON.stringify(l[type]));
        parts.push(json.inList(t, type));
      }
      if (l.null) parts.push(json.isNullishTerm(t));
      return or(parts);
    });
  const or = (parts: string[]) => (parts.length === 0 ? '(1 = 0)' : parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`);

  /** Some element of the array at `t` (none when it holds no array) passes `test`. */
  const someElement = (t: JsonTerm, test: Test): string => {
    spend(1);
    const el = json.elements(t, `e${++aliases}`);
    return `EXISTS (SELECT 1 FROM ${el.from} WHERE ${el.where} AND ${test(el.element)})`;
  };

  /**
   * The values at `path` under `scope` pass `test`: the value itself and, when `open`, the elements
   * of an array it holds; or, where the path crosses an array, the values at the rest of the path
   * of each of its elements. At most one of these arrays exists in a document (the first array
   * along the path: past it the path is missing), so they are one set, `crossing`, and `test` is
   * written twice whatever the path's depth. `missing`: whether `test` holds for a missing value
   * (then a crossing path must not count as missing). `holds`: PostgreSQL's containment for an
   * equality to non-null scalars (a JSON scalar, or with `list`, a JSON array of which one is held).
   */
  const anyValue = (
    path: string[],
    scope: JsonTerm | undefined,
    test: Test,
    opts: { open: boolean; missing: boolean; holds?: { json: string; list: boolean } },
  ): string => {
    const t = json.term(path, scope);
    const prefixes = path.slice(1).map((_, k) => json.term(path.slice(0, k + 1), scope));
    const direct = test(t);
    const parts = [opts.missing && prefixes.length ? `(${direct} AND NOT ${or(prefixes.map((p) => json.isArray(p)))})` : direct];
    const crossings = prefixes.map((array, k) => ({ array, rest: path.slice(k + 1) }));
    if (opts.open && json.arrayHolds && opts.holds) {
      params.push(opts.holds.json);
      parts.push(json.arrayHolds(t, opts.holds.list));
    } else if (opts.open) {
      crossings.push({ array: t, rest: [] });
    }
    if (crossings.length) {
      spend(crossings.length);
      const c = json.crossing(crossings, `e${++aliases}`);
      const exists = `EXISTS (SELECT 1 FROM ${c.from} WHERE ${c.where} AND ${test(c.element)})`;
      // One array: guarded outside the subquery, as the field's index serves `isArray` (documents
      // without it skip the subquery). Several: `crossing` guards them (a guard per prefix here
      // would make the SQL grow with the square of the path's depth).
      parts.push(crossings.length === 1 ? `(${json.isArray(crossings[0].array)} AND ${exists})` : exists);
    }
    return or(parts);
  };

  /** Conditions on a system column (a string at the top of the document, never an array). */
  const columnCondition = (column: string, op: string, raw: unknown): string => {
    const cmp = (sqlOp: CompareOp, v: Scalar) => {
      if (typeof v !== 'string') return '(1 = 0)'; // system fields are strings: nothing else can match
      params.push(v);
      return `(${column} ${sqlOp} ?)`;
    };
    spend(1);
    switch (op) {
      case '$eq':
        return cmp('=', operand(raw, op).v);
      case '$ne':
        return `(NOT ${cmp('=', operand(raw, op).v)})`;
      case '$in':
      case '$nin': {
        const strings = list(raw, op)
          .map((v) => operand(v, op).v)
          .filter((v) => typeof v === 'string');
        let any = '(1 = 0)';
        if (strings.length) {
          params.push(JSON.stringify(strings));
          any = `(${column} IN ${json.textList()})`;
        }
        return op === '$in' ? any : `(NOT ${any})`;
      }
      case '$all': {
        // Equal to every value: they must be one string.
        const items = list(raw, op).map((v) => scalar(v, op));
        return items.length && items.every((v) => v === items[0]) ? cmp('=', items[0]) : '(1 = 0)';
      }
      case '$exists':
        if (typeof raw !== 'boolean') throw invalidFilter('$exists takes true or false');
        return raw ? '(1 = 1)' : '(1 = 0)';
      case '$size':
        sizeOperand(raw);
        return '(1 = 0)';
      case '$elemMatch':
        elemMatchForm(raw);
        return '(1 = 0)';
      case '$prefix': {
        const p = string(raw, op).v;
        const upper = prefixUpperBound(p);
        params.push(p);
        if (upper === undefined) return `(${column} >= ?)`;
        params.push(upper);
        return `(${column} >= ? AND ${column} < ?)`;
      }
      case '$icontains': {
        // System fields are ASCII ([A-Za-z0-9_-] ids, ISO timestamps): lower() folds them fully.
        const s = casefold(string(raw, op).v);
        if (s === '') return '(1 = 1)';
        params.push(s);
        return `(length(replace(lower(${column}), ?, '')) < length(${column}))`;
      }
      default: {
        const v = operand(raw, op).v;
        if (v === null) return '(1 = 0)'; // never null, never missing
        return cmp(RANGE.get(op)!, v);
      }
    }
  };

  const sizeOperand = (raw: unknown): number => {
    if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) throw invalidFilter('$size takes a non-negative integer');
    return raw;
  };
  /** `$elemMatch` takes a filter on an element's fields, or operators on the element itself. */
  const elemMatchForm = (raw: unknown): 'operators' | 'fields' => {
    if (!isObject(raw) || Object.keys(raw).length === 0) throw invalidFilter('$elemMatch takes a non-empty object');
    const keys = Object.keys(raw);
    const ops = keys.filter((k) => k.startsWith('$') && k !== '$and' && k !== '$or');
    if (ops.length === 0) return 'fields';
    if (ops.length !== keys.length) throw invalidFilter('$elemMatch takes either operators on the element or a filter on its fields, not both');
    return 'operators';
  };

  /** One operator on a JSON field, at `scope`; `itself`: on the value itself, no array opened (an element). */
  const condition = (path: string[], scope: JsonTerm | undefined, op: string, raw: unknown, depth: number, itself = false): string => {
    const any = (test: Test, missing: boolean, holds?: { json: string; list: boolean }, self = false) =>
      itself || self ? test(json.term(path, scope)) : anyValue(path, scope, test, { open: true, missing, holds });
    const whole = (test: Test) => (itself ? test(json.term(path, scope)) : anyValue(path, scope, test, { open: false, missing: false }));
    const holdsOne = (v: Scalar) => (v === null ? undefined : { json: JSON.stringify(v), list: false });
    switch (op) {
      case '$eq': {
        const o = operand(raw, op);
        return any(eqTest(o.v), o.v === null, holdsOne(o.v), o.itself);
      }
      case '$ne': {
        const o = operand(raw, op);
        return `(NOT ${any(eqTest(o.v), o.v === null, holdsOne(o.v), o.itself)})`;
      }
      case '$in':
      case '$nin': {
        const items = list(raw, op).map((v) => operand(v, op));
        const opened = listed(items.filter((o) => !o.itself).map((o) => o.v));
        const own = listed(items.filter((o) => o.itself).map((o) => o.v));
        const parts: string[] = [];
        if (opened.size) {
          const holds = opened.null ? undefined : { json: JSON.stringify([...opened.number, ...opened.string, ...opened.boolean]), list: true };
          parts.push(any(inTest(opened), opened.null, holds));
        }
        if (own.size) parts.push(any(inTest(own), own.null, undefined, true));
        return op === '$in' ? or(parts) : `(NOT ${or(parts)})`;
      }
      case '$all': {
        const items = list(raw, op).map((v) => scalar(v, op));
        if (!items.length) return '(1 = 0)';
        // No value of the list that the field does not hold: one test, whatever their number.
        const w = `w${++aliases}`;
        params.push(JSON.stringify(items));
        const from = json.listRows(w);
        const held = any(
          costs((t) => json.equalsRow(t, w)),
          true,
        );
        return `(NOT EXISTS (SELECT 1 FROM ${from} WHERE NOT ${held}))`;
      }
      case '$exists': {
        if (typeof raw !== 'boolean') throw invalidFilter('$exists takes true or false');
        const sql = whole(costs((t) => json.existsTerm(t)));
        return raw ? sql : `(NOT ${sql})`;
      }
      case '$size': {
        const n = sizeOperand(raw);
        if (n > MAX_ARRAY_SIZE) return '(1 = 0)'; // no stored array is that long (nor does PostgreSQL's integer reach it)
        return whole(
          costs((t) => {
            params.push(n);
            return json.arraySize(t);
          }),
        );
      }
      case '$elemMatch': {
        if (depth >= 8) throw invalidFilter('filter nests too deeply');
        const form = elemMatchForm(raw);
        const inner = raw as Record<string, unknown>;
        return whole((t) =>
          someElement(t, (e) => {
            if (form === 'fields') return `(${json.isObject(e)} AND ${node(inner, depth + 1, e)})`;
            const parts = Object.entries(inner).map(([o, v]) => {
              if (++clauses > MAX_CLAUSES) throw invalidFilter(`a filter has at most ${MAX_CLAUSES} clauses`);
              if (!OPS.has(o)) throw invalidFilter(`unknown operator ${o}`);
              return condition([], e, o, v, depth + 1, true);
            });
            return `(${parts.join(' AND ')})`;
          }),
        );
      }
      case '$prefix': {
        const o = string(raw, op);
        return any(prefixTest(o.v), false, undefined, o.itself);
      }
      case '$icontains': {
        const o = string(raw, op);
        return any(icontainsTest(o.v), false, undefined, o.itself);
      }
      default: {
        const o = operand(raw, op);
        // MongoDB: $gte/$lte null match null or missing; $gt/$lt null match nothing.
        if (o.v === null) return op === '$gte' || op === '$lte' ? any(eqTest(null), true, undefined, o.itself) : '(1 = 0)';
        return any(rangeTest(RANGE.get(op)!, o.v), false, undefined, o.itself);
      }
    }
  };

  const node = (f: unknown, depth: number, scope?: JsonTerm): string => {
    if (!isObject(f)) throw invalidFilter('a filter is a JSON object');
    if (depth > 8) throw invalidFilter('filter nests too deeply');
    const parts: string[] = [];
    for (const [key, value] of Object.entries(f)) {
      if (++clauses > MAX_CLAUSES) throw invalidFilter(`a filter has at most ${MAX_CLAUSES} clauses`);
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) throw invalidFilter(`${key} takes a non-empty list of filters`);
        parts.push(`(${value.map((v) => node(v, depth + 1, scope)).join(key === '$and' ? ' AND ' : ' OR ')})`);
        continue;
      }
      if (key.startsWith('$')) throw invalidFilter(`unknown operator ${key}`);
      // Inside $elemMatch, `id` and the timestamps are the element's own fields.
      const field: Field = scope === undefined ? parseField(key, invalidFilter) : elementField(key);
      if ('path' in field && scope === undefined) paths.push(field.path);
      const operators = isOperatorObject(value) ? value : { $eq: value };
      for (const [op, raw] of Object.entries(operators)) {
        if (!OPS.has(op)) throw invalidFilter(`unknown operator ${op}`);
        parts.push('column' in field ? columnCondition(field.column, op, raw) : condition(field.path, scope, op, raw, depth));
      }
    }
    return parts.length ? parts.join(' AND ') : '(1 = 1)';
  };

  return { sql: node(filter, 0), params, paths };
}

const SCALAR_TYPES = ['number', 'string', 'boolean'] as const;

/** A list operand's values by the comparison each needs, and whether it holds null. */
interface Listed {
  number: number[];
  string: string[];
  boolean: boolean[];
  null: boolean;
  size: number;
}

function listed(values: Scalar[]): Listed {
  const l: Listed = { number: [], string: [], boolean: [], null: false, size: values.length };
  for (const v of values) {
    if (v === null) l.null = true;
    else if (typeof v === 'number') l.number.push(v);
    else if (typeof v === 'string') l.string.push(v);
    else l.boolean.push(v);
  }
  return l;
}

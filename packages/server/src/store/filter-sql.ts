import { casefold, type Condition, type Filter, type Operand, prefixUpperBound, type Scalar } from '@svc/filter';
import { bound, FALSE, join, raw, type Sql, sql, TRUE } from './sql.ts';
import type { CompareOp, JsonSql, JsonTerm, ScalarType } from './store.ts';

/**
 * A parsed filter (@svc/filter's tree) as a WHERE fragment of a store's dialect: the one place a
 * filter, a read rule included, becomes SQL. Field paths were validated by the parser and every
 * value is a bound parameter, so neither can inject SQL; the dialect's spellings come from
 * `JsonSql` (store/{sqlite,postgres}/json-sql.ts).
 *
 * Arrays (§1.1): a condition holds when the value at the path satisfies it, or an element of the
 * array it holds does, or, when the path crosses an array (`items.qty` over `items: [...]`), the
 * value at the rest of the path of one of its elements does (one array level in all). `$ne`/`$nin`
 * are the negations. Where only a missing value matches (`null`), a path that crosses an array is
 * decided by the elements, not by being missing.
 *
 * Size: an operator's test is written at most twice (on the value at the path, which the field's
 * index serves, and once on every value reached through an array, `JsonSql.crossing`), and a list
 * operand (`$in`, `$nin`, `$all`) is one JSON parameter per type of value. So a filter's SQL is
 * bounded by its cost (filterCost below), not by the product of its lists and its paths' depth.
 */

/** A test of one value (no array opened). */
type Test = (t: JsonTerm) => Sql;
/** PostgreSQL's containment for an equality to non-null scalars: a JSON scalar, or with `list`, a JSON array of which one is held. */
type Holds = { json: string; list: boolean } | undefined;

const RANGE = new Map<string, CompareOp>([
  ['$eq', '='],
  ['$gt', '>'],
  ['$gte', '>='],
  ['$lt', '<'],
  ['$lte', '<='],
]);
/** No stored array is longer (nor does PostgreSQL's integer reach further). */
const MAX_ARRAY_SIZE = 2_147_483_647;
const SCALAR_TYPES = ['number', 'string', 'boolean'] as const;
const SYSTEM_COLUMNS = { id: 'id', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

const or = (parts: Sql[]): Sql => (parts.length === 0 ? FALSE : parts.length === 1 ? parts[0] : sql`(${join(parts, ' OR ')})`);
const not = (s: Sql): Sql => sql`(NOT ${s})`;

/** A list operand's values by the comparison each needs, and whether it holds null. */
function listed(values: Scalar[]) {
  const l = { number: [] as number[], string: [] as string[], boolean: [] as boolean[], null: false, size: values.length };
  for (const v of values) {
    if (v === null) l.null = true;
    else if (typeof v === 'number') l.number.push(v);
    else if (typeof v === 'string') l.string.push(v);
    else l.boolean.push(v);
  }
  return l;
}

export function filterSql(json: JsonSql, filter: Filter): Sql {
  let aliases = 0;

  const eqTest =
    (v: Scalar): Test =>
    (t) =>
      v === null ? raw(json.isNullishTerm(t)) : bound(json.compareTerm(t, '=', typeof v as ScalarType), json.param(v));
  const rangeTest =
    (op: CompareOp, v: Exclude<Scalar, null>): Test =>
    (t) =>
      bound(json.compareTerm(t, op, typeof v as ScalarType), json.param(v));
  const prefixTest =
    (p: string): Test =>
    (t) => {
      const upper = prefixUpperBound(p);
      return upper === undefined ? bound(json.stringRange(t, false), p) : bound(json.stringRange(t, true), p, upper);
    };
  /** Equal to one of a list's values: a JSON array parameter per type of value, whatever their number. */
  const inTest =
    (l: ReturnType<typeof listed>): Test =>
    (t) => {
      const parts = SCALAR_TYPES.filter((type) => l[type].length).map((type) => bound(json.inList(t, type), JSON.stringify(l[type])));
      if (l.null) parts.push(raw(json.isNullishTerm(t)));
      return or(parts);
    };

  /** Some element of the array at `t` (none when it holds no array) passes `test`. */
  const someElement = (t: JsonTerm, test: Test): Sql => {
    const el = json.elements(t, `e${++aliases}`);
    return sql`EXISTS (SELECT 1 FROM ${raw(el.from)} WHERE ${raw(el.where)} AND ${test(el.element)})`;
  };

  /**
   * The values at `path` under `scope` pass `test`: the value itself and, when `open`, the elements
   * of an array it holds; or, where the path crosses an array, the values at the rest of the path
   * of each of its elements. At most one of these arrays exists in a document (the first array
   * along the path: past it the path is missing), so they are one set, `crossing`, and `test` is
   * written twice whatever the path's depth. `missing`: whether `test` holds for a missing value.
   */
  const anyValue = (path: string[], scope: JsonTerm | undefined, test: Test, opts: { open: boolean; missing: boolean; holds?: Holds }): Sql => {
    const t = json.term(path, scope);
    const prefixes = path.slice(1).map((_, k) => json.term(path.slice(0, k + 1), scope));
    const direct = test(t);
    const parts = [opts.missing && prefixes.length ? sql`(${direct} AND NOT ${or(prefixes.map((p) => raw(json.isArray(p))))})` : direct];
    const crossings = prefixes.map((array, k) => ({ array, rest: path.slice(k + 1) }));
    if (opts.open && json.arrayHolds && opts.holds) parts.push(bound(json.arrayHolds(t, opts.holds.list), opts.holds.json));
    else if (opts.open) crossings.push({ array: t, rest: [] });
    if (crossings.length) {
      const c = json.crossing(crossings, `e${++aliases}`);
      const exists = sql`EXISTS (SELECT 1 FROM ${raw(c.from)} WHERE ${raw(c.where)} AND ${test(c.element)})`;
      // One array: guarded outside the subquery, as the field's index serves `isArray`. Several:
      // `crossing` guards them (a guard per prefix here would grow with the square of the depth).
      parts.push(crossings.length === 1 ? sql`(${raw(json.isArray(crossings[0].array))} AND ${exists})` : exists);
    }
    return or(parts);
  };

  /** A condition on a system column (a string at the top of the document, never an array). */
  const columnCondition = (column: string, c: Condition): Sql => {
    const col = raw(column);
    const cmp = (op: CompareOp, v: Scalar): Sql => (typeof v === 'string' ? sql`(${col} ${raw(op)} ${v})` : FALSE);
    switch (c.op) {
      case '$eq':
        return cmp('=', c.operand.value);
      case '$ne':
        return not(cmp('=', c.operand.value));
      case '$in':
      case '$nin': {
        const strings = c.operands.map((o) => o.value).filter((v) => typeof v === 'string');
        const any = strings.length ? sql`(${col} IN ${bound(json.textList(), JSON.stringify(strings))})` : FALSE;
        return c.op === '$in' ? any : not(any);
      }
      case '$all':
        // Equal to every value: they must be one string.
        return c.values.length && c.values.every((v) => v === c.values[0]) ? cmp('=', c.values[0]) : FALSE;
      case '$exists':
        return c.value ? TRUE : FALSE;
      case '$size':
      case '$elemMatch':
      case 'never':
        return FALSE;
      case '$prefix': {
        const p = c.operand.value;
        const upper = prefixUpperBound(p);
        return upper === undefined ? sql`(${col} >= ${p})` : sql`(${col} >= ${p} AND ${col} < ${upper})`;
      }
      case '$icontains': {
        // System fields are ASCII ([A-Za-z0-9_-] ids, ISO timestamps): lower() folds them fully.
        const s = casefold(c.operand.value);
        return s === '' ? TRUE : sql`(length(replace(lower(${col}), ${s}, '')) < length(${col}))`;
      }
      default:
        return c.operand.value === null ? FALSE : cmp(RANGE.get(c.op)!, c.operand.value); // never null, never missing
    }
  };

  /** One condition on a JSON field, at `scope`; `itself`: on the value itself, no array opened (an element). */
  const condition = (path: string[], scope: JsonTerm | undefined, c: Condition, itself: boolean): Sql => {
    const any = (test: Test, missing: boolean, holds?: Holds, self = false) =>
      itself || self ? test(json.term(path, scope)) : anyValue(path, scope, test, { open: true, missing, holds });
    const whole = (test: Test) => (itself ? test(json.term(path, scope)) : anyValue(path, scope, test, { open: false, missing: false }));
    const equal = (o: Operand) =>
      any(eqTest(o.value), o.value === null, o.value === null ? undefined : { json: JSON.stringify(o.value), list: false }, o.itself);
    switch (c.op) {
      case '$eq':
        return equal(c.operand);
      case '$ne':
        return not(equal(c.operand));
      case '$in':
      case '$nin': {
        const opened = listed(c.operands.filter((o) => !o.itself).map((o) => o.value));
        const own = listed(c.operands.filter((o) => o.itself).map((o) => o.value));
        const parts: Sql[] = [];
        if (opened.size) {
          const holds = opened.null ? undefined : { json: JSON.stringify([...opened.number, ...opened.string, ...opened.boolean]), list: true };
          parts.push(any(inTest(opened), opened.null, holds));
        }
        if (own.size) parts.push(any(inTest(own), own.null, undefined, true));
        return c.op === '$in' ? or(parts) : not(or(parts));
      }
      case '$all': {
        if (!c.values.length) return FALSE;
        // No value of the list that the field does not hold: one test, whatever their number.
        const w = `w${++aliases}`;
        const from = bound(json.listRows(w), JSON.stringify(c.values));
        const held = any((t) => raw(json.equalsRow(t, w)), true);
        return sql`(NOT EXISTS (SELECT 1 FROM ${from} WHERE NOT ${held}))`;
      }
      case '$exists': {
        const present = whole((t) => raw(json.existsTerm(t)));
        return c.value ? present : not(present);
      }
      case '$size':
        return c.value > MAX_ARRAY_SIZE ? FALSE : whole((t) => bound(json.arraySize(t), c.value));
      case '$elemMatch': {
        const m = c.match;
        return whole((t) =>
          someElement(t, (e) =>
            m.form === 'fields'
              ? sql`(${raw(json.isObject(e))} AND ${object(m.filter, e)})`
              : sql`(${join(
                  m.conditions.map((k) => condition([], e, k, true)),
                  ' AND ',
                )})`,
          ),
        );
      }
      case '$prefix':
        return any(prefixTest(c.operand.value), false, undefined, c.operand.itself);
      case '$icontains':
        return any((t) => bound(json.icontains(t), c.operand.value), false, undefined, c.operand.itself);
      case 'never':
        return FALSE;
      default: {
        const { value, itself: self } = c.operand;
        // MongoDB: $gte/$lte null match null or missing; $gt/$lt null match nothing.
        if (value === null) return c.op === '$gte' || c.op === '$lte' ? any(eqTest(null), true, undefined, self) : FALSE;
        return any(rangeTest(RANGE.get(c.op)!, value), false, undefined, self);
      }
    }
  };

  /** An object of the filter's JSON form (the AND of its keys), at `scope` (an element, inside `$elemMatch`). */
  const object = (f: Filter, scope?: JsonTerm): Sql => {
    const parts = (f.kind === 'field' ? [f] : f.parts).flatMap((p): Sql[] => {
      if (p.kind !== 'field')
        return [
          sql`(${join(
            p.parts.map((o) => object(o, scope)),
            p.kind === 'and' ? ' AND ' : ' OR ',
          )})`,
        ];
      const field = p.field;
      return p.conditions.map((c) => ('system' in field ? columnCondition(SYSTEM_COLUMNS[field.system], c) : condition(field.path, scope, c, false)));
    });
    return parts.length ? join(parts, ' AND ') : TRUE;
  };

  return object(filter);
}

/**
 * What a filter may cost, in units of one comparison written into its SQL or one array its SQL
 * may open: the filter cost budget. A filter's SQL grows with its cost and nothing else (one test
 * per operator, whatever the number of values a list holds), so this bounds the SQL text (a few
 * hundred bytes a unit), its parameters and the work per document. Everyday filters cost tens of
 * units (a 16-segment path with a list of 900 values: 18); the other limits alone allow about
 * 1,800 (100 clauses on 16-segment paths: 350 KB of SQL). Past it: 400 `invalid_filter`, which
 * names it.
 */
export const FILTER_COST_BUDGET = 1000;

/**
 * The cost of a filter's SQL as filterSql writes it, from the tree alone, so a list and a rule
 * being saved are held to the same figure on every store (PostgreSQL's containment test, which
 * spares it one array, is not discounted).
 */
export function filterCost(filter: Filter): number {
  /** A test written on the values at a path of `n` segments: once, or (opening arrays) twice plus the arrays opened. */
  const spread = (n: number, open: boolean, self: boolean, test: number) => {
    if (self) return test;
    const arrays = n - 1 + (open ? 1 : 0);
    return arrays ? 2 * test + arrays : test;
  };
  const condition = (n: number, c: Condition, itself: boolean): number => {
    const any = (self = false, test = 1) => spread(n, true, itself || self, test);
    const whole = (test = 1) => spread(n, false, itself, test);
    switch (c.op) {
      case '$eq':
      case '$ne':
        return any(c.operand.itself);
      case '$in':
      case '$nin':
        return (c.operands.some((o) => !o.itself) ? any() : 0) + (c.operands.some((o) => o.itself) ? any(true) : 0);
      case '$all':
        return c.values.length ? any() : 0;
      case '$exists':
        return whole();
      case '$size':
        return c.value > MAX_ARRAY_SIZE ? 0 : whole();
      case '$elemMatch': {
        const m = c.match;
        const inner = m.form === 'fields' ? object(m.filter) : m.conditions.reduce((sum, k) => sum + condition(0, k, true), 0);
        return whole(1 + inner);
      }
      case '$prefix':
      case '$icontains':
        return any(c.operand.itself);
      case 'never':
        return 0;
      default:
        return c.operand.value === null && (c.op === '$gt' || c.op === '$lt') ? 0 : any(c.operand.itself);
    }
  };
  const object = (f: Filter): number => {
    if (f.kind !== 'field') return f.parts.reduce((sum, p) => sum + object(p), 0);
    const field = f.field;
    return f.conditions.reduce((sum, c) => sum + ('system' in field ? 1 : condition(field.path.length, c, false)), 0);
  };
  return object(filter);
}

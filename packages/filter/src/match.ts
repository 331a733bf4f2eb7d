import { casefold, compareCodePoints } from './text.js';
import type { Condition, FieldRef, Filter, Operand, RangeOp, Scalar } from './tree.js';

/**
 * The §1 filter language in memory: whether a document meets a parsed filter. It agrees exactly
 * with the list SQL of both of the server's stores (its property test compares the two on random
 * documents and filters). What that SQL does:
 * - a path descends through objects; where it crosses an array (`items.qty` over `items: [...]`)
 *   it reaches the value at the rest of the path of each element, through objects only (one array
 *   level); through a string or a missing field it finds nothing;
 * - equality, `$in`, ranges, `$prefix` and `$icontains` hold when a value reached holds them, or,
 *   for an array reached, one of its elements (§1.1); `$exists`, `$size` and `$elemMatch` look at
 *   the values reached, arrays whole; `$all` is the AND of equalities;
 * - equality and ranges hold only between values of the operand's type (numbers numerically,
 *   strings by code point, false < true); an object or array equals nothing;
 * - an operand marked `itself` (a rule's `$auth`) compares with the value itself, never with an
 *   array's elements (§10);
 * - `null` as an operand stands for "missing or null"; `$gt`/`$lt` null match nothing, `$gte`/`$lte`
 *   null are `{"f": null}`;
 * - `$ne`/`$nin` are the negations of `$eq`/`$in`, so they match a missing field;
 * - `$exists` is true for a present field, JSON null included;
 * - system fields (`id`, `createdAt`, `updatedAt`) are strings at the top of the document.
 */

/** A document as the API shows it: its fields with `id`, `createdAt` and `updatedAt` beside them. */
export type Document = Record<string, unknown>;

const MISSING: unique symbol = Symbol('missing');
type Stored = unknown;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The value at a path, descending through objects only (own fields: `constructor` is data). */
export function valueAt(doc: unknown, path: readonly string[]): Stored {
  let v: unknown = doc;
  for (const segment of path) {
    if (!isObject(v) || !Object.hasOwn(v, segment)) return MISSING;
    v = v[segment];
  }
  return v;
}

/** Whether valueAt found nothing. */
export const isMissing = (v: unknown): boolean => v === MISSING;

/**
 * Where a path leads (§1.1): the value at it (MISSING when absent), or, when the path crosses an
 * array, the values at the rest of the path of each element, through objects only.
 */
type Reached = { crossed: false; value: Stored } | { crossed: true; values: Stored[] };
function reach(doc: unknown, path: readonly string[]): Reached {
  let v: unknown = doc;
  for (let i = 0; i < path.length; i++) {
    if (i > 0 && Array.isArray(v)) return { crossed: true, values: v.map((e) => valueAt(e, path.slice(i))) };
    if (!isObject(v) || !Object.hasOwn(v, path[i])) return { crossed: false, value: MISSING };
    v = v[path[i]];
  }
  return { crossed: false, value: v };
}

/** The values a comparison is tried on: those reached, with an array's elements in place of the array. */
const candidates = (r: Reached): Stored[] => (r.crossed ? r.values : Array.isArray(r.value) ? r.value : [r.value]);
/** The values `$exists`, `$size` and `$elemMatch` look at: those reached, arrays whole. */
const wholes = (r: Reached): Stored[] => (r.crossed ? r.values : [r.value]);
/** The value itself: missing where the path crosses an array. */
const itself = (r: Reached): Stored => (r.crossed ? MISSING : r.value);

/** `v op operand` when both are of the operand's type; false for any other stored value. */
function compareWith(v: Stored, op: RangeOp | '$eq', operand: Exclude<Scalar, null>): boolean {
  if (typeof v !== typeof operand) return false;
  if (op === '$eq') return v === operand;
  const c = typeof operand === 'string' ? compareCodePoints(v as string, operand) : (v as number) - (operand as number);
  switch (op) {
    case '$gt':
      return c > 0;
    case '$gte':
      return c >= 0;
    case '$lt':
      return c < 0;
    case '$lte':
      return c <= 0;
  }
}

const isNullish = (v: Stored) => v === MISSING || v === null;
const equals = (v: Stored, x: Scalar): boolean => (x === null ? isNullish(v) : compareWith(v, '$eq', x));

/** Some value of the field passes `test`: its candidates, or the value itself for an `itself` operand (or on an element). */
const holds = (r: Reached, self: boolean, test: (c: Stored) => boolean): boolean => (self ? test(itself(r)) : candidates(r).some(test));

/** One condition on where a path leads; `onItself` for `$elemMatch`'s operators on an element. */
function condition(c: Condition, r: Reached, onItself: boolean): boolean {
  const eq = (o: Operand) => holds(r, o.itself || onItself, (v) => equals(v, o.value));
  const whole = (fn: (v: Stored) => boolean) => (onItself ? fn(itself(r)) : wholes(r).some(fn));
  switch (c.op) {
    case '$eq':
      return eq(c.operand);
    case '$ne':
      return !eq(c.operand);
    case '$in':
      return c.operands.some(eq);
    case '$nin':
      return !c.operands.some(eq);
    case '$all':
      return c.values.length > 0 && c.values.every((x) => holds(r, onItself, (v) => equals(v, x)));
    case '$exists':
      return whole((v) => v !== MISSING) === c.value;
    case '$size':
      return whole((v) => Array.isArray(v) && v.length === c.value);
    case '$elemMatch': {
      const m = c.match;
      const onElement =
        m.form === 'fields'
          ? (e: unknown) => isObject(e) && matches(m.filter, e)
          : (e: unknown) => m.conditions.every((k) => condition(k, { crossed: false, value: e }, true));
      return whole((v) => Array.isArray(v) && v.some(onElement));
    }
    case '$prefix': {
      const p = c.operand.value;
      return holds(r, c.operand.itself || onItself, (v) => typeof v === 'string' && v.startsWith(p));
    }
    case '$icontains': {
      const needle = casefold(c.operand.value);
      return holds(r, c.operand.itself || onItself, (v) => typeof v === 'string' && casefold(v).includes(needle));
    }
    case 'never':
      return false;
    default: {
      const { value, itself: self } = c.operand;
      // MongoDB: $gte/$lte null match null or missing; $gt/$lt null match nothing.
      if (value === null) return (c.op === '$gte' || c.op === '$lte') && holds(r, self || onItself, isNullish);
      return holds(r, self || onItself, (v) => compareWith(v, c.op as RangeOp, value));
    }
  }
}

const pathOf = (field: FieldRef): string[] => ('path' in field ? field.path : [field.system]);

/**
 * Whether `doc` meets `filter` (a tree from parseFilter).
 *
 * @example
 *   matches(parseFilter({ status: 'open', score: { $gte: 10 } }), { id: 'a', status: 'open', score: 12 }); // true
 */
export function matches(filter: Filter, doc: Document | unknown): boolean {
  switch (filter.kind) {
    case 'and':
      return filter.parts.every((f) => matches(f, doc));
    case 'or':
      return filter.parts.some((f) => matches(f, doc));
    case 'field': {
      const r = reach(doc, pathOf(filter.field));
      return filter.conditions.every((c) => condition(c, r, false));
    }
  }
}

/** A predicate for Array.prototype.filter and the like. */
export const matcher =
  (filter: Filter) =>
  (doc: Document | unknown): boolean =>
    matches(filter, doc);

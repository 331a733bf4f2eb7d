import { ApiError } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { checkFilter } from './validate.ts';
import { isOperatorObject, isScalarOnly, SCALAR_ONLY } from '../documents/query.ts';
import { casefold } from '../json/casefold.ts';

/**
 * The §1 filter language in memory, for the checks that have a document in hand (create and
 * update checks, realtime fan-out). It must agree exactly with the list SQL of both stores
 * (documents/query.ts with store/{sqlite,postgres}/json-sql.ts); test/rules/property.test.ts
 * compares the two on random documents and filters. What that SQL does:
 * - a path descends through objects; where it crosses an array (`items.qty` over `items: [...]`)
 *   it reaches the value at the rest of the path of each element, through objects only (one array
 *   level); through a string or a missing field it finds nothing;
 * - equality, `$in`, ranges, `$prefix` and `$icontains` hold when a value reached holds them, or,
 *   for an array reached, one of its elements (§1.1); `$exists`, `$size` and `$elemMatch` look at
 *   the values reached, arrays whole; `$all` is the AND of equalities;
 * - equality and ranges hold only between values of the operand's type (numbers numerically,
 *   strings by code point, false < true); an object or array equals nothing;
 * - a rule's `$auth` operand (a SCALAR_ONLY wrapper once resolved) compares with the value itself,
 *   never with an array's elements (§10);
 * - `null` as an operand stands for "missing or null"; `$gt`/`$lt` null match nothing, `$gte`/`$lte`
 *   null are `{"f": null}`;
 * - `$ne`/`$nin` are the negations of `$eq`/`$in`, so they match a missing field;
 * - `$exists` is true for a present field, JSON null included;
 * - system fields (`id`, `createdAt`, `updatedAt`) are strings at the top of the document.
 */

/** A document as the API shows it: the user's fields with `id`, `createdAt` and `updatedAt` beside them. */
export type Document = JsonObject;
/** A compiled filter. */
export type Matcher = (doc: Document) => boolean;

const MISSING: unique symbol = Symbol('missing');
type Stored = unknown;

/** The value at a dotted path, descending through objects only (own fields: `constructor` is data). */
function valueAt(doc: unknown, path: string[]): Stored {
  let v: unknown = doc;
  for (const segment of path) {
    if (!isObject(v) || !Object.hasOwn(v, segment)) return MISSING;
    v = v[segment];
  }
  return v;
}

/**
 * Where a path leads (§1.1): the value at it (MISSING when absent), or, when the path crosses an
 * array (`items.qty` over `items: [...]`), the values at the rest of the path of each element,
 * through objects only: one array level in all.
 */
type Reached = { crossed: false; value: Stored } | { crossed: true; values: Stored[] };
function reach(doc: unknown, path: string[]): Reached {
  let v: unknown = doc;
  for (let i = 0; i < path.length; i++) {
    if (i > 0 && Array.isArray(v)) return { crossed: true, values: v.map((e) => valueAt(e, path.slice(i))) };
    if (!isObject(v) || !Object.hasOwn(v, path[i])) return { crossed: false, value: MISSING };
    v = v[path[i]];
  }
  return { crossed: false, value: v };
}

/** The values a comparison is tried on: those reached, with an array's elements in place of the array. */
function candidates(r: Reached): Stored[] {
  if (r.crossed) return r.values;
  return Array.isArray(r.value) ? r.value : [r.value];
}
/** The values `$exists`, `$size` and `$elemMatch` look at: those reached, arrays whole. */
const wholes = (r: Reached): Stored[] => (r.crossed ? r.values : [r.value]);
/** The value itself, for an operand that compares with it only (SCALAR_ONLY): missing where the path crosses an array. */
const itself = (r: Reached): Stored => (r.crossed ? MISSING : r.value);

/**
 * Orders two strings by code point, as SQLite (bytes of UTF-8) and PostgreSQL (COLLATE "C") do.
 * JavaScript's `<` compares UTF-16 units, which puts U+E000..U+FFFF after the surrogates of
 * U+10000 and above; shifting the units at the first difference restores code point order
 * (the fix-up ICU's u_strCompare uses). Stored strings hold no unpaired surrogates (json/parse.ts).
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixUp(x) - fixUp(y);
  }
  return a.length - b.length;
}
const fixUp = (u: number) => (u >= 0xd800 ? (u >= 0xe000 ? u - 0x800 : u + 0x2000) : u);

type Scalar = string | number | boolean;
type Range = '$gt' | '$gte' | '$lt' | '$lte';

/** `v op operand` when both are of the operand's type; false for any other stored value. */
function compare(v: Stored, op: Range | '$eq', operand: Scalar): boolean {
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

/** `{"f": x}` / `$eq: x` on one candidate. */
const equals = (v: Stored, x: unknown): boolean => (x === null ? isNullish(v) : compare(v, '$eq', x as Scalar));

/** A test of one value, and whether its operand compares with the field's value itself only. */
interface Test {
  test: (c: Stored) => boolean;
  self: boolean;
}
/** An operand that may be a SCALAR_ONLY wrapper: its scalar, and whether it was wrapped. */
const unwrap = (x: unknown): { v: unknown; self: boolean } => (isScalarOnly(x) ? { v: x[SCALAR_ONLY], self: true } : { v: x, self: false });

/** Some value of the field passes: its candidates, or the value itself for a wrapped operand. */
const holds = (r: Reached, t: Test): boolean => (t.self ? t.test(itself(r)) : candidates(r).some(t.test));

/** One operator on a field: a predicate of where its path leads; `onItself` for `$elemMatch`'s operators on an element. */
function condition(op: string, raw: unknown, onItself = false): (r: Reached) => boolean {
  const test = (x: unknown, fn: (v: unknown) => (c: Stored) => boolean): Test => {
    const { v, self } = unwrap(x);
    return { test: fn(v), self: self || onItself };
  };
  const eq = (v: unknown) => (c: Stored) => equals(c, v);
  const whole = (fn: (c: Stored) => boolean) => (onItself ? (r: Reached) => fn(itself(r)) : (r: Reached) => wholes(r).some(fn));
  switch (op) {
    case '$eq': {
      const t = test(raw, eq);
      return (r) => holds(r, t);
    }
    case '$ne': {
      const t = test(raw, eq);
      return (r) => !holds(r, t);
    }
    case '$in':
    case '$nin': {
      const tests = (raw as unknown[]).map((x) => test(x, eq));
      return op === '$in' ? (r) => tests.some((t) => holds(r, t)) : (r) => !tests.some((t) => holds(r, t));
    }
    case '$all': {
      const tests = (raw as unknown[]).map((x) => test(x, eq));
      return (r) => tests.length > 0 && tests.every((t) => holds(r, t));
    }
    case '$exists': {
      const present = whole((c) => c !== MISSING);
      return (r) => present(r) === raw;
    }
    case '$size':
      return whole((c) => Array.isArray(c) && c.length === raw);
    case '$elemMatch': {
      const inner = raw as JsonObject;
      const fields = !Object.keys(inner).some((k) => k.startsWith('$') && k !== '$and' && k !== '$or');
      let onElement: (e: unknown) => boolean;
      if (fields) {
        const m = node(inner);
        onElement = (e) => isObject(e) && m(e);
      } else {
        const ops = Object.entries(inner).map(([o, x]) => condition(o, x, true));
        onElement = (e) => ops.every((c) => c({ crossed: false, value: e }));
      }
      return whole((c) => Array.isArray(c) && c.some(onElement));
    }
    case '$prefix': {
      const t = test(raw, (p) => (c) => typeof c === 'string' && c.startsWith(p as string));
      return (r) => holds(r, t);
    }
    case '$icontains': {
      const t = test(raw, (s) => {
        const needle = casefold(s as string);
        return (c) => typeof c === 'string' && casefold(c).includes(needle);
      });
      return (r) => holds(r, t);
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      // MongoDB: $gte/$lte null match null or missing; $gt/$lt null match nothing.
      const t = test(raw, (v) => (v === null ? (op === '$gte' || op === '$lte' ? isNullish : () => false) : (c) => compare(c, op, v as Scalar)));
      return (r) => holds(r, t);
    }
    default:
      throw new ApiError('invalid_filter', `unknown operator ${op}`);
  }
}

/** Compiles a filter node: the AND of its keys (`$and`, `$or`, or field conditions). */
function node(filter: JsonObject): Matcher {
  const parts: Matcher[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      const subs = (value as JsonObject[]).map(node);
      parts.push(key === '$and' ? (d) => subs.every((m) => m(d)) : (d) => subs.some((m) => m(d)));
      continue;
    }
    const path = key.split('.');
    const operators = isOperatorObject(value) ? value : { $eq: value };
    const tests = Object.entries(operators).map(([op, operand]) => condition(op, operand));
    parts.push((d) => {
      const r = reach(d, path);
      return tests.every((t) => t(r));
    });
  }
  return (d) => parts.every((m) => m(d));
}

/**
 * Compiles a §1 filter (an object, as parsed) into a predicate over documents. The filter is
 * first checked by the list compiler, so anything a list would refuse throws the same 400
 * `invalid_filter` here.
 *
 * @example
 *   const open = compileMatcher({ status: 'open', score: { $gte: 10 } });
 *   open({ id: 'a', status: 'open', score: 12, createdAt: '…', updatedAt: '…' }); // true
 */
export function compileMatcher(filter: JsonObject): Matcher {
  checkFilter(filter);
  return node(filter);
}

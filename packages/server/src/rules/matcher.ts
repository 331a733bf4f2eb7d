import { ApiError } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { checkFilter } from './validate.ts';

/**
 * The §1 filter language in memory, for the checks that have a document in hand (create and
 * update checks, realtime fan-out). It must agree exactly with the list SQL of both stores
 * (documents/query.ts with store/{sqlite,postgres}/json-sql.ts); test/rules/property.test.ts
 * compares the two on random documents and filters. What that SQL does today:
 * - a path descends through objects only: through an array, a string or a missing field it finds
 *   nothing (SQLite `$.a.b`, PostgreSQL `#>` with a non-numeric key);
 * - equality and ranges hold only between values of the operand's type (numbers numerically,
 *   strings by code point, false < true); an object or array equals nothing, not even inside;
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
function valueAt(doc: Document, path: string[]): Stored {
  let v: unknown = doc;
  for (const segment of path) {
    if (!isObject(v) || !Object.hasOwn(v, segment)) return MISSING;
    v = v[segment];
  }
  return v;
}

/**
 * The values a comparison is tried on, for one stored value: today just that value, as the SQL
 * compares the field itself. MongoDB's array semantics (§1.1) will add, for an array, each of its
 * elements here; `$ne`/`$nin`, defined below as "no candidate equals", then follow on their own.
 */
function candidates(v: Stored): Stored[] {
  return [v];
}

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

/** Some candidate of the stored value satisfies `test`. */
const anyCandidate = (v: Stored, test: (c: Stored) => boolean) => candidates(v).some(test);

/** One operator on a field's stored value. */
function condition(op: string, operand: unknown): (v: Stored) => boolean {
  switch (op) {
    case '$eq':
      return (v) => anyCandidate(v, (c) => equals(c, operand));
    case '$ne':
      return (v) => !anyCandidate(v, (c) => equals(c, operand));
    case '$in': {
      const list = operand as unknown[];
      return (v) => anyCandidate(v, (c) => list.some((x) => equals(c, x)));
    }
    case '$nin': {
      const list = operand as unknown[];
      return (v) => !anyCandidate(v, (c) => list.some((x) => equals(c, x)));
    }
    case '$exists':
      return (v) => (v !== MISSING) === operand;
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      // MongoDB: $gte/$lte null match null or missing; $gt/$lt null match nothing.
      if (operand === null) return op === '$gte' || op === '$lte' ? (v) => isNullish(v) : () => false;
      return (v) => anyCandidate(v, (c) => compare(c, op, operand as Scalar));
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
    // The compiler's own test for an operator object (documents/query.ts).
    const operators = isObject(value) && Object.keys(value).some((k) => k.startsWith('$')) ? value : { $eq: value };
    const tests = Object.entries(operators).map(([op, operand]) => condition(op, operand));
    parts.push((d) => {
      const v = valueAt(d, path);
      return tests.every((t) => t(v));
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

import { isMissing, valueAt, type Document } from './match.js';
import { compareCodePoints } from './text.js';
import type { Sort } from './tree.js';

/**
 * §1's sort order, in memory: values order the same way on every store, missing/null < numbers
 * (numeric) < strings (by code point) < booleans (false < true) < objects and arrays (which tie
 * among themselves); ties break by `id` in the sort's direction. A sort path reads through objects
 * only (it never opens an array).
 */

/** The class of a value in §1's cross-type order. */
function rank(v: unknown): number {
  if (v === null || isMissing(v)) return 0;
  switch (typeof v) {
    case 'number':
      return 1;
    case 'string':
      return 2;
    case 'boolean':
      return 3;
    default:
      return 4;
  }
}

/** Two values in §1's order, ascending: negative when `a` comes first, 0 when they tie. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 1:
      return Math.sign((a as number) - (b as number));
    case 2:
      return Math.sign(compareCodePoints(a as string, b as string));
    case 3:
      return Number(a) - Number(b);
    default:
      return 0;
  }
}

/**
 * Two documents in a list's order (a sort from parseSort): negative when `a` comes first. For
 * Array.prototype.sort.
 *
 * @example
 *   docs.sort((a, b) => compare(parseSort('score', 'desc'), a, b));
 */
export function compare(sort: Sort, a: Document, b: Document): number {
  const path = 'path' in sort.field ? sort.field.path : [sort.field.system];
  const c = compareValues(valueAt(a, path), valueAt(b, path)) || compareValues(a.id, b.id);
  return sort.desc ? -c : c;
}

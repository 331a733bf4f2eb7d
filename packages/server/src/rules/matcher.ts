import { type Document, matcher } from '@svc/filter';
import type { JsonObject } from '../json/merge-patch.ts';
import { parseChecked } from '../documents/query.ts';

/**
 * The §1 filter language in memory, for the checks that have a document in hand (create and
 * update checks, realtime fan-out): @svc/filter's matcher, which agrees exactly with the list SQL
 * of both stores (test/rules/property.test.ts holds it to them on random documents and filters).
 */

export type { Document };
/** A compiled filter. */
export type Matcher = (doc: Document) => boolean;

export { compareCodePoints } from '@svc/filter';

/**
 * Compiles a §1 filter (an object, as parsed; a resolved rule's `$auth` operands included) into a
 * predicate over documents. Anything a list would refuse throws the same 400 `invalid_filter`.
 *
 * @example
 *   const open = compileMatcher({ status: 'open', score: { $gte: 10 } });
 *   open({ id: 'a', status: 'open', score: 12, createdAt: '…', updatedAt: '…' }); // true
 */
export function compileMatcher(filter: JsonObject): Matcher {
  return matcher(parseChecked(filter));
}

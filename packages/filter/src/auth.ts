import type { Scalar } from './tree.js';

/**
 * `{"$auth": …}` operands of a rule's filter (API.md §10), found where the language takes an
 * operand: an implicit equality's value, the operand of `$eq $ne $gt $gte $lt $lte $prefix
 * $icontains`, and an item of a `$in`/`$nin`/`$all` list. Anywhere else such an object is left in
 * place, and the parser refuses it as it refuses any object operand.
 *
 * A comparison with a `$auth` operand matches only a scalar equal to it, never an array holding it
 * (§10): its value becomes an `Itself`, which the parser turns into an operand with `itself` set.
 * In `$all`, the way to write membership, it stays a plain value. `Itself` is a class: JSON can
 * never produce one, so a caller's filter cannot forge it.
 */

/** What a `$auth` operand stands for: a scalar, or NEVER when the comparison cannot hold. */
export const NEVER: unique symbol = Symbol('never');
export type Substitute = (authField: unknown) => Scalar | typeof NEVER;

/** A resolved `$auth` operand (see above). */
export class Itself {
  constructor(readonly value: unknown) {}
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `v` is a `$auth` operand: an object whose only key is `$auth`. */
export function isAuthOperand(v: unknown): v is { $auth: unknown } {
  return isObject(v) && Object.hasOwn(v, '$auth') && Object.keys(v).length === 1;
}

/**
 * The fields every `$auth` operand anywhere in `rule` names, in a fixed order: what a resolved
 * rule depends on besides the rule itself. Searches the whole value, so it never names fewer than
 * resolveAuthOperands reads.
 */
export function authFields(rule: unknown): unknown[] {
  const fields: unknown[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (isAuthOperand(v)) fields.push(v.$auth);
    else if (isObject(v)) Object.values(v).forEach(visit);
  };
  visit(rule);
  return fields;
}

/** Operators whose `$auth` operand compares with the field's value itself (any other gets the plain value, for the parser to judge). */
const COMPARISONS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$prefix', '$icontains']);
/** The filter that matches nothing: `$in: []`, which the language already has. */
const neverTrue = () => ({ $in: [] });

/**
 * A copy of `filter` with every `$auth` operand replaced by what `substitute` gives. A comparison
 * whose operand is NEVER becomes false, `$ne` and `$nin` included (§10): its whole field clause
 * (operators on one field are ANDed) becomes the never-true filter, except inside `$in`, an OR of
 * equalities, where only that item is dropped. Objects are rebuilt with Object.fromEntries, which
 * defines own properties, so a field named `__proto__` stays a field. What is not a well-formed
 * filter is copied for the parser to refuse.
 */
export function resolveAuthOperands(filter: unknown, substitute: Substitute): unknown {
  const node = (f: unknown): unknown => {
    if (!isObject(f)) return f;
    return Object.fromEntries(
      Object.entries(f).map(([key, value]) => {
        if ((key === '$and' || key === '$or') && Array.isArray(value)) return [key, value.map(node)];
        return [key, key.startsWith('$') ? value : field(value)];
      }),
    );
  };

  const field = (value: unknown): unknown => {
    if (isAuthOperand(value)) {
      const v = substitute(value.$auth);
      return v === NEVER ? neverTrue() : new Itself(v);
    }
    // The parser's own test for an operator object (parse.ts).
    if (!isObject(value) || !Object.keys(value).some((k) => k.startsWith('$'))) return value;
    const operators: Array<[string, unknown]> = [];
    for (const [op, operand] of Object.entries(value)) {
      if ((op === '$in' || op === '$nin' || op === '$all') && Array.isArray(operand)) {
        const list: unknown[] = [];
        for (const item of operand) {
          if (!isAuthOperand(item)) list.push(item);
          else {
            const v = substitute(item.$auth);
            if (v !== NEVER) list.push(op === '$all' ? v : new Itself(v));
            else if (op !== '$in') return neverTrue();
          }
        }
        operators.push([op, list]);
      } else if (isAuthOperand(operand)) {
        const v = substitute(operand.$auth);
        if (v === NEVER) return neverTrue();
        operators.push([op, COMPARISONS.has(op) ? new Itself(v) : v]);
      } else {
        operators.push([op, operand]);
      }
    }
    return Object.fromEntries(operators);
  };

  return node(filter);
}

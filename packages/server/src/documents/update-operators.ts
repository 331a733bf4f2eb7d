import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { compareCodePoints, compileMatcher } from '../rules/matcher.ts';
import { checkFields } from './fields.ts';

/**
 * Update documents (API.md §1.2): `{"$inc": {"likes": 1}, "$push": {"tags": "new"}}`, applied by
 * the service to the row it locked, inside the write's transaction, so concurrent updates of one
 * document never lose each other's work.
 *
 * Hand-written: the MongoDB-style libraries (mingo's update operators, sift) accept more than
 * §1.2 does (positional paths, `$each` modifiers, array indexes) and answer none of its error
 * cases (which 400, which 409, nothing written); the whole of §1.2's table is short.
 */

const OPERATORS = ['$set', '$unset', '$inc', '$min', '$max', '$push', '$addToSet', '$pull', '$currentDate'] as const;
type Operator = (typeof OPERATORS)[number];

/** One operator on one field path, its operand checked. */
interface Step {
  op: Operator;
  path: string[];
  /** $push / $addToSet: the values to append; $pull: the test of an element; else the operand. */
  operand: unknown;
}

/** A parsed update document: its steps, in the order the body gave them. */
export interface Update {
  steps: Step[];
}

const SYSTEM = new Set(['id', 'createdAt', 'updatedAt']);

const invalid = (message: string, path = '/') => new ApiError('invalid_update', message, [{ path, message }]);
const conflict = (path: string[], why: string) => new ApiError('conflict', `Cannot apply the update at '${path.join('.')}': ${why}; nothing was written`);

/**
 * The update document a PATCH body is, or undefined for a merge patch: a body with at least one
 * key, all of whose top-level keys start with `$`. A mix of `$` keys and plain keys is 400.
 */
export function parseUpdate(body: JsonObject): Update | undefined {
  const keys = Object.keys(body);
  const dollar = keys.filter((k) => k.startsWith('$'));
  if (dollar.length === 0) return undefined;
  if (dollar.length !== keys.length) throw invalid('An update document has only operators ($set, $inc, …) at its top; send plain fields inside $set');
  const steps: Step[] = [];
  for (const op of keys) {
    if (!(OPERATORS as readonly string[]).includes(op)) throw invalid(`Unknown update operator '${op.slice(0, 40)}' (${OPERATORS.join(', ')})`, `/${op}`);
    const fields = body[op];
    if (!isObject(fields) || Object.keys(fields).length === 0) throw invalid(`${op} takes a non-empty object of field paths`, `/${op}`);
    for (const [key, operand] of Object.entries(fields))
      steps.push({ op: op as Operator, path: parsePath(key, op), operand: checkOperand(op as Operator, operand, `/${op}/${key}`) });
  }
  refuseOverlaps(steps);
  return { steps };
}

/** A field path of an operator: segments of the document's own fields, never a system field. */
function parsePath(key: string, op: string): string[] {
  const at = `/${op}/${key}`;
  if (key.startsWith('$')) throw invalid(`The path '${key.slice(0, 80)}' starts with '$'`, at);
  const path = key.split('.');
  for (const segment of path) {
    if (segment === '') throw invalid(`The path '${key.slice(0, 80)}' has an empty segment`, at);
    if (segment === '__proto__')
      throw new ApiError('invalid_field_name', `${at}: the field name "__proto__" is not allowed`, [
        { path: at, message: 'the field name "__proto__" is not allowed' },
      ]);
    if (segment.startsWith('$'))
      throw new ApiError('invalid_field_name', `${at}: a field name may not start with "$"`, [{ path: at, message: 'a field name may not start with "$"' }]);
  }
  if (SYSTEM.has(path[0])) throw invalid(`'${path[0]}' is a system field: the service sets it`, at);
  return path;
}

/** Two paths where one is the other or a prefix of it (`a` and `a.b`) would make the result depend on their order. */
function refuseOverlaps(steps: Step[]): void {
  const joined = steps.map((s) => s.path.join('.'));
  for (let i = 0; i < joined.length; i++) {
    for (let j = 0; j < joined.length; j++) {
      if (i !== j && (joined[i] === joined[j] ? i < j : joined[j].startsWith(`${joined[i]}.`))) {
        throw invalid(`The paths '${joined[i]}' and '${joined[j]}' overlap: name each field once`);
      }
    }
  }
}

const isScalar = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Checks an operand's type; returns what the step keeps. */
function checkOperand(op: Operator, operand: unknown, at: string): unknown {
  switch (op) {
    case '$set':
      checkFields(operand, at);
      return operand;
    case '$unset':
    case '$currentDate':
      if (operand !== true) throw invalid(`${op} takes true for each path`, at);
      return true;
    case '$inc':
      if (typeof operand !== 'number' || !Number.isFinite(operand)) throw invalid('$inc takes a finite number', at);
      return operand;
    case '$min':
    case '$max':
      if (!isScalar(operand)) throw invalid(`${op} takes a scalar (a string, number, boolean or null)`, at);
      return operand;
    case '$push':
    case '$addToSet': {
      const each = eachOf(operand, op, at);
      checkFields(each, at);
      return each;
    }
    case '$pull':
      return pullTest(operand, at);
  }
}

/** `{"$each": [values]}` as its values; any other value as the one value. */
function eachOf(operand: unknown, op: string, at: string): unknown[] {
  if (!isObject(operand) || !Object.keys(operand).some((k) => k.startsWith('$'))) return [operand];
  if (Object.keys(operand).length !== 1 || !Array.isArray(operand.$each)) throw invalid(`${op} takes a value or {"$each": [values]}`, at);
  return operand.$each;
}

/** $pull's test of an element: equality to a scalar, or a condition as `$elemMatch` reads it (§1.1). */
function pullTest(operand: unknown, at: string): (element: unknown) => boolean {
  if (isScalar(operand)) return (element) => element === operand;
  if (!isObject(operand) || Object.keys(operand).length === 0) throw invalid('$pull takes a scalar or a non-empty condition object', at);
  const keys = Object.keys(operand);
  const operators = keys.filter((k) => k.startsWith('$')).length;
  if (operators !== 0 && operators !== keys.length) throw invalid('A $pull condition holds only operators ({"$gt": 5}) or only paths ({"sku": "a"})', at);
  try {
    const matches = compileMatcher({ v: { $elemMatch: operand } });
    return (element) => matches({ v: [element] });
  } catch (e) {
    throw invalid(`The $pull condition is not valid: ${e instanceof Error ? e.message : String(e)}`, at);
  }
}

/** Sets an own property (never through a prototype: `constructor` is data). */
const put = (o: JsonObject, key: string, value: unknown) => Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
const own = (o: JsonObject, key: string) => (Object.hasOwn(o, key) ? o[key] : undefined);

/** §1's order of classes: missing/null < numbers < strings < booleans < objects and arrays. */
const classOf = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'number' ? 1 : typeof v === 'string' ? 2 : typeof v === 'boolean' ? 3 : 4);
function compare(a: unknown, b: unknown): number {
  const ca = classOf(a);
  const cb = classOf(b);
  if (ca !== cb) return ca - cb;
  if (ca === 1) return (a as number) - (b as number);
  if (ca === 2) return compareCodePoints(a as string, b as string);
  if (ca === 3) return Number(a) - Number(b);
  return 0;
}

/**
 * Applies an update to a document's user fields (modified in place: the caller's own parsed copy)
 * and returns them. `now`: the write's time, the new `updatedAt` ($currentDate). 409 `conflict`
 * when an operator cannot apply to the stored value: the caller writes nothing.
 */
export function applyUpdate(data: JsonObject, update: Update, now: string): JsonObject {
  for (const { op, path, operand } of update.steps) {
    const creates = op !== '$unset' && op !== '$pull';
    // The parent object of the path's last segment, made where missing by the operators that create.
    let parent: JsonObject | undefined = data;
    for (let i = 0; i < path.length - 1 && parent; i++) {
      const next = own(parent, path[i]);
      if (!Object.hasOwn(parent, path[i])) {
        if (!creates) parent = undefined;
        else {
          const made = {};
          put(parent, path[i], made);
          parent = made;
        }
      } else if (isObject(next)) parent = next;
      else if (!creates) parent = undefined;
      else
        throw conflict(
          path,
          `'${path.slice(0, i + 1).join('.')}' is ${next === null ? 'null' : Array.isArray(next) ? 'an array' : `a ${typeof next}`}, not an object`,
        );
    }
    if (!parent) continue;
    const field = path[path.length - 1];
    const present = Object.hasOwn(parent, field);
    const value = own(parent, field);
    switch (op) {
      case '$set':
        put(parent, field, operand);
        break;
      case '$unset':
        if (present) delete parent[field];
        break;
      case '$currentDate':
        put(parent, field, now);
        break;
      case '$inc': {
        if (present && typeof value !== 'number') throw conflict(path, `$inc needs a number, the field holds ${describe(value)}`);
        const sum = (present ? (value as number) : 0) + (operand as number);
        if (!Number.isFinite(sum)) throw conflict(path, 'the result is not a finite number');
        put(parent, field, sum);
        break;
      }
      case '$min':
      case '$max': {
        const c = compare(operand, value);
        if (!present || (op === '$min' ? c < 0 : c > 0)) put(parent, field, operand);
        break;
      }
      case '$push':
      case '$addToSet': {
        if (present && !Array.isArray(value)) throw conflict(path, `${op} needs an array, the field holds ${describe(value)}`);
        const list = present ? (value as unknown[]) : [];
        for (const item of operand as unknown[]) {
          if (op === '$push' || !list.some((e) => isDeepStrictEqual(e, item))) list.push(item);
        }
        put(parent, field, list);
        break;
      }
      case '$pull': {
        if (!present) break;
        if (!Array.isArray(value)) throw conflict(path, `$pull needs an array, the field holds ${describe(value)}`);
        const test = operand as (e: unknown) => boolean;
        put(
          parent,
          field,
          value.filter((e) => !test(e)),
        );
        break;
      }
    }
  }
  return data;
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

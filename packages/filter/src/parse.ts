import { Itself, resolveAuthOperands, type Substitute } from './auth.js';
import { isStorableString, parseFieldPath } from './text.js';
import type { Condition, FieldRef, Filter, Operand, RangeOp, Scalar, Sort, SystemField } from './tree.js';

/**
 * Parses and validates a filter (API.md §1, §1.1) into the tree of tree.ts, once. Every refusal
 * is a FilterError whose code is the API's (`invalid_filter`; `validation_failed` for a sort) and
 * whose message is the one the server answers with, checked in the same order the server always
 * checked them.
 */

/** A refusal: the API error code and message, and (for a sort) the parameter's JSON Pointer. */
export class FilterError extends Error {
  constructor(
    readonly code: 'invalid_filter' | 'validation_failed',
    message: string,
    readonly detail?: { path: string; message: string },
  ) {
    super(message);
    this.name = 'FilterError';
  }
}

const invalid = (message: string) => new FilterError('invalid_filter', message);

const SYSTEM_FIELDS = new Set<string>(['id', 'createdAt', 'updatedAt']);
const OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$all', '$size', '$elemMatch', '$prefix', '$icontains']);
export const MAX_CLAUSES = 100;
export const MAX_LIST = 1000;
/** How deeply `$and`, `$or` and `$elemMatch` may nest. */
export const MAX_DEPTH = 8;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Itself);
/** Whether a field's value in a filter is an operator object (`{"$gt": 1}`), else an implicit equality. */
const isOperatorObject = (v: unknown): v is Record<string, unknown> => isObject(v) && Object.keys(v).some((k) => k.startsWith('$'));

const pathMessage = (path: string) => `"${path.slice(0, 80)}" is not a field path (segments of [A-Za-z_][A-Za-z0-9_]* joined by dots)`;

/** A field of a document: a system field, or a path into its own fields; undefined when malformed. */
export function fieldRef(path: string): FieldRef | undefined {
  if (SYSTEM_FIELDS.has(path)) return { system: path as SystemField };
  const segments = parseFieldPath(path);
  return segments && { path: segments };
}

export interface ParseOptions {
  /**
   * Resolves a rule's `$auth` operands (§10): each becomes what this gives, compared with a
   * field's value itself; NEVER makes the comparison false. Without it, `$auth` is no operator.
   */
  auth?: Substitute;
}

/**
 * Parses a filter: JSON text (a list's `filter` parameter) or the value it parses to (a rule).
 * Throws FilterError on anything §1/§1.1 does not allow.
 *
 * @example
 *   parseFilter('{"status":"open","score":{"$gte":10}}');
 *   // {kind: 'and', parts: [{kind: 'field', field: {path: ['status']}, conditions: [{op: '$eq', …}]}, …]}
 */
/** The refusal of a filter that is not JSON. */
const NOT_JSON =
  "filter is not valid JSON. svc's filter is a JSON object, URL-encoded in the query, not an expression such as status = 'open' && score >= 10: " +
  'filter={"status":"open","score":{"$gte":10}}, with $eq $ne $gt $gte $lt $lte $in $nin $exists $and $or and more (docs/filters.md)';

export function parseFilter(input: unknown, options: ParseOptions = {}): Filter {
  let filter = input;
  if (typeof input === 'string') {
    try {
      filter = JSON.parse(input);
    } catch {
      // Says what svc's filter looks like: someone who wrote PocketBase's or SQL's syntax learns it here.
      throw invalid(NOT_JSON);
    }
  }
  if (options.auth) filter = resolveAuthOperands(filter, options.auth);
  let clauses = 0;
  const clause = () => {
    if (++clauses > MAX_CLAUSES) throw invalid(`a filter has at most ${MAX_CLAUSES} clauses`);
  };

  const scalar = (v: unknown, op: string): Scalar => {
    if (typeof v === 'string' && !isStorableString(v)) throw invalid(`${op} takes strings without NUL characters or unpaired surrogates`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return v;
    throw invalid(`${op} takes a string, number, boolean or null; objects and arrays are not comparable`);
  };
  const operand = (v: unknown, op: string): Operand =>
    v instanceof Itself ? { value: scalar(v.value, op), itself: true } : { value: scalar(v, op), itself: false };
  const string = (v: unknown, op: string): Operand<string> => {
    const o = operand(v, op);
    if (typeof o.value !== 'string') throw invalid(`${op} takes a string`);
    return o as Operand<string>;
  };
  const list = (v: unknown, op: string): unknown[] => {
    if (!Array.isArray(v) || v.length > MAX_LIST) throw invalid(`${op} takes a list of at most ${MAX_LIST} values`);
    return v;
  };
  const size = (raw: unknown): number => {
    if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0) throw invalid('$size takes a non-negative integer');
    return raw;
  };
  /** `$elemMatch` takes a filter on an element's fields, or operators on the element itself. */
  const elemMatchForm = (raw: unknown): 'operators' | 'fields' => {
    if (!isObject(raw) || Object.keys(raw).length === 0) throw invalid('$elemMatch takes a non-empty object');
    const keys = Object.keys(raw);
    const ops = keys.filter((k) => k.startsWith('$') && k !== '$and' && k !== '$or');
    if (ops.length === 0) return 'fields';
    if (ops.length !== keys.length) throw invalid('$elemMatch takes either operators on the element or a filter on its fields, not both');
    return 'operators';
  };

  /** One operator; `system`: on a system field, where `$elemMatch` is checked for its form only (a string holds no elements). */
  const condition = (op: string, raw: unknown, depth: number, system: boolean): Condition => {
    switch (op) {
      case '$eq':
      case '$ne':
        return { op, operand: operand(raw, op) };
      case '$in':
      case '$nin':
        return { op, operands: list(raw, op).map((v) => operand(v, op)) };
      case '$all':
        return { op, values: list(raw, op).map((v) => scalar(v, op)) };
      case '$exists':
        if (typeof raw !== 'boolean') throw invalid('$exists takes true or false');
        return { op, value: raw };
      case '$size':
        return { op, value: size(raw) };
      case '$elemMatch': {
        if (system) {
          elemMatchForm(raw);
          return { op: 'never' };
        }
        if (depth >= MAX_DEPTH) throw invalid('filter nests too deeply');
        const form = elemMatchForm(raw);
        const inner = raw as Record<string, unknown>;
        if (form === 'fields') return { op, match: { form, filter: node(inner, depth + 1, true) } };
        const conditions = Object.entries(inner).map(([o, v]) => {
          clause();
          if (!OPS.has(o)) throw invalid(`unknown operator ${o}`);
          return condition(o, v, depth + 1, false);
        });
        return { op, match: { form, conditions } };
      }
      case '$prefix':
      case '$icontains':
        return { op, operand: string(raw, op) };
      default:
        return { op: op as RangeOp, operand: operand(raw, op) };
    }
  };

  /** An object of the JSON form: the AND of its keys. `element`: inside `$elemMatch`, where `id` and the timestamps are an element's own fields. */
  const node = (f: unknown, depth: number, element: boolean): Filter => {
    if (!isObject(f)) throw invalid('a filter is a JSON object');
    if (depth > MAX_DEPTH) throw invalid('filter nests too deeply');
    const parts: Filter[] = [];
    for (const [key, value] of Object.entries(f)) {
      clause();
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) throw invalid(`${key} takes a non-empty list of filters`);
        parts.push({ kind: key === '$and' ? 'and' : 'or', parts: value.map((v) => node(v, depth + 1, element)) });
        continue;
      }
      if (key.startsWith('$')) throw invalid(`unknown operator ${key}`);
      const segments = parseFieldPath(key);
      const field = element ? segments && { path: segments } : fieldRef(key);
      if (!field) throw invalid(pathMessage(key));
      const operators = isOperatorObject(value) ? value : { $eq: value };
      const conditions = Object.entries(operators).map(([op, raw]) => {
        if (!OPS.has(op)) throw invalid(`unknown operator ${op}`);
        return condition(op, raw, depth, 'system' in field);
      });
      parts.push({ kind: 'field', field, conditions });
    }
    return { kind: 'and', parts };
  };

  return node(filter, 0, false);
}

/**
 * Parses a list's sort (§1): `sortBy` (default `createdAt`) and `sortOrder`. A bad path throws
 * FilterError `validation_failed` naming `/sortBy`.
 */
export function parseSort(sortBy: string | undefined, sortOrder: 'asc' | 'desc' = 'asc'): Sort {
  const field = fieldRef(sortBy ?? 'createdAt');
  if (!field) {
    const m = pathMessage(sortBy!);
    throw new FilterError('validation_failed', `sortBy: ${m}`, { path: '/sortBy', message: m });
  }
  return { field, desc: sortOrder === 'desc' };
}

/** The paths into the document's own fields a filter's top level names, in order (not those inside `$elemMatch`): what an index could serve. */
export function filterPaths(filter: Filter): string[][] {
  if (filter.kind !== 'field') return filter.parts.flatMap(filterPaths);
  return 'path' in filter.field ? [filter.field.path] : [];
}

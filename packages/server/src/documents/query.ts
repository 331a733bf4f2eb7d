import { ApiError } from '../errors.ts';
import { isObject } from '../json/merge-patch.ts';
import { isStorableString } from '../json/parse.ts';
import type { CompareOp, JsonSql, Param } from '../store/store.ts';
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
const OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists']);
const RANGE = new Map<string, CompareOp>([
  ['$gt', '>'],
  ['$gte', '>='],
  ['$lt', '<'],
  ['$lte', '<='],
]);
const MAX_CLAUSES = 100;

/** Compiles a MongoDB-style filter (§1). Throws 400 `invalid_filter` on anything unexpected. */
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

  const scalar = (v: unknown, op: string): Scalar => {
    if (typeof v === 'string' && !isStorableString(v)) throw invalidFilter(`${op} takes strings without NUL characters or unpaired surrogates`);
    if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return v;
    throw invalidFilter(`${op} takes a string, number, boolean or null; objects and arrays are not comparable`);
  };

  const fieldSql = (field: Field, op: CompareOp, v: Exclude<Scalar, null>): string => {
    if ('column' in field) {
      if (typeof v !== 'string') return '(1 = 0)'; // system fields are strings: nothing else can match
      params.push(v);
      return `(${field.column} ${op} ?)`;
    }
    params.push(json.param(v));
    return json.compare(field.path, op, typeof v as 'string' | 'number' | 'boolean');
  };

  const eq = (field: Field, v: Scalar): string => {
    if (v !== null) return fieldSql(field, '=', v);
    return 'column' in field ? '(1 = 0)' : json.isNullish(field.path);
  };

  const condition = (field: Field, op: string, operand: unknown): string => {
    switch (op) {
      case '$eq':
        return eq(field, scalar(operand, op));
      case '$ne':
        return `(NOT ${eq(field, scalar(operand, op))})`;
      case '$in':
      case '$nin': {
        if (!Array.isArray(operand) || operand.length > 1000) throw invalidFilter(`${op} takes a list of at most 1000 values`);
        const any = operand.length ? `(${operand.map((v) => eq(field, scalar(v, op))).join(' OR ')})` : '(1 = 0)';
        return op === '$in' ? any : `(NOT ${any})`;
      }
      case '$exists': {
        if (typeof operand !== 'boolean') throw invalidFilter('$exists takes true or false');
        const sql = 'column' in field ? '(1 = 1)' : json.exists(field.path);
        return operand ? sql : `(NOT ${sql})`;
      }
      default: {
        const v = scalar(operand, op);
        // MongoDB: $gte/$lte null match null or missing; $gt/$lt null match nothing.
        if (v === null) return op === '$gte' || op === '$lte' ? eq(field, null) : '(1 = 0)';
        return fieldSql(field, RANGE.get(op)!, v);
      }
    }
  };

  const node = (f: unknown, depth: number): string => {
    if (!isObject(f)) throw invalidFilter('a filter is a JSON object');
    if (depth > 8) throw invalidFilter('filter nests too deeply');
    const parts: string[] = [];
    for (const [key, value] of Object.entries(f)) {
      if (++clauses > MAX_CLAUSES) throw invalidFilter(`a filter has at most ${MAX_CLAUSES} clauses`);
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) throw invalidFilter(`${key} takes a non-empty list of filters`);
        parts.push(`(${value.map((v) => node(v, depth + 1)).join(key === '$and' ? ' AND ' : ' OR ')})`);
        continue;
      }
      if (key.startsWith('$')) throw invalidFilter(`unknown operator ${key}`);
      const field = parseField(key, invalidFilter);
      if ('path' in field) paths.push(field.path);
      const operators = isObject(value) && Object.keys(value).some((k) => k.startsWith('$')) ? value : { $eq: value };
      for (const [op, operand] of Object.entries(operators)) {
        if (!OPS.has(op)) throw invalidFilter(`unknown operator ${op}`);
        parts.push(condition(field, op, operand));
      }
    }
    return parts.length ? parts.join(' AND ') : '(1 = 1)';
  };

  return { sql: node(filter, 0), params, paths };
}

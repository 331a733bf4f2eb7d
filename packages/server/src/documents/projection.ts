import { ApiError } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { parseFieldPath } from './names.ts';
import type { JsonSql } from '../store/store.ts';

/**
 * Projection (API.md §1.1 `fields=title,author.name`): a tree of the requested paths, applied to a
 * document's user fields after it is read. The system fields are always returned, so naming them
 * changes nothing. A path that crosses an array applies to each element that is an object (other
 * elements are dropped), as MongoDB does; a field that is absent stays absent. A shorter path wins
 * over a longer one below it (`author,author.name` returns all of `author`).
 *
 * On lists the store selects the JSON text of each named top-level field (`data -> '$.title'`,
 * `data -> 'title'`: NULL when missing, `null` when null), and only fields named by a longer path
 * are parsed and picked here: cheaper than parsing whole documents (docs/querying.md has the
 * measurement), and simpler than building the object in SQL, which would have to drop missing
 * fields per path and per store. A single get applies the same projection to the parsed document.
 */
export type Projection = Map<string, Projection | true>;

const SYSTEM = new Set(['id', 'createdAt', 'updatedAt']);
const MAX_FIELDS = 100;

const bad = (message: string) => new ApiError('validation_failed', `fields: ${message}`, [{ path: '/fields', message }]);

/** Parses `fields=`; undefined (whole documents) when absent or empty. 400 `validation_failed` on a bad path. */
export function parseProjection(raw: string | undefined): Projection | undefined {
  if (raw === undefined) return undefined;
  const paths = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (paths.length === 0) return undefined;
  if (paths.length > MAX_FIELDS) throw bad(`at most ${MAX_FIELDS} field paths`);
  const root: Projection = new Map();
  for (const path of paths) {
    if (SYSTEM.has(path)) continue;
    const segments = parseFieldPath(path);
    if (!segments) throw bad(`"${path.slice(0, 80)}" is not a field path (segments of [A-Za-z_][A-Za-z0-9_]* joined by dots)`);
    let node = root;
    for (const [i, s] of segments.entries()) {
      const here = node.get(s);
      if (here === true) break; // a shorter path already takes the whole field
      if (i === segments.length - 1) {
        node.set(s, true);
        break;
      }
      const next: Projection = here ?? new Map();
      node.set(s, next);
      node = next;
    }
  }
  return root;
}

function pick(value: unknown, projection: Projection): unknown {
  if (Array.isArray(value)) return value.filter((v) => v !== null && typeof v === 'object').map((v) => pick(v, projection));
  return isObject(value) ? project(value, projection) : undefined;
}

/** The fields of `data` the projection names, in the order they were first named. */
export function project(data: JsonObject, projection: Projection): JsonObject {
  const out: JsonObject = {};
  for (const [key, sub] of projection) {
    if (!Object.hasOwn(data, key)) continue;
    const inner = sub === true ? data[key] : pick(data[key], sub);
    if (inner !== undefined) out[key] = inner;
  }
  return out;
}

/**
 * SELECT columns `f0, f1, …` (an expression and its name each): the JSON text of each top-level field the projection names, NULL when
 * the document lacks it. A list reads these instead of whole documents: the store does the picking
 * and sends less, and only fields with a nested path are parsed here.
 */
export function projectionColumns(json: JsonSql, projection: Projection): Array<{ expression: string; name: string }> {
  // Keys are validated field-path segments ([A-Za-z_][A-Za-z0-9_]*): safe to write into SQL.
  return [...projection.keys()].map((key, i) => ({ expression: json.fieldText(key), name: `f${i}` }));
}

/** The user's fields of a projected row (selected with projectionColumns) as JSON object text. */
export function projectedText(projection: Projection, row: Record<string, unknown>): string {
  const parts: string[] = [];
  let i = 0;
  for (const [key, sub] of projection) {
    const text = row[`f${i++}`];
    if (typeof text !== 'string') continue;
    if (sub === true) parts.push(`${JSON.stringify(key)}:${text}`);
    else {
      const inner = pick(JSON.parse(text), sub);
      if (inner !== undefined) parts.push(`${JSON.stringify(key)}:${JSON.stringify(inner)}`);
    }
  }
  return `{${parts.join(',')}}`;
}

import { ApiError } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { parseFieldPath } from './names.ts';

/**
 * Projection (API.md §1.1 `fields=title,author.name`): a tree of the requested paths, applied to a
 * document's user fields after it is read. The system fields are always returned, so naming them
 * changes nothing. A path that crosses an array applies to each element that is an object (other
 * elements are dropped), as MongoDB does; a field that is absent stays absent. A shorter path wins
 * over a longer one below it (`author,author.name` returns all of `author`).
 *
 * Applied in JS rather than built in SQL (json_object / jsonb_build_object): a page is parsed once
 * either way (the rule matcher and the cursor need no more), the SQL would have to tell a missing
 * field from a null one per path and per store, and picking keys out of a parsed object is cheap
 * next to the query (see docs/querying.md for the measurement).
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

/** The fields of `data` the projection names, in the document's own order. */
export function project(data: JsonObject, projection: Projection): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(data)) {
    const p = projection.get(key);
    if (p === undefined) continue;
    if (p === true) {
      out[key] = value;
      continue;
    }
    const inner = pick(value, p);
    if (inner !== undefined) out[key] = inner;
  }
  return out;
}

import { compileMatcher } from '../rules/matcher.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';

/** What is known of a multipart upload's record before its body is read. */
export interface KnownBeforeBody {
  owner: string | null;
  /** From the query; undefined: the file part will name it. */
  name: string | undefined;
  /** The most bytes the file can have: the request's Content-Length, the size limit. */
  maxSize: number;
}

/**
 * Whether no record of a multipart upload could pass the create rule's `filter`, whatever its
 * body holds (§12: refused before the body when that can be seen). Unlike a raw upload, whose
 * size, name and metadata are known from its headers (uploader.ts tries each possible type), a
 * multipart body still hides its type, metadata, name (unless the query gives it) and exact size
 * (at most its Content-Length). So the answer is "cannot pass" only when a condition that must
 * hold fails for every value its field could take: `owner` and a query `name` are known; `size`
 * lies in 0..maxSize, where comparisons change their answer only next to their operands, so
 * those sizes and the ends stand for all. Conditions on anything else are taken as passing.
 */
export function cannotPass(filter: JsonObject, known: KnownBeforeBody): boolean {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      if (condition.some((part) => isObject(part) && cannotPass(part, known))) return true;
    } else if (field === '$or' && Array.isArray(condition)) {
      if (condition.length > 0 && condition.every((part) => isObject(part) && cannotPass(part, known))) return true;
    } else if (!field.startsWith('$')) {
      const values = candidates(field, condition, known);
      if (values && failsForAll(field, condition, values)) return true;
    }
  }
  return false;
}

/** The values that stand for every value `field` could take, or undefined when it is not known before the body. */
function candidates(field: string, condition: unknown, known: KnownBeforeBody): unknown[] | undefined {
  if (field === 'owner') return [known.owner];
  if (field === 'name') return known.name === undefined ? undefined : [known.name];
  if (field !== 'size') return undefined;
  const max = Number.isFinite(known.maxSize) ? known.maxSize : Number.MAX_SAFE_INTEGER;
  const sizes = new Set([0, max]);
  for (const n of numbersIn(condition))
    for (const s of [Math.floor(n) - 1, Math.floor(n), Math.ceil(n), Math.ceil(n) + 1]) if (s >= 0 && s <= max) sizes.add(s);
  return [...sizes];
}

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (isObject(value)) return Object.values(value).flatMap(numbersIn);
  return [];
}

function failsForAll(field: string, condition: unknown, values: unknown[]): boolean {
  let matches: (doc: JsonObject) => boolean;
  try {
    matches = compileMatcher({ [field]: condition } as JsonObject) as (doc: JsonObject) => boolean;
  } catch {
    return false; // not a condition this check understands: the check after the bytes decides
  }
  return values.every((value) => !matches({ [field]: value } as JsonObject));
}

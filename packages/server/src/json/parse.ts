import { ApiError } from '../errors.ts';
import { assertNestingWithin } from './nesting.ts';

/**
 * Parses a request body and enforces the §8 nesting depth, on the text before parsing (see
 * nesting.ts). `__proto__` keys are refused: JSON.parse
 * keeps them as harmless own properties, but any later `obj[key] = …` (a merge patch) would turn
 * them into prototype writes, so they never enter the system.
 */
export function parseJsonBody(text: string, maxDepth: number): unknown {
  if (text.trim() === '') throw new ApiError('invalid_json', 'The body is empty; send a JSON value');
  assertNestingWithin(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ApiError('invalid_json', `The body is not valid JSON: ${(e as Error).message}`);
  }
  if (mayHoldUnstorable(text)) checkJson(value);
  return value;
}

/**
 * Whether the parsed value of `text` may hold what checkJson refuses; false only when it cannot: a
 * `__proto__` key, NUL or a lone surrogate in a string or key can only come from the text as is or
 * from a `\u` escape. One scan of the text instead of a walk of every value (a bulk of 100
 * documents: the bulk profile in BENCHMARKS.md).
 */
function mayHoldUnstorable(text: string): boolean {
  return text.includes('\\u') || text.includes('__proto__') || UNSTORABLE.test(text);
}

/** NUL, or a UTF-16 surrogate without its pair: valid JSON, but not text PostgreSQL (jsonb, text) can store. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point of this pattern.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string can be stored as is on every store (so both answer the same, and never 500). */
export function isStorableString(s: string): boolean {
  return !UNSTORABLE.test(s);
}

function unstorable(): ApiError {
  return new ApiError('validation_failed', 'Strings may not contain NUL characters or unpaired UTF-16 surrogates', [
    { path: '/', message: 'contains a NUL character or an unpaired surrogate' },
  ]);
}

/**
 * Throws 400 when `value` carries a `__proto__` key, or a string or key no store can hold.
 * Iterative, though the depth was bounded before parsing.
 */
function checkJson(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string' && !isStorableString(v)) throw unstorable();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else {
      for (const key of Object.keys(v)) {
        if (key === '__proto__') throw new ApiError('invalid_field_name', 'The field name "__proto__" is not allowed');
        if (!isStorableString(key)) throw unstorable();
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
}

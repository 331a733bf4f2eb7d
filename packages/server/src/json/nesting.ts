import { ApiError } from '../errors.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The §8 depth error (the same wherever depth is checked). */
function tooDeep(maxDepth: number): ApiError {
  return new ApiError('validation_failed', `JSON nests deeper than ${maxDepth} levels (the server's LIMIT_JSON_DEPTH)`, [
    { path: '/', message: `nesting deeper than ${maxDepth}` },
  ]);
}

/**
 * Throws 400 `validation_failed` when the text of a JSON body opens more than `maxDepth` arrays or
 * objects inside each other (API.md §8). It runs before JSON.parse, which would otherwise build the
 * whole tree of a nesting bomb (`[[[[…` 16 MB deep costs seconds and blocks the event loop) before
 * anything could count its depth. Hand-written because no JSON library refuses depth while parsing:
 * one pass over the characters, skipping string contents (a `[` in a string is text), stopping at
 * the first bracket too deep. It does not validate the JSON; JSON.parse does that next.
 */
export function assertNestingWithin(text: string, maxDepth: number): void {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote: indexOf is much faster than a per-character loop, and a quote
      // preceded by an odd run of backslashes is escaped.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return; // an unterminated string: JSON.parse will say invalid_json
        let slashes = 0;
        while (text.charCodeAt(i - 1 - slashes) === BACKSLASH) slashes += 1;
        if (slashes % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) throw tooDeep(maxDepth);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
}

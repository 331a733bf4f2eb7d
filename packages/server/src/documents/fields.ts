import { ApiError } from '../errors.ts';

/**
 * What a document write may carry (API.md §1), checked before anything is stored.
 *
 * Field names are data, so most names are fine, `constructor` and `toString` included (lookups
 * by a user's name never go through a plain object's prototype: query.ts uses Maps). Refused, at
 * any depth, with 400 `invalid_field_name`:
 * - `__proto__`: an assignment `obj[key] = …` with it would set the object's prototype;
 * - keys containing `.` or starting with `$`: a field path (`a.b`) or a filter (`$gt`) could not
 *   name them, so they could be written but never sorted or filtered.
 *
 * A number JSON can't carry as a finite double (`1e400` parses to Infinity) is 400
 * `validation_failed`: JSON.stringify would silently store it as `null`.
 */
export function checkFields(value: unknown, where = ''): void {
  const keys: Array<string | number> = [];
  visit(value, keys, () => where + keys.map((k) => `/${typeof k === 'number' ? k : escapePointer(k)}`).join(''));
}

/**
 * Depth first, each object's names before its values, the last member first: the order in which
 * the first problem is found and named. The path of a value is only spelt out for a refusal
 * (`at`): a bulk of 100 documents built ~3 strings per field before (the bulk profile in BENCHMARKS.md).
 * Recursive: callers pass parsed bodies, whose nesting the parser bounded (json/nesting.ts).
 */
function visit(v: unknown, keys: Array<string | number>, at: () => string): void {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      const path = at() || '/';
      throw new ApiError('validation_failed', `${path}: a number must be a finite double`, [
        { path, message: 'must be a finite number (JSON cannot carry it as a double)' },
      ]);
    }
    return;
  }
  if (v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (let i = v.length - 1; i >= 0; i--) {
      keys.push(i);
      visit(v[i], keys, at);
      keys.pop();
    }
    return;
  }
  const names = Object.keys(v);
  for (const key of names) {
    const why = fieldNameProblem(key);
    if (why) {
      keys.push(key);
      const path = at();
      throw new ApiError('invalid_field_name', `${path}: ${why}`, [{ path, message: why }]);
    }
  }
  for (let i = names.length - 1; i >= 0; i--) {
    keys.push(names[i]);
    visit((v as Record<string, unknown>)[names[i]], keys, at);
    keys.pop();
  }
}

/** Why a key may not be a field name, or undefined when it may. */
export function fieldNameProblem(key: string): string | undefined {
  if (key === '__proto__') return 'the field name "__proto__" is not allowed';
  if (key.includes('.')) return `the field name "${key.slice(0, 80)}" contains ".", which a field path could not name`;
  if (key.startsWith('$')) return `the field name "${key.slice(0, 80)}" starts with "$", which a filter could not name`;
  return undefined;
}

/** RFC 6901: `~` and `/` inside a key of a JSON pointer. */
export const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

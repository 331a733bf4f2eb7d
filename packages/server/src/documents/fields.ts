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
  const stack: Array<[unknown, string]> = [[value, where]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) {
        throw new ApiError('validation_failed', `${path || '/'}: a number must be a finite double`, [
          { path: path || '/', message: 'must be a finite number (JSON cannot carry it as a double)' },
        ]);
      }
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) stack.push([item, `${path}/${i}`]);
      continue;
    }
    for (const key of Object.keys(v)) {
      const at = `${path}/${escapePointer(key)}`;
      const why = fieldNameProblem(key);
      if (why) throw new ApiError('invalid_field_name', `${at}: ${why}`, [{ path: at, message: why }]);
      stack.push([(v as Record<string, unknown>)[key], at]);
    }
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

import { ApiError } from '../errors.ts';
import { isStorableString } from '../json/parse.ts';

/** Cc and Cf characters (controls, format characters such as U+202E) and the path separators. */
const FORBIDDEN = /[\p{Cc}\p{Cf}/\\]/u;

/**
 * A file name as §12 allows it: 1..255 characters, no `/` or `\`, no Unicode control or format
 * characters. Refused, never cleaned: a name that names a path is a client bug to show.
 */
export function checkFileName(name: unknown, path = '/name'): string {
  if (typeof name !== 'string' || name.length === 0) throw invalidName(path, 'a file name is required: send ?name= or a filename in the file part');
  if ([...name].length > 255) throw invalidName(path, 'a file name has at most 255 characters');
  if (FORBIDDEN.test(name) || !isStorableString(name)) throw invalidName(path, 'a file name may not hold /, \\, or control or format characters');
  return name;
}

const invalidName = (path: string, message: string) => new ApiError('validation_failed', message, [{ path, message }]);

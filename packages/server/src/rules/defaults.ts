import type { ErrorDetail } from '../errors.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { escapePointer, fieldNameProblem } from '../documents/fields.ts';
import { isAuthField, isAuthOperand, NEVER } from './auth-operands.ts';
import { authValue } from './resolve.ts';
import type { RuleUser } from './types.ts';

/**
 * `defaults` of a collection's rules entry (API.md §10, third version): top-level fields a create
 * with a public key fills in when its body lacks them, before the create rule is checked. A value
 * is a constant or a `$auth` operand (`{"owner": {"$auth": "id"}}`), so a browser app need not send
 * `owner: user.id` by hand. Secret keys get none.
 */

/** Set by the service on every document: a default could never apply to them. */
const SYSTEM_FIELDS = new Set(['id', 'createdAt', 'updatedAt']);

/** The problems of an entry's `defaults`, each with its JSON Pointer under `at`. */
export function defaultsProblems(defaults: unknown, at: string): ErrorDetail[] {
  if (!isObject(defaults)) return [{ path: at, message: 'must be an object of top-level fields, each a constant or {"$auth": …}' }];
  const problems: ErrorDetail[] = [];
  for (const [field, value] of Object.entries(defaults)) {
    const path = `${at}/${escapePointer(field)}`;
    const name = SYSTEM_FIELDS.has(field) ? `"${field}" is set by the service; it takes no default` : fieldNameProblem(field);
    if (name) problems.push({ path, message: `${name} (defaults name top-level fields only)` });
    else if (isAuthOperand(value)) {
      if (!isAuthField(value.$auth)) {
        problems.push({ path, message: `${JSON.stringify(value.$auth)} is not a $auth field: use "id", "email", "emailVerified" or "appMetadata.<path>"` });
      }
    } else problems.push(...constantProblems(value, path));
  }
  return problems;
}

/** A constant is any JSON value a document could hold; `$auth` or `$…` keys inside it are refused, as in a document. */
function constantProblems(value: unknown, path: string): ErrorDetail[] {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (Array.isArray(v)) {
      for (const [i, item] of v.entries()) stack.push([item, `${at}/${i}`]);
    } else if (isObject(v)) {
      for (const [key, inner] of Object.entries(v)) {
        const why = fieldNameProblem(key);
        if (why) return [{ path: at, message: `not a constant a document could hold: ${why}; a user's field is written {"$auth": "id"} alone` }];
        stack.push([inner, `${at}/${escapePointer(key)}`]);
      }
    }
  }
  return [];
}

/**
 * The fields defaults give for this user: constants as written, `$auth` operands as the user's value
 * now (§10's rules for them: the e-mail only once verified). A `$auth` value that is missing (no
 * session, or the user lacks it) leaves its field out. Undefined when no field results.
 */
export function resolveDefaults(defaults: JsonObject, user: RuleUser | undefined): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [field, value] of Object.entries(defaults)) {
    if (!isAuthOperand(value)) out[field] = value;
    else if (user) {
      const v = authValue(user, value.$auth);
      if (v !== NEVER && v !== null) out[field] = v;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** Whether any default needs the signed-in user. */
export const defaultsNeedUser = (defaults: JsonObject): boolean => Object.values(defaults).some(isAuthOperand);

/** A body with the defaults it lacks; never overrides a field the body gives (a `null` included). */
export function withDefaults(body: unknown, defaults: JsonObject | undefined): unknown {
  if (!defaults || !isObject(body)) return body;
  const out: JsonObject = { ...body };
  for (const [field, value] of Object.entries(defaults)) if (!Object.hasOwn(body, field)) out[field] = structuredClone(value);
  return out;
}

import { isObject, type JsonObject } from '../json/merge-patch.ts';
import { isStorableString } from '../json/parse.ts';
import { NEVER, resolveAuthOperands, type Scalar } from './auth-operands.ts';
import type { Operation, Rule, RuleUser, Rules } from './types.ts';

/** How a database without rules behaves (API.md §10): public keys read everything, write nothing. */
export const DEFAULT_RULES: Rules = { '*': { read: true } };

/**
 * The rule of one operation on one collection. A collection's own entry replaces `"*"` whole
 * (an operation it leaves out is refused, not taken from `"*"`); an absent operation is `false`.
 * `rules` undefined means none were ever set: DEFAULT_RULES. Lookups use Object.hasOwn, so a
 * collection called `constructor` is a name like any other.
 */
export function ruleFor(rules: Rules | undefined, collection: string, operation: Operation): Rule {
  const all = rules ?? DEFAULT_RULES;
  const entry = Object.hasOwn(all, collection) ? all[collection] : Object.hasOwn(all, '*') ? all['*'] : undefined;
  return entry && Object.hasOwn(entry, operation) ? (entry[operation] as Rule) : false;
}

/**
 * What a rule lets one request do:
 * - `all`: every document (rule `true`, or `"signedIn"` with a session);
 * - `none`: nothing (rule `false` or absent; the caller answers 403 `read_only_key` for writes,
 *   `forbidden` for reads);
 * - `session`: nothing without a valid session (`"signedIn"` or a filter rule; 401 `invalid_session`);
 * - `filter`: the documents that a plain §1 filter matches, `$auth` operands already replaced.
 */
export type RuleAccess = { kind: 'all' } | { kind: 'none' } | { kind: 'session' } | { kind: 'filter'; filter: JsonObject };

/**
 * Resolves a rule for the signed-in user (undefined: no valid session). The filter it returns is
 * parsed by @svc/filter (for the list SQL, store/filter-sql.ts, and the matcher alike): a `$auth`
 * value that is missing, null, not a scalar (an appMetadata object or list) or not storable text
 * turns each comparison using it into one that matches nothing, `$ne` and `$nin` included; any
 * other is compared with the field's value itself, never with an array's elements (§10).
 */
export function resolveRule(rule: Rule, user: RuleUser | undefined): RuleAccess {
  if (rule === true) return { kind: 'all' };
  if (!isObject(rule)) {
    // false, or anything that is not a rule (stored rules were validated: defensive only).
    if (rule !== 'signedIn') return { kind: 'none' };
    return user ? { kind: 'all' } : { kind: 'session' };
  }
  if (!user) return { kind: 'session' };
  return { kind: 'filter', filter: resolveAuthOperands(rule, (field) => authValue(user, field)) as JsonObject };
}

/** The value a `$auth` operand stands for, or NEVER (§10: the e-mail counts only once verified). */
export function authValue(user: RuleUser, field: unknown): Scalar | typeof NEVER {
  switch (field) {
    case 'id':
      return user.id;
    case 'email':
      return user.emailVerified ? user.email : NEVER;
    case 'emailVerified':
      return user.emailVerified;
  }
  if (typeof field !== 'string' || !field.startsWith('appMetadata.')) return NEVER;
  let v: unknown = user.appMetadata;
  for (const segment of field.slice('appMetadata.'.length).split('.')) {
    if (!isObject(v) || !Object.hasOwn(v, segment)) return NEVER;
    v = v[segment];
  }
  if (typeof v === 'string') return isStorableString(v) ? v : NEVER;
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return v;
  return NEVER;
}

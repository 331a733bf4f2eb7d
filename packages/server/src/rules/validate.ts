import { fieldsRuleProblems, isFieldsRule } from './fields-rule.ts';
import { ApiError, type ErrorDetail } from '../errors.ts';
import { isObject } from '../json/merge-patch.ts';
import { collectionNameProblem } from '../documents/names.ts';
import { escapePointer } from '../documents/fields.ts';
import { parseChecked } from '../documents/query.ts';
import { isAuthField } from './auth-operands.ts';
import { OPERATIONS, type Rules } from './types.ts';
import { defaultsProblems } from './defaults.ts';

/**
 * Checks `settings.rules` (API.md §10) and names every bad rule by its JSON Pointer. A filter rule
 * is parsed as a list's filter is (@svc/filter), and held to the same filter cost budget, so a
 * rule is accepted exactly when the same filter would be accepted on a list, `$auth` operands
 * standing in for scalars.
 */

/** Rules are read on every request a public key makes: kept small (the size Firebase allows). */
const MAX_RULES_BYTES = 256 * 1024;

/** Throws the list's 400 `invalid_filter` when `filter` is not a §1 filter a list would take. */
export function checkFilter(filter: unknown): void {
  parseChecked(filter);
}

const OPERATION_NAMES = new Set<string>(OPERATIONS);

/** What is wrong with one rule's value, or nothing. */
function ruleProblems(rule: unknown): string[] {
  if (rule === true || rule === false || rule === 'signedIn') return [];
  if (!isObject(rule)) return ['must be true, false, "signedIn" or a filter object'];
  if (Object.keys(rule).length === 0) return ['a filter rule may not be empty ({}); write true to allow every request'];
  const problems: string[] = [];
  const auth = (field: unknown) => {
    if (!isAuthField(field)) {
      problems.push(`${JSON.stringify(field)} is not a $auth field: use "id", "email", "emailVerified" or "appMetadata.<path>"`);
    }
    return 'placeholder';
  };
  try {
    parseChecked(rule, { auth });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    problems.push(`not a valid filter: ${e.message}`);
  }
  return problems;
}

/**
 * Validates a rules object; returns it unchanged, or throws 400 `invalid_rules` whose `details`
 * hold one `{path, message}` per problem, `path` being the pointer of the bad entry or rule under
 * `at` (`/rules` for the body of PUT /rules, `/settings/rules` for a database PATCH).
 */
export function validateRules(value: unknown, at = '/rules'): Rules {
  const details: ErrorDetail[] = [];
  const root = at || '/';
  if (!isObject(value)) {
    details.push({ path: root, message: 'must be an object keyed by collection name or "*"' });
  } else if (Buffer.byteLength(JSON.stringify(value)) > MAX_RULES_BYTES) {
    details.push({ path: root, message: `must be at most ${MAX_RULES_BYTES} bytes of JSON` });
  } else {
    for (const [collection, entry] of Object.entries(value)) {
      const path = `${at}/${escapePointer(collection)}`;
      // Files (§12): "files/<bucket>" and "files/*" hold the rules of buckets.
      const name = collection.startsWith('files/') ? collection.slice('files/'.length) : collection;
      const problem = collection === '*' || collection === 'files/*' ? undefined : collectionNameProblem(name);
      if (problem) {
        details.push({ path, message: `is not a collection name: ${problem}` });
        continue;
      }
      if (!isObject(entry)) {
        details.push({ path, message: 'must be an object of operations (read, create, update, delete) and defaults' });
        continue;
      }
      for (const [operation, rule] of Object.entries(entry)) {
        const rulePath = `${path}/${escapePointer(operation)}`;
        if (operation === 'defaults') details.push(...defaultsProblems(rule, rulePath));
        else if (!OPERATION_NAMES.has(operation))
          details.push({ path: rulePath, message: 'is not an operation: use read, create, update or delete (or defaults)' });
        else {
          // Third version: an update rule may also be `{ "when", "fields" }` (rules/fields-rule.ts).
          const problems = operation === 'update' && isFieldsRule(rule) ? fieldsRuleProblems(rule, ruleProblems) : ruleProblems(rule);
          for (const message of problems) details.push({ path: rulePath, message });
        }
      }
    }
  }
  if (details.length) {
    const shown = details
      .slice(0, 5)
      .map((d) => `${d.path} ${d.message}`)
      .join('; ');
    const more = details.length > 5 ? ` (and ${details.length - 5} more in details)` : '';
    throw new ApiError('invalid_rules', `Invalid rules: ${shown}${more}`, details);
  }
  return value as Rules;
}

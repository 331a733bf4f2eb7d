import { isObject } from '../json/merge-patch.ts';
import type { Rule } from './types.ts';

/**
 * The third version's update rule `{ "when": <rule>, "fields": ["likes"] }` (API.md §10): allowed
 * as `when` allows, and only if no top-level field outside `fields` changes. Told apart from a
 * filter rule by its keys: exactly `when` and `fields` (a filter could not hold a list as the
 * operand of a field called `fields`).
 */
interface FieldsRule {
  when: Rule;
  fields: string[];
}

/** Whether a stored or proposed rule has the `{ when, fields }` form (whatever its values). */
export const isFieldsRule = (rule: unknown): rule is FieldsRule =>
  isObject(rule) && Object.keys(rule).length === 2 && Object.hasOwn(rule, 'when') && Object.hasOwn(rule, 'fields');

/** An update rule as the plain rule to judge documents with, and the fields it limits changes to (undefined: any). */
export function splitUpdateRule(rule: Rule): { rule: Rule; fields?: string[] } {
  return isFieldsRule(rule) ? { rule: rule.when, fields: rule.fields } : { rule };
}

/** What is wrong with a `{ when, fields }` rule, given the checker of its `when`. */
export function fieldsRuleProblems(rule: FieldsRule, whenProblems: (when: unknown) => string[]): string[] {
  const problems = whenProblems(rule.when).map((m) => `when: ${m}`);
  const { fields } = rule;
  if (!Array.isArray(fields) || fields.length === 0) problems.push('fields must be a non-empty list of top-level field names');
  else {
    for (const f of fields) {
      if (typeof f !== 'string' || f === '' || f.includes('.') || f.startsWith('$') || f === '__proto__') {
        problems.push(`fields: ${JSON.stringify(f)} is not a top-level field name`);
      }
    }
  }
  return problems;
}

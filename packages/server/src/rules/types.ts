import type { JsonObject } from '../json/merge-patch.ts';

/** The four operations a rule entry may name (API.md §10). */
export const OPERATIONS = ['read', 'create', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** One rule: `true`, `false`, `"signedIn"`, or a §1 filter whose operands may be `{"$auth": …}`. */
export type Rule = boolean | 'signedIn' | JsonObject;

/** One collection's entry: its operations' rules, and the fields a public-key create fills in (rules/defaults.ts). */
export type RuleEntry = Partial<Record<Operation, Rule>> & { defaults?: JsonObject };

/** A database's `settings.rules`: entries keyed by collection name, `"*"` for every other collection. */
export type Rules = Record<string, RuleEntry>;

/**
 * The signed-in end user a rule is evaluated for, read as the user is now. `appMetadata` is what
 * the app's backend set (users/user-admin.ts); absent when the row's column is not a JSON object,
 * which makes every `{"$auth": "appMetadata.…"}` operand missing.
 */
export interface RuleUser {
  id: string;
  email: string;
  emailVerified: boolean;
  appMetadata?: JsonObject;
}

import { isObject, type JsonObject } from '../json/merge-patch.ts';
import type { RuleUser } from './types.ts';

/** A users row as rules see it: a disabled user is nobody; appMetadata only when it is a JSON object. */
export function ruleUserOf(userRow: object): RuleUser | undefined {
  const row = userRow as Record<string, unknown>;
  if (truthy(row.disabled)) return undefined;
  const user: RuleUser = { id: String(row.id), email: String(row.email), emailVerified: truthy(row.email_verified) };
  const appMetadata = jsonObjectOf(row.app_metadata);
  if (appMetadata) user.appMetadata = appMetadata;
  return user;
}

/** SQLite has no booleans (0/1); PostgreSQL columns may be either. */
const truthy = (v: unknown): boolean => v === true || Number(v) === 1;

/** A JSON object column: parsed already (PostgreSQL jsonb) or JSON text (SQLite, or a text column). */
function jsonObjectOf(v: unknown): JsonObject | undefined {
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return isObject(v) ? v : undefined;
}

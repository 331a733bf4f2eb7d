import { parseFieldPath } from '@svc/filter';

/**
 * `{"$auth": …}` operands of a rule's filter (API.md §10). Where they may stand, how they resolve
 * (compared with a field's value itself, never an array's elements; NEVER for a value the user
 * lacks) and which fields a rule names are the query language's own (@svc/filter, auth.ts); what
 * is the server's is which user fields a rule may name.
 */
export { authFields, NEVER, resolveAuthOperands, type Scalar } from '@svc/filter';

const USER_FIELDS = new Set(['id', 'email', 'emailVerified']);
const APP_METADATA = 'appMetadata.';

/** Whether a `$auth` operand names a user field a rule may use: id, email, emailVerified, appMetadata.<path>. */
export function isAuthField(field: unknown): field is string {
  if (typeof field !== 'string') return false;
  if (USER_FIELDS.has(field)) return true;
  return field.startsWith(APP_METADATA) && parseFieldPath(field.slice(APP_METADATA.length)) !== undefined;
}

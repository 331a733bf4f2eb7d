/**
 * Whose second factor: an end user of a database (API.md §2.2) or a dashboard operator (§2.2
 * "Operators"). Both share the factor, recovery-code and mfaToken tables; `column` is the one
 * reference a row of this owner fills.
 */
export type Owner = { kind: 'user'; id: string; databaseId: string } | { kind: 'operator'; id: string };

/** The column that names an owner's rows (a fixed identifier, never user input). */
export const column = (o: Owner): 'user_id' | 'operator_id' => (o.kind === 'user' ? 'user_id' : 'operator_id');

/** The per-account limit's name for an owner (limits.ts): wrong codes count whatever the client IP. */
export const codeAccount = (o: Owner): string => (o.kind === 'user' ? `mfa:user:${o.databaseId}:${o.id}` : `mfa:operator:${o.id}`);

/** limits.ts counts per account and IP; wrong codes count per account alone, so every IP is this one. */
export const ANY_IP = '*';

import { tokenHash, isoAt } from '../auth/tokens.ts';
import type { Clock } from '../infra/clock.ts';
import type { RuleUser } from '../rules/rules.ts';
import { ruleUserOf } from '../rules/user-row.ts';
import type { Store } from '../store/store.ts';

/**
 * The signed-in user a public-key document request acts for (API.md §10): the user of a live
 * `X-Session-Token` of this database, as rules see it now, or undefined (no token, unknown,
 * expired or ended session, disabled user).
 *
 * One query, not auth/sessions.ts's `resolve` plus a read of the user: that lookup reads only the
 * columns §2 shows, and `$auth` may also name `appMetadata`. `u.*` because the columns rules read
 * may grow (app_metadata, disabled); what a row lacks counts as missing, as in
 * realtime/user-facts.ts.
 */
export async function sessionUser(store: Store, clock: Clock, databaseId: string, token: string | undefined): Promise<RuleUser | undefined> {
  if (!token || token.length > 512) return undefined;
  const row = await store.get<Record<string, unknown>>(
    `SELECT u.* FROM user_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ? AND s.database_id = ? AND s.expires_at > ?`,
    [tokenHash(token), databaseId, isoAt(clock)],
  );
  return row === undefined ? undefined : ruleUserOf(row);
}

import { tokenHash, isoAt } from '../auth/tokens.ts';
import type { Clock } from '../infra/clock.ts';
import type { RuleUser } from '../rules/rules.ts';
import { ruleUserOf } from '../rules/user-row.ts';
import type { Store } from '../store/store.ts';

const liveSessionToken = (token: string | undefined): token is string => token !== undefined && token.length > 0 && token.length <= 512;

/**
 * A database's settings (JSON text), and the signed-in user a public-key document request acts
 * for (API.md §10): the user of a live `X-Session-Token` of this database, as rules see it now,
 * or undefined (no token, unknown, expired or ended session, disabled user). Undefined when the
 * database does not exist.
 *
 * One query where a request with a session would otherwise make two (the rules, then the
 * session), and not auth/sessions.ts's `resolve` plus a read of the user: that lookup reads only
 * the columns §2 shows, and `$auth` may also name `appMetadata`. `u.*` because the columns rules
 * read may grow; what a row lacks counts as missing, as in realtime/user-facts.ts.
 */
export async function settingsAndSessionUser(
  store: Store,
  clock: Clock,
  databaseId: string,
  token: string | undefined,
): Promise<{ settings: string; user: RuleUser | undefined } | undefined> {
  const settings = `${store.dialect.jsonText('d.settings')} AS svc_settings`;
  if (!liveSessionToken(token)) {
    const row = await store.get<{ svc_settings: string }>(`SELECT ${settings} FROM databases d WHERE d.id = ?`, [databaseId]);
    return row && { settings: row.svc_settings, user: undefined };
  }
  const row = await store.get<Record<string, unknown> & { svc_settings: string }>(
    `SELECT ${settings}, u.* FROM databases d
     LEFT JOIN user_sessions s ON s.token_hash = ? AND s.database_id = d.id AND s.expires_at > ?
     LEFT JOIN users u ON u.id = s.user_id
     WHERE d.id = ?`,
    [tokenHash(token), isoAt(clock), databaseId],
  );
  if (!row) return undefined;
  return { settings: row.svc_settings, user: row.id === null || row.id === undefined ? undefined : ruleUserOf(row) };
}

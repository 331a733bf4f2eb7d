import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';
import { MINUTE, isoAt } from './tokens.ts';

/**
 * Deletes expired sessions, link tokens, OAuth states, mfaTokens and passkey challenges. Expired rows are already refused by
 * every lookup (each compares `expires_at` with now); this only keeps the tables small.
 * Returns how many rows went.
 */
export async function purgeExpired(store: Store, clock: Clock): Promise<number> {
  const now = isoAt(clock);
  let n = 0;
  for (const table of ['user_sessions', 'auth_tokens', 'oauth_states', 'mfa_tokens', 'passkey_challenges']) {
    n += await store.run(`DELETE FROM ${table} WHERE expires_at < ?`, [now]);
  }
  return n;
}

/** How often the auth feature purges (its job in app's `jobs`). */
export const PURGE_EVERY_MS = 10 * MINUTE;

import type { Clock } from '../../infra/clock.ts';
import type { OAuthProvider } from '../../databases/settings.ts';
import type { Store } from '../../store/store.ts';
import { MINUTE, isoAt, newToken, tokenHash } from '../tokens.ts';

/** How long a sign-in may take at the provider. */
const STATE_LIFETIME_MS = 10 * MINUTE;

/** What a `state` stands for: the database, the provider, where to send the user, and the PKCE verifier. */
export interface OAuthState {
  databaseId: string;
  provider: OAuthProvider;
  redirectUrl: string;
  codeVerifier: string;
}

/** Stores a new state (only its hash) and returns it. */
export async function createState(store: Store, clock: Clock, s: OAuthState): Promise<string> {
  const state = newToken();
  await store.run(
    'INSERT INTO oauth_states (state_hash, database_id, provider, redirect_url, code_verifier, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [tokenHash(state), s.databaseId, s.provider, s.redirectUrl, s.codeVerifier, isoAt(clock, STATE_LIFETIME_MS), isoAt(clock)],
  );
  return state;
}

/**
 * Uses a state up. Undefined when it is unknown, used, expired or for another provider; exactly
 * one of several concurrent callbacks with the same state gets it (only one DELETE deletes).
 */
export async function consumeState(store: Store, clock: Clock, provider: OAuthProvider, state: string): Promise<OAuthState | undefined> {
  if (state.length > 512) return undefined;
  const hash = tokenHash(state);
  const row = await store.get<{ database_id: string; provider: string; redirect_url: string; code_verifier: string; expires_at: string }>(
    'SELECT database_id, provider, redirect_url, code_verifier, expires_at FROM oauth_states WHERE state_hash = ?',
    [hash],
  );
  if (!row || (await store.run('DELETE FROM oauth_states WHERE state_hash = ?', [hash])) !== 1) return undefined;
  if (row.provider !== provider || row.expires_at <= isoAt(clock)) return undefined;
  return { databaseId: row.database_id, provider, redirectUrl: row.redirect_url, codeVerifier: row.code_verifier };
}

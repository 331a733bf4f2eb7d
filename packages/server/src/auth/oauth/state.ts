import type { Clock } from '../../infra/clock.ts';
import type { OAuthProvider } from '../../databases/settings.ts';
import type { Store } from '../../store/store.ts';
import { MINUTE, isoAt, newToken, tokenHash } from '../tokens.ts';

/** How long a sign-in may take at the provider (and its browser binding lives). */
export const STATE_LIFETIME_MS = 10 * MINUTE;

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
 * The state of a callback, if it is live: undefined when unknown, used or expired. Only a look:
 * a callback that fails before `useUpState` (no browser binding) leaves it for the right one.
 */
export async function findState(store: Store, clock: Clock, state: string): Promise<OAuthState | undefined> {
  if (state.length > 512) return undefined;
  const row = await store.get<{ database_id: string; provider: OAuthProvider; redirect_url: string; code_verifier: string }>(
    'SELECT database_id, provider, redirect_url, code_verifier FROM oauth_states WHERE state_hash = ? AND expires_at > ?',
    [tokenHash(state), isoAt(clock)],
  );
  return row && { databaseId: row.database_id, provider: row.provider, redirectUrl: row.redirect_url, codeVerifier: row.code_verifier };
}

/** Uses a state up: true for exactly one of several concurrent callbacks (only one DELETE deletes). */
export async function useUpState(store: Store, state: string): Promise<boolean> {
  return (await store.run('DELETE FROM oauth_states WHERE state_hash = ?', [tokenHash(state)])) === 1;
}

import { systemClock, type Clock } from '../infra/clock.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';
import type { Queryable, Store } from '../store/store.ts';
import { hashSecret, OPERATOR_TOKEN_PREFIX, randomBase62 } from './key-format.ts';

/**
 * Operator sessions: started by admin/ (sign-in, setup, second factors), resolved here, below the
 * HTTP layer, which reads a request's operator token beside its API key (http/auth.ts) without
 * reaching into admin/.
 */

/** An operator as the API shows it. */
export interface Operator {
  id: string;
  email: string;
  createdAt: string;
}

/**
 * The clock of operators' sessions and second factors: the wall clock, whatever Clock the app was
 * given. The app's Clock is the time of the databases' data (links, retention, backoff), which
 * tests move by days; an operator's sign-in to the dashboard lives outside it (the tests' operator
 * signs in once per server and outlives the days a test moves the data's clock). Injectable all
 * the same: the functions here take it as an argument.
 */
export const operatorClock: Clock = systemClock;

/** Operator sessions last a week from sign-in. */
const OPERATOR_SESSION_MS = 7 * 24 * 3600 * 1000;

/** A new operator session (a week); its token. */
export async function startOperatorSession(q: Queryable, clock: Clock, operatorId: string): Promise<string> {
  const token = OPERATOR_TOKEN_PREFIX + randomBase62(43);
  const now = clock.now();
  await q.run('INSERT INTO operator_sessions (token_hash, operator_id, expires_at, created_at) VALUES (?, ?, ?, ?)', [
    hashSecret(token),
    operatorId,
    new Date(now + OPERATOR_SESSION_MS).toISOString(),
    new Date(now).toISOString(),
  ]);
  return token;
}

/**
 * The operator of a session token, if the session is live. With a cache, a live session is
 * remembered under its hash until it ends, expires or its operator changes (infra/invalidation).
 */
export async function resolveOperator(store: Store, clock: Clock, token: string, cache?: InvalidatedCache<Operator>): Promise<Operator | undefined> {
  const hash = hashSecret(token);
  const now = clock.now();
  const lookup = async () => {
    const row = await store.get<{ id: string; email: string; created_at: string; expires_at: string }>(
      `SELECT o.id, o.email, o.created_at, s.expires_at FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
       WHERE s.token_hash = ? AND s.expires_at > ?`,
      [hash, new Date(now).toISOString()],
    );
    if (!row) return undefined;
    const value = Object.freeze({ id: row.id, email: row.email, createdAt: row.created_at });
    return { value, tags: [`operator:${row.id}`], expiresAt: Date.parse(row.expires_at) };
  };
  return cache ? cache.get(`operator-session:${hash}`, now, lookup) : (await lookup())?.value;
}

/** Ends an operator session (sign-out). */
export async function signOutOperator(store: Store, token: string): Promise<void> {
  await store.run('DELETE FROM operator_sessions WHERE token_hash = ?', [hashSecret(token)]);
}

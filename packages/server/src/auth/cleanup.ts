import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../infra/clock.ts';
import type { Store } from '../store/store.ts';
import { MINUTE, isoAt } from './tokens.ts';

/**
 * Deletes expired sessions, link tokens and OAuth states. Expired rows are already refused by
 * every lookup (each compares `expires_at` with now); this only keeps the tables small.
 * Returns how many rows went.
 */
export async function purgeExpired(store: Store, clock: Clock): Promise<number> {
  const now = isoAt(clock);
  let n = 0;
  for (const table of ['user_sessions', 'auth_tokens', 'oauth_states']) {
    n += await store.run(`DELETE FROM ${table} WHERE expires_at < ?`, [now]);
  }
  return n;
}

/** Runs `purgeExpired` every `everyMs` (10 minutes) in the background; returns the function that stops it. */
export function startPurging(store: Store, clock: Clock, log: FastifyBaseLogger, everyMs = 10 * MINUTE): () => void {
  const timer = setInterval(() => {
    purgeExpired(store, clock).catch((err: unknown) => log.warn({ err }, 'purging expired sessions and tokens failed'));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

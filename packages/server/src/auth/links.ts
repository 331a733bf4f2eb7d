import type { Clock } from '../infra/clock.ts';
import type { Queryable } from '../store/store.ts';
import { DAY, HOUR, MINUTE, isoAt, newToken, tokenHash } from './tokens.ts';

/** What a link in an e-mail is for, and how long it works (API.md §2, §2.1). */
export type LinkPurpose = 'reset' | 'magic' | 'verify';
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = { reset: HOUR, magic: 15 * MINUTE, verify: DAY };

/**
 * Stores a new link token for an e-mail and returns it; only its hash is kept. A newer link does
 * not invalidate an older one (both expire soon), but each works once.
 */
export async function issueLinkToken(q: Queryable, clock: Clock, databaseId: string, purpose: LinkPurpose, email: string): Promise<string> {
  const token = newToken();
  await q.run('INSERT INTO auth_tokens (token_hash, database_id, purpose, email, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
    tokenHash(token),
    databaseId,
    purpose,
    email,
    isoAt(clock, LINK_LIFETIME_MS[purpose]),
    isoAt(clock),
  ]);
  return token;
}

const LIVE = 'token_hash = ? AND database_id = ? AND purpose = ? AND email = ? AND used_at IS NULL AND expires_at > ?';

/** Whether a token would be accepted now (a cheap look before expensive work; it is not used up). */
export async function linkTokenIsLive(q: Queryable, clock: Clock, databaseId: string, purpose: LinkPurpose, email: string, token: string): Promise<boolean> {
  const row = await q.get(`SELECT token_hash FROM auth_tokens WHERE ${LIVE}`, [tokenHash(token), databaseId, purpose, email, isoAt(clock)]);
  return row !== undefined;
}

/**
 * Uses a token up: true for exactly one caller, however many present it at once (the UPDATE
 * matches only while `used_at` is NULL). Wrong, used, expired or for another e-mail → false.
 */
export async function consumeLinkToken(q: Queryable, clock: Clock, databaseId: string, purpose: LinkPurpose, email: string, token: string): Promise<boolean> {
  const now = isoAt(clock);
  const changed = await q.run(`UPDATE auth_tokens SET used_at = ? WHERE ${LIVE}`, [now, tokenHash(token), databaseId, purpose, email, now]);
  return changed === 1;
}

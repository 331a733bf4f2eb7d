import { randomBytes } from 'node:crypto';
import type { Clock } from '../../infra/clock.ts';
import type { Queryable } from '../../store/store.ts';
import { MINUTE, isoAt } from '../tokens.ts';
import { newId } from '../../ids/ids.ts';

/** API.md §2.2: a WebAuthn challenge lives 5 minutes. */
const CHALLENGE_TTL_MS = 5 * MINUTE;

/** A new random challenge (32 bytes, base64url), stored for this database (and user, for a registration). */
export async function newChallenge(q: Queryable, clock: Clock, databaseId: string, userId: string | null): Promise<{ id: string; challenge: string }> {
  const challenge = randomBytes(32).toString('base64url');
  const id = newId();
  await q.run('INSERT INTO passkey_challenges (id, database_id, user_id, challenge, expires_at) VALUES (?, ?, ?, ?, ?)', [
    id,
    databaseId,
    userId,
    challenge,
    isoAt(clock, CHALLENGE_TTL_MS),
  ]);
  return { id, challenge };
}

/** Uses up a sign-in challenge by its id: live, of this database, of no user; its value, or undefined. */
export async function takeSignInChallenge(q: Queryable, clock: Clock, databaseId: string, id: string): Promise<string | undefined> {
  const row = await q.get<{ challenge: string }>(
    'DELETE FROM passkey_challenges WHERE id = ? AND database_id = ? AND user_id IS NULL AND expires_at > ? RETURNING challenge',
    [id, databaseId, isoAt(clock)],
  );
  return row?.challenge;
}

/** Uses up the registration challenge a response answers: live, of this database and this user; whether there was one. */
export async function takeRegistrationChallenge(q: Queryable, clock: Clock, databaseId: string, userId: string, challenge: string): Promise<boolean> {
  const used = await q.run('DELETE FROM passkey_challenges WHERE database_id = ? AND user_id = ? AND challenge = ? AND expires_at > ?', [
    databaseId,
    userId,
    challenge,
    isoAt(clock),
  ]);
  return used > 0;
}

import type { Queryable } from '../store/store.ts';
import type { Sessions } from './sessions.ts';
import type { UserRow } from '../users/users.ts';
import { removeEveryWayIn } from './mfa/service.ts';

/**
 * API.md §2: a sign-in that proves ownership of the e-mail through another channel than the
 * password (a used magic link or reset link, a provider's verified e-mail) on an account whose
 * e-mail was not verified yet. Whoever registered the address before, possibly to lie in wait for its owner,
 * must not keep a way in: the account loses its password, every session and every identity
 * linked so far, and its e-mail becomes verified. Runs inside the sign-in's transaction; a no-op
 * on an account already verified (or verified by a concurrent proof: the UPDATE decides).
 *
 * Identities: every identity of an account whose e-mail is unverified came with an unverified
 * provider e-mail, since a verified one verifies the account when it links or creates it; so
 * they all go. (Should an operator un-verify an account by hand, a verified identity that goes
 * here links again at its next sign-in, through its verified e-mail.)
 *
 * Realtime tokens: a user's token lives only as long as the session it was asked with
 * (realtime/tokens.ts), so ending the sessions ends them, and their sockets close.
 */
export async function proveEmail(tx: Queryable, sessions: Sessions, user: UserRow, now: string): Promise<UserRow> {
  if (Number(user.email_verified)) return user;
  const proved = await tx.run('UPDATE users SET email_verified = 1, password_hash = NULL, updated_at = ? WHERE id = ? AND email_verified = 0', [now, user.id]);
  if (proved === 0) return { ...user, email_verified: 1, password_hash: null }; // a concurrent proof did it all
  await sessions.endAll(tx, user.id);
  await tx.run('DELETE FROM user_identities WHERE user_id = ?', [user.id]);
  // API.md §2.2: and every second factor, recovery code and passkey, so no second step is asked.
  await removeEveryWayIn(tx, user.id);
  return { ...user, email_verified: 1, password_hash: null, updated_at: now };
}

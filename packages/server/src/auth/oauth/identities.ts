import type { Clock } from '../../infra/clock.ts';
import type { OAuthProvider } from '../../databases/settings.ts';
import type { Store } from '../../store/store.ts';
import { isoAt } from '../tokens.ts';
import { insertUser, normalizeEmail, userByEmail, type UserRow } from '../users.ts';
import type { OAuthProfile } from './provider.ts';

/** A sign-in the provider allowed but the service refuses; the code goes to `redirectUrl?error=`. */
export class OAuthRefusal extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/**
 * The account of a provider identity: the one already linked to (provider, provider user id);
 * else the account with the same e-mail, when the provider has verified it; else a new, verified,
 * password-less account. An account whose e-mail was never verified loses its password and
 * sessions when it is linked: whoever registered it without proving the e-mail (possibly to lie
 * in wait for the real owner) is locked out, and the owner signs in through the provider.
 */
export async function accountForIdentity(store: Store, clock: Clock, databaseId: string, provider: OAuthProvider, p: OAuthProfile): Promise<UserRow> {
  return store.transaction(async (tx) => {
    const linked = await tx.get<UserRow>(
      `SELECT u.id, u.email, u.name, u.avatar, u.password_hash, u.email_verified, u.created_at, u.updated_at
       FROM user_identities i JOIN users u ON u.id = i.user_id
       WHERE i.database_id = ? AND i.provider = ? AND i.provider_user_id = ?`,
      [databaseId, provider, p.id],
    );
    if (linked) return linked;
    if (!p.email || !p.emailVerified) throw new OAuthRefusal('email_not_verified', `the ${provider} account has no verified e-mail`);
    const email = normalizeEmail(p.email);
    const now = isoAt(clock);
    let user = await userByEmail(tx, databaseId, email);
    if (user && !Number(user.email_verified)) {
      await tx.run('UPDATE users SET email_verified = 1, password_hash = NULL, updated_at = ? WHERE id = ?', [now, user.id]);
      await tx.run('DELETE FROM user_sessions WHERE user_id = ?', [user.id]);
      user = { ...user, email_verified: 1, password_hash: null, updated_at: now };
    }
    user ??= (await insertUser(tx, databaseId, { email, name: p.name, avatar: p.avatar, emailVerified: true }, now)) ?? (await userByEmail(tx, databaseId, email));
    if (!user) throw new Error('the account vanished while signing in');
    await tx.run(
      `INSERT INTO user_identities (database_id, provider, provider_user_id, user_id, email, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (database_id, provider, provider_user_id) DO NOTHING`,
      [databaseId, provider, p.id, user.id, email, now],
    );
    return user;
  });
}

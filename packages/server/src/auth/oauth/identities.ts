import type { Clock } from '../../infra/clock.ts';
import type { OAuthProvider } from '../../databases/settings.ts';
import { signUpAllowed } from '../email-links.ts';
import type { Store } from '../../store/store.ts';
import { isoAt } from '../tokens.ts';
import { proveEmail } from '../email-proof.ts';
import type { Sessions } from '../sessions.ts';
import { USER_COLUMNS, findOrCreateUser, isDisabled, normalizeEmail, userByEmail, type UserRow } from '../../users/users.ts';
import type { OAuthProfile } from './provider.ts';

/** The codes an OAuth sign-in sends back as `redirectUrl?error=<code>`, once the redirect URL is trusted. */
export type OAuthErrorCode =
  | 'access_denied'
  | 'email_not_verified'
  | 'invalid_state'
  | 'provider_error'
  | 'provider_not_configured'
  | 'invalid_credentials'
  | 'signup_disabled';

/** A sign-in the provider allowed but the service refuses; the code goes to `redirectUrl?error=`. */
export class OAuthRefusal extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A disabled account signs in no way (API.md §2.1): `redirectUrl?error=invalid_credentials`. */
function enabled(user: UserRow): UserRow {
  if (isDisabled(user)) throw new OAuthRefusal('invalid_credentials', 'the account is disabled');
  return user;
}

/**
 * The account of a provider identity (API.md §2):
 * - the one already linked to (provider, issuer, provider user id): for OpenID Connect the issuer
 *   is part of who the person is (OIDC Core §5.7), a `sub` alone is not;
 * - else, with a verified provider e-mail, the account with that e-mail, which this proves
 *   (`proveEmail`: an account registered without proving the address loses its password,
 *   sessions and identities), or a new verified, password-less account;
 * - else (an unverified provider e-mail) a new account with `emailVerified: false`, never an
 *   existing one: the provider's word is no proof of the address, so it may not sign into an
 *   account someone else holds. A later proof of the e-mail unlinks it.
 * A new account is made only while the database allows sign-up (settings.auth.allowSignUp, §2.1).
 */
export async function accountForIdentity(
  store: Store,
  clock: Clock,
  sessions: Sessions,
  databaseId: string,
  provider: OAuthProvider,
  p: OAuthProfile,
): Promise<UserRow> {
  const mayCreate = await signUpAllowed(store, databaseId);
  return store.transaction(async (tx) => {
    const linked = await tx.get<UserRow>(
      `SELECT ${USER_COLUMNS.split(', ')
        .map((c) => `u.${c}`)
        .join(', ')}
       FROM user_identities i JOIN users u ON u.id = i.user_id
       WHERE i.database_id = ? AND i.provider = ? AND i.issuer = ? AND i.provider_user_id = ?`,
      [databaseId, provider, p.issuer, p.id],
    );
    if (linked) return enabled(linked);
    if (!p.email) throw new OAuthRefusal('email_not_verified', `the ${provider} account has no e-mail`);
    const email = normalizeEmail(p.email);
    const now = isoAt(clock);
    if (!mayCreate && !(await userByEmail(tx, databaseId, email)))
      throw new OAuthRefusal('signup_disabled', 'sign-up is turned off and no account has this e-mail');
    const found = await findOrCreateUser(tx, databaseId, { email, name: p.name, avatar: p.avatar, emailVerified: p.emailVerified }, now);
    if (!found.created && !p.emailVerified) throw new OAuthRefusal('email_not_verified', `the ${provider} e-mail is not verified and an account has it`);
    // A disabled account gets no session, and its sign-in changes nothing (not even a first proof).
    enabled(found.user);
    const user = found.created ? found.user : await proveEmail(tx, sessions, found.user, now);
    await tx.run(
      `INSERT INTO user_identities (database_id, provider, issuer, provider_user_id, user_id, email, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (database_id, provider, issuer, provider_user_id) DO NOTHING`,
      [databaseId, provider, p.issuer, p.id, user.id, email, now],
    );
    return user;
  });
}

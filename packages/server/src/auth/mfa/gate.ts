import type { Queryable } from '../../store/store.ts';
import type { Session, Sessions } from '../sessions.ts';
import { toUser, type User, type UserRow } from '../../users/users.ts';
import { hasVerifiedFactor } from './factors.ts';
import type { MfaStep, MfaTokens } from './mfa-tokens.ts';

/**
 * What a sign-in answers (API.md §2.2): a user and a session, or, when the account has a verified
 * factor, neither until the second step (`POST /auth/mfa/challenge` with `mfa.token`).
 */
export type SignInResult = { user: User; session: Session } | { user: null; session: null; mfa: MfaStep };

/**
 * The one place a sign-in turns into a session: password sign-in, magic-link verify and the OAuth
 * and OIDC callbacks all end here, so none of them can hand out a session while a second step is
 * due. (Passkeys are a complete sign-in and call `Sessions.create` directly; so does the
 * challenge, which is the second step.)
 */
export class SignInGate {
  constructor(private readonly d: { sessions: Sessions; tokens: MfaTokens }) {}

  /** A session for `user` of `databaseId`, or an mfaToken when a second step is due; inside the caller's transaction when given one. */
  async signIn(q: Queryable, databaseId: string, user: UserRow): Promise<SignInResult> {
    if (await hasVerifiedFactor(q, { kind: 'user', id: user.id, databaseId })) {
      return { user: null, session: null, mfa: await this.d.tokens.issue(q, { kind: 'user', id: user.id, databaseId }) };
    }
    return { user: toUser(user), session: await this.d.sessions.create(q, databaseId, user.id) };
  }
}

import { getDatabase } from '../../databases/databases.ts';
import { notFound } from '../../errors.ts';
import { endEverySession } from '../../users/user-admin.ts';
import type { Limiter } from '../../infra/limiter/limiter.ts';
import type { Queryable, Store } from '../../store/store.ts';
import { limitFailedAttempts } from '../limits.ts';
import type { Current, Session, Sessions } from '../sessions.ts';
import { USER_COLUMNS, toUser, type User, type UserRow } from '../../users/users.ts';
import type { WayInGuard } from './adding.ts';
import type { CodeAnswer, Factors } from './factors.ts';
import type { MfaTokens } from './mfa-tokens.ts';
import { ANY_IP, codeAccount, type Owner } from './owner.ts';

const ownerOf = (databaseId: string, current: Current): Owner => ({ kind: 'user', id: current.user.id, databaseId });

/**
 * An end user's second factors (API.md §2.2 `/auth/mfa/*`): enrolment, activation, listing,
 * removal, new recovery codes, and the challenge that completes a two-step sign-in.
 */
export class MfaService {
  constructor(private readonly d: { store: Store; limiter: Limiter; sessions: Sessions; factors: Factors; tokens: MfaTokens; guard: WayInGuard }) {}

  /** 201: a new unverified TOTP factor; the issuer is `settings.auth.mfaIssuer` or the database's name. */
  async enrol(databaseId: string, current: Current) {
    await this.d.guard.check(current);
    const db = await getDatabase(this.d.store, databaseId);
    const issuer = db.settings.auth.mfaIssuer ?? db.name;
    return this.d.factors.enrol(ownerOf(databaseId, current), issuer, current.user.email);
  }

  /** Activates the factor and answers the recovery codes (shown this once); mails the user. */
  async activate(databaseId: string, current: Current, factorId: string, code: string): Promise<string[]> {
    await this.d.guard.check(current);
    const codes = await this.d.factors.activate(ownerOf(databaseId, current), factorId, code);
    this.d.guard.notify(databaseId, current.user.email, 'A second factor (an authenticator app)');
    return codes;
  }

  list(databaseId: string, current: Current) {
    return this.d.factors.list(ownerOf(databaseId, current));
  }

  /** Removes a factor with a current code; wrong codes count under the account's limit. */
  async remove(databaseId: string, current: Current, factorId: string, code: string): Promise<void> {
    const owner = ownerOf(databaseId, current);
    await limitFailedAttempts(this.d.limiter, { account: codeAccount(owner), ip: ANY_IP }, () => this.d.factors.remove(owner, factorId, code));
  }

  async newRecoveryCodes(databaseId: string, current: Current, code: string): Promise<string[]> {
    const owner = ownerOf(databaseId, current);
    return limitFailedAttempts(this.d.limiter, { account: codeAccount(owner), ip: ANY_IP }, () => this.d.factors.newRecoveryCodes(owner, code));
  }

  /**
   * `DELETE /auth/users/:id/mfa` (an app's support desk recovering an account): every factor,
   * recovery code and passkey of the user goes, and every session ends; 404 for no such user.
   */
  async reset(databaseId: string, userId: string): Promise<void> {
    await this.d.store.transaction(async (tx) => {
      if (!(await tx.get('SELECT 1 AS one FROM users WHERE database_id = ? AND id = ?', [databaseId, userId]))) throw notFound(`User '${userId}' not found`);
      await removeEveryWayIn(tx, userId);
      await endEverySession(tx, userId);
    });
  }

  /** The second step: an mfaToken of this database and a right code → the user and a new session. */
  challenge(databaseId: string, mfaToken: string, answer: CodeAnswer): Promise<{ user: User; session: Session }> {
    const { sessions } = this.d;
    return this.d.tokens.complete(databaseId, mfaToken, answer, async (tx: Queryable, owner) => {
      const row = await tx.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [owner.id]);
      return { user: toUser(row!), session: await sessions.create(tx, databaseId, owner.id) };
    });
  }
}

/**
 * Removes every factor, recovery code, pending mfaToken and passkey of a user, inside the caller's
 * transaction: the takeover rule (email-proof.ts) and the support desk's reset.
 */
export async function removeEveryWayIn(tx: Queryable, userId: string): Promise<void> {
  for (const table of ['mfa_factors', 'mfa_recovery_codes', 'mfa_tokens', 'passkeys']) await tx.run(`DELETE FROM ${table} WHERE user_id = ?`, [userId]);
}

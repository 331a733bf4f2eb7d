import { ApiError } from '../errors.ts';
import { getDatabase, getSettings } from '../databases/databases.ts';
import { authSettings } from '../databases/settings.ts';
import type { Clock } from '../infra/clock.ts';
import type { DatabaseMailers } from '../email/mailers.ts';
import type { EmailSettings } from '../email/settings.ts';
import { hashPassword, verifyPassword } from '../passwords/passwords.ts';
import type { Store } from '../store/store.ts';
import type { Background } from './background.ts';
import { proveEmail } from './email-proof.ts';
import { consumeLinkToken, issueLinkToken, linkTokenIsLive } from './links.ts';
import { checkRedirectUrl, withQuery } from './redirects.ts';
import type { Sessions } from './sessions.ts';
import { isoAt } from './tokens.ts';
import type { SignInGate, SignInResult } from './mfa/gate.ts';
import { checkPassword, findOrCreateUser, isDisabled, toUser, userByEmail, type User } from '../users/users.ts';

/** Where the links of one request point, the database's name, and its e-mail settings (docs/email.md). */
export interface LinkTarget {
  url: URL;
  app: string;
  email?: EmailSettings;
}

const badToken = () => new ApiError('invalid_token', 'The link is wrong, used or expired; ask for a new one');

/** API.md §2.1 `allowSignUp: false`: no path creates an account. */
export const signUpDisabled = () => new ApiError('signup_disabled', 'Sign-up is turned off for this application (the database setting auth.allowSignUp)');

/** Whether the database lets new accounts be made (settings.auth.allowSignUp). */
export const signUpAllowed = async (store: Store, databaseId: string): Promise<boolean> => authSettings(await getSettings(store, databaseId)).allowSignUp;

/**
 * The e-mail flows of API.md §2 and §2.1: password reset, magic links and e-mail verification.
 * Requests answer 202 at once; looking the account up and mailing happen in the background, so
 * the answer and its timing are the same whether or not the account exists, and a failing SMTP
 * server fails nothing but the log.
 */
export class EmailLinks {
  constructor(private readonly d: { store: Store; clock: Clock; mailer: DatabaseMailers; sessions: Sessions; background: Background; gate: SignInGate }) {}

  /** The allowed `redirectUrl`, or the database's `siteUrl` when none is given; else 400. */
  async target(databaseId: string, redirectUrl: string | undefined): Promise<LinkTarget> {
    const db = await getDatabase(this.d.store, databaseId);
    // The stored settings: the SMTP URL is write-only, so the database's public view has none.
    const { email } = await getSettings(this.d.store, databaseId);
    if (redirectUrl !== undefined) return { url: checkRedirectUrl(redirectUrl, db.settings.redirectUrls), app: db.name, email };
    if (db.settings.siteUrl) return { url: new URL(db.settings.siteUrl), app: db.name, email };
    throw new ApiError('redirect_url_not_allowed', 'Give a redirectUrl: the database has no siteUrl to build the link from');
  }

  /** Mails a reset link (1 hour) if the account exists; returns at once either way. */
  requestReset(databaseId: string, email: string, target: LinkTarget): void {
    const { store, clock, mailer } = this.d;
    this.d.background.run('the password-reset e-mail', async () => {
      if (!(await userByEmail(store, databaseId, email))) return;
      const token = await issueLinkToken(store, clock, databaseId, 'reset', email);
      await mailer.send({ kind: 'resetPassword', to: email, databaseName: target.app, email: target.email, link: withQuery(target.url, { token, email }) });
    });
  }

  /**
   * Mails a magic link (15 minutes), whether or not the account exists yet; returns at once. With
   * sign-up turned off (settings.auth.allowSignUp false) an e-mail without an account gets nothing.
   */
  requestMagicLink(databaseId: string, email: string, target: LinkTarget): void {
    const { store, clock, mailer } = this.d;
    this.d.background.run('the magic-link e-mail', async () => {
      if (!(await signUpAllowed(store, databaseId)) && !(await userByEmail(store, databaseId, email))) return;
      const token = await issueLinkToken(store, clock, databaseId, 'magic', email);
      await mailer.send({ kind: 'magicLink', to: email, databaseName: target.app, email: target.email, link: withQuery(target.url, { token, email }) });
    });
  }

  /** Sets a new password with a reset token (used up) and ends every session of the user. */
  async resetPassword(databaseId: string, email: string, token: string, newPassword: string): Promise<void> {
    const { store, clock, sessions } = this.d;
    checkPassword(newPassword);
    // A cheap look first, so random tokens cost no argon2 hash; the UPDATE below decides.
    if (!(await linkTokenIsLive(store, clock, databaseId, 'reset', email, token))) throw badToken();
    const passwordHash = await hashPassword(newPassword);
    await store.transaction(async (tx) => {
      if (!(await consumeLinkToken(tx, clock, databaseId, 'reset', email, token))) throw badToken();
      const user = await userByEmail(tx, databaseId, email);
      if (!user) throw badToken();
      const now = isoAt(clock);
      // Using the link proves the e-mail: a first proof locks out whoever registered it before.
      await proveEmail(tx, sessions, user, now);
      await tx.run('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?', [passwordHash, now, user.id]);
      await sessions.endAll(tx, user.id);
    });
  }

  /**
   * Signs in with a magic-link token (used up), creating a verified, password-less account if
   * needed. On an account whose e-mail was unverified this is the first proof of it (`proveEmail`).
   * A second step may be due (mfa/gate.ts).
   */
  async verifyMagicLink(databaseId: string, email: string, token: string): Promise<SignInResult> {
    const { store, clock, sessions, gate } = this.d;
    const mayCreate = await signUpAllowed(store, databaseId);
    return store.transaction(async (tx) => {
      if (!(await consumeLinkToken(tx, clock, databaseId, 'magic', email, token))) throw badToken();
      const now = isoAt(clock);
      // A link mailed before sign-up was turned off creates nothing either (the token stays unused).
      if (!mayCreate && !(await userByEmail(tx, databaseId, email))) throw signUpDisabled();
      const found = await findOrCreateUser(tx, databaseId, { email, emailVerified: true }, now);
      // A disabled account signs in no way (401), and the link stays unused: nothing changes.
      if (isDisabled(found.user)) throw new ApiError('invalid_credentials', 'This account is disabled');
      const user = found.created ? found.user : await proveEmail(tx, sessions, found.user, now);
      return gate.signIn(tx, databaseId, user);
    });
  }

  /**
   * Mails an e-mail-verification link (24 hours) to an account whose e-mail is not verified yet;
   * an unknown or already verified e-mail gets nothing. Returns at once either way.
   */
  requestVerification(databaseId: string, email: string, target: LinkTarget): void {
    const { store, clock, mailer } = this.d;
    this.d.background.run('the e-mail-verification e-mail', async () => {
      const user = await userByEmail(store, databaseId, email);
      if (!user || Number(user.email_verified)) return;
      const token = await issueLinkToken(store, clock, databaseId, 'verify', email);
      await mailer.send({ kind: 'verifyEmail', to: email, databaseName: target.app, email: target.email, link: withQuery(target.url, { token, email }) });
    });
  }

  /**
   * Marks the e-mail of an account verified with the token of a verification link (used up). The
   * account asked for the link itself, so unlike a first proof by magic link (`proveEmail`) its
   * password, sessions and identities stay.
   *
   * An account with a password confirms only with it (API.md §2.1, third version): otherwise a
   * stranger who registered someone's address first, with a password of their choosing, would
   * get it verified by the owner's click and keep the account. Missing or wrong → 400
   * `invalid_current_password` before the token is used, so it stays usable until it expires.
   */
  async confirmEmail(databaseId: string, email: string, token: string, password: string | undefined): Promise<User> {
    const { store, clock } = this.d;
    // A cheap look first, so random tokens cost no argon2 hash; the transaction below decides.
    if (!(await linkTokenIsLive(store, clock, databaseId, 'verify', email, token))) throw badToken();
    const checked = (await userByEmail(store, databaseId, email))?.password_hash ?? null;
    if (checked !== null && (password === undefined || !(await verifyPassword(checked, password)))) {
      throw new ApiError(
        'invalid_current_password',
        password === undefined ? 'This account has a password: send it as password to confirm the e-mail' : 'The password is wrong',
      );
    }
    return store.transaction(async (tx) => {
      if (!(await consumeLinkToken(tx, clock, databaseId, 'verify', email, token))) throw badToken();
      const user = await userByEmail(tx, databaseId, email);
      if (!user) throw badToken(); // the account was deleted since
      // The password checked is still the account's (it was not set or changed meanwhile); else the token stays unused.
      if ((user.password_hash ?? null) !== checked) throw new ApiError('invalid_current_password', 'The password changed meanwhile; try again');
      if (Number(user.email_verified)) return toUser(user);
      const now = isoAt(clock);
      await tx.run('UPDATE users SET email_verified = 1, updated_at = ? WHERE id = ?', [now, user.id]);
      return toUser({ ...user, email_verified: 1, updated_at: now });
    });
  }
}

import { getSettings } from '../databases/databases.ts';
import { authSettings } from '../databases/settings.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import { hashPassword, verifyPassword } from '../passwords/passwords.ts';
import type { Store } from '../store/store.ts';
import { signUpDisabled, type EmailLinks, type LinkTarget } from './email-links.ts';
import type { Current, Session, Sessions } from './sessions.ts';
import { isoAt } from './tokens.ts';
import type { SignInGate, SignInResult } from './mfa/gate.ts';
import { removeUser } from '../users/user-admin.ts';
import { checkAvatar, checkPassword, insertUser, isDisabled, toUser, userByEmail, validEmail, type User } from '../users/users.ts';

/** A user and a new session: the answer of every sign-in. */
export interface SignedIn {
  user: User;
  session: Session;
}

/** The answer of a sign-up: no session yet when the database requires a verified e-mail first (§2.1). */
export interface SignedUp {
  user: User;
  session: Session | null;
}

/** A sign-up, and where its verification link goes when the database requires one (the route mails it). */
export interface SignUpOutcome {
  signedUp: SignedUp;
  verification?: LinkTarget;
}

/** A profile change: only these fields (API.md §2); null clears one. */
export interface ProfilePatch {
  name?: string | null;
  avatar?: string | null;
}

/**
 * Password accounts and sessions (API.md §2). Every method takes the database of the caller's
 * key: accounts of two databases never meet.
 */
export class AuthService {
  constructor(private readonly d: { store: Store; clock: Clock; sessions: Sessions; links: EmailLinks; gate: SignInGate }) {}

  /**
   * 201: a new account with a password, signed in. 403 `signup_disabled` first when the database
   * turned sign-up off; 400 `weak_password`, 409 `conflict`. When the database requires verified
   * e-mails (§2.1) the account starts without a session, and `verification` says where the
   * verification link goes: `redirectUrl` or the `siteUrl` setting (a disallowed or missing one →
   * 400 before anything is made).
   */
  async signUp(databaseId: string, rawEmail: string, password: string, name: string | undefined, redirectUrl?: string): Promise<SignUpOutcome> {
    const { store, clock, sessions, links } = this.d;
    const settings = authSettings(await getSettings(store, databaseId));
    if (!settings.allowSignUp) throw signUpDisabled();
    const email = validEmail(rawEmail);
    checkPassword(password);
    const target = settings.requireEmailVerification || redirectUrl !== undefined ? await links.target(databaseId, redirectUrl) : undefined;
    const taken = () => new ApiError('conflict', 'An account with this e-mail already exists');
    if (await userByEmail(store, databaseId, email)) throw taken();
    const passwordHash = await hashPassword(password);
    const signedUp = await store.transaction(async (tx) => {
      const row = await insertUser(tx, databaseId, { email, name: name ?? null, passwordHash, emailVerified: false }, isoAt(clock));
      if (!row) throw taken(); // a concurrent sign-up won
      return { user: toUser(row), session: settings.requireEmailVerification ? null : await sessions.create(tx, databaseId, row.id) };
    });
    return { signedUp, verification: settings.requireEmailVerification ? target : undefined };
  }

  /**
   * 200 with a new session, or 401 `invalid_credentials`. An unknown e-mail and an account without
   * a password are checked against a dummy hash, so every failure takes one argon2 verification.
   * A disabled account answers the same, right password or not. With a verified second factor the
   * answer is an mfaToken instead of a session (mfa/gate.ts).
   */
  async signIn(databaseId: string, email: string, password: string): Promise<SignInResult> {
    const { store, gate } = this.d;
    const row = await userByEmail(store, databaseId, email);
    const ok = await verifyPassword(row?.password_hash ?? undefined, password);
    if (!ok || !row || isDisabled(row)) throw new ApiError('invalid_credentials', 'Wrong e-mail or password');
    // Only now, with the password right: the answer tells nothing to someone who does not know it.
    if (!Number(row.email_verified) && authSettings(await getSettings(store, databaseId)).requireEmailVerification) {
      throw new ApiError('email_not_verified', 'Verify your e-mail address first: open the link mailed to you (POST /auth/verify-email sends a new one)');
    }
    return gate.signIn(store, databaseId, row);
  }

  /** Changes name and/or avatar (http(s) URL). */
  async updateProfile(current: Current, patch: ProfilePatch): Promise<User> {
    checkAvatar(patch.avatar);
    const row = { ...current.user, updated_at: isoAt(this.d.clock) };
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.avatar !== undefined) row.avatar = patch.avatar;
    await this.d.store.run('UPDATE users SET name = ?, avatar = ?, updated_at = ? WHERE id = ?', [row.name, row.avatar, row.updated_at, row.id]);
    return toUser(row);
  }

  /** Same token, expiry moved to now + lifetime. */
  async refresh(current: Current): Promise<SignedIn> {
    return { user: toUser(current.user), session: await this.d.sessions.refresh(current) };
  }

  async signOut(current: Current): Promise<void> {
    await this.d.sessions.end(current.tokenHash);
  }

  /** 400 `weak_password` / `invalid_current_password`; ends every other session of the user. */
  async changePassword(current: Current, currentPassword: string, newPassword: string): Promise<void> {
    const { store, clock, sessions } = this.d;
    checkPassword(newPassword);
    if (!(await verifyPassword(current.user.password_hash ?? undefined, currentPassword))) {
      throw new ApiError('invalid_current_password', 'The current password is wrong');
    }
    const passwordHash = await hashPassword(newPassword);
    await store.transaction(async (tx) => {
      await tx.run('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?', [passwordHash, isoAt(clock), current.user.id]);
      await sessions.endAll(tx, current.user.id, current.tokenHash);
    });
  }

  /**
   * `DELETE /auth/me`: deletes the signed-in account with its sessions (so its realtime tokens and
   * sockets end), identities and pending e-mail links; its documents stay. An account with a
   * password must give it: wrong or missing → 400 `invalid_current_password` (the route counts
   * it under the per-account limit). A password-less account (magic link, OAuth) needs none.
   */
  async deleteAccount(current: Current, databaseId: string, password: string | undefined): Promise<void> {
    const hash = current.user.password_hash;
    if (hash && (password === undefined || !(await verifyPassword(hash, password)))) {
      throw new ApiError('invalid_current_password', password === undefined ? 'This account has a password: send it as password' : 'The password is wrong');
    }
    await this.d.store.transaction((tx) => removeUser(tx, databaseId, current.user.id));
  }
}

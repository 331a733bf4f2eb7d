import { ApiError } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import { hashPassword, verifyPassword } from '../passwords/passwords.ts';
import type { Store } from '../store/store.ts';
import type { Current, Session, Sessions } from './sessions.ts';
import { isoAt } from './tokens.ts';
import { checkAvatar, checkPassword, insertUser, toUser, userByEmail, validEmail, type User } from './users.ts';

/** A user and a new session: the answer of every sign-in. */
export interface SignedIn {
  user: User;
  session: Session;
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
  constructor(private readonly d: { store: Store; clock: Clock; sessions: Sessions }) {}

  /** 201: a new account with a password, signed in. 400 `weak_password`, 409 `conflict`. */
  async signUp(databaseId: string, rawEmail: string, password: string, name: string | undefined): Promise<SignedIn> {
    const { store, clock, sessions } = this.d;
    const email = validEmail(rawEmail);
    checkPassword(password);
    const taken = () => new ApiError('conflict', 'An account with this e-mail already exists');
    if (await userByEmail(store, databaseId, email)) throw taken();
    const passwordHash = await hashPassword(password);
    return store.transaction(async (tx) => {
      const row = await insertUser(tx, databaseId, { email, name: name ?? null, passwordHash, emailVerified: false }, isoAt(clock));
      if (!row) throw taken(); // a concurrent sign-up won
      return { user: toUser(row), session: await sessions.create(tx, databaseId, row.id) };
    });
  }

  /**
   * 200 with a new session, or 401 `invalid_credentials`. An unknown e-mail and an account without
   * a password are checked against a dummy hash, so every failure takes one argon2 verification.
   */
  async signIn(databaseId: string, email: string, password: string): Promise<SignedIn> {
    const { store, sessions } = this.d;
    const row = await userByEmail(store, databaseId, email);
    const ok = await verifyPassword(row?.password_hash ?? undefined, password);
    if (!ok || !row) throw new ApiError('invalid_credentials', 'Wrong e-mail or password');
    return { user: toUser(row), session: await sessions.create(store, databaseId, row.id) };
  }

  /** The signed-in user, or 401 `invalid_session`. */
  current(databaseId: string, token: string | undefined): Promise<Current> {
    return this.d.sessions.resolve(databaseId, token);
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
}

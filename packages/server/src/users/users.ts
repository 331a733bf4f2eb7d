import { isHttpUrl } from '../http/urls.ts';
import { ApiError } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import { isObject, type JsonObject } from '../json/merge-patch.ts';
import type { Queryable } from '../store/store.ts';

/** An end user as the API shows it (API.md §2, §2.1): never a password hash. */
export interface User {
  id: string;
  email: string;
  name: string | null;
  avatar: string | null;
  emailVerified: boolean;
  /** Set only with a secret key or by an operator (user-admin.ts); the user reads it. */
  appMetadata: JsonObject;
  /** A disabled user cannot sign in, and no session of theirs resolves. */
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A users row, password hash included: stays inside the auth folder. */
export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  avatar: string | null;
  password_hash: string | null;
  email_verified: number | boolean;
  /** A JSON object: JSON text on SQLite, already parsed on PostgreSQL (jsonb). */
  app_metadata: string | JsonObject;
  disabled: number | boolean;
  created_at: string;
  updated_at: string;
}

export const USER_COLUMNS = 'id, email, name, avatar, password_hash, email_verified, app_metadata, disabled, created_at, updated_at';

/** Whether a users row is disabled (0/1 on both engines). */
export const isDisabled = (r: Pick<UserRow, 'disabled'>): boolean => Boolean(Number(r.disabled));

/** The app_metadata column as an object, whichever engine read it. */
export function appMetadataOf(v: UserRow['app_metadata'] | undefined): JsonObject {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return isObject(parsed) ? parsed : {};
}

export const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  avatar: r.avatar,
  emailVerified: Boolean(Number(r.email_verified)),
  appMetadata: appMetadataOf(r.app_metadata),
  disabled: isDisabled(r),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Trims and lower-cases an e-mail (the account key); no format check. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Normalizes an e-mail that will be stored or mailed to; 400 `validation_failed` unless it looks like one. */
export function validEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (email.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new ApiError('validation_failed', 'email must be an e-mail address', [{ path: '/email', message: 'must be an e-mail address' }]);
  }
  return email;
}

/** API.md §2: 8 to 256 characters (code points), else 400 `weak_password`. */
export function checkPassword(password: string): void {
  const length = [...password].length;
  if (length < 8 || length > 256) throw new ApiError('weak_password', 'The password must be 8 to 256 characters long');
}

/** The longest avatar URL kept. */
const MAX_AVATAR_URL = 2048;

/** avatar: an http(s) URL of at most 2048 characters, or null (a data: URL is neither: host the image). */
export function checkAvatar(avatar: string | null | undefined): void {
  if (avatar === null || avatar === undefined) return;
  if (avatar.length > MAX_AVATAR_URL || !isHttpUrl(avatar)) {
    const message = `must be an http(s) URL of at most ${MAX_AVATAR_URL} characters (a data: URL is not one: host the image and link it), or null`;
    throw new ApiError('validation_failed', `avatar ${message}`, [{ path: '/avatar', message }]);
  }
}

export async function userByEmail(q: Queryable, databaseId: string, email: string): Promise<UserRow | undefined> {
  return q.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE database_id = ? AND email = ?`, [databaseId, email]);
}

export async function userById(q: Queryable, databaseId: string, id: string): Promise<UserRow | undefined> {
  return q.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE database_id = ? AND id = ?`, [databaseId, id]);
}

/** What a new account starts with. */
export interface NewUser {
  email: string;
  name?: string | null;
  avatar?: string | null;
  passwordHash?: string | null;
  emailVerified: boolean;
}

/** Inserts a user unless the e-mail is taken in that database; returns the row, or undefined when taken. */
export async function insertUser(q: Queryable, databaseId: string, u: NewUser, now: string): Promise<UserRow | undefined> {
  const row: UserRow = {
    id: newId(),
    email: u.email,
    name: u.name ?? null,
    avatar: u.avatar ?? null,
    password_hash: u.passwordHash ?? null,
    email_verified: u.emailVerified ? 1 : 0,
    app_metadata: {},
    disabled: 0,
    created_at: now,
    updated_at: now,
  };
  const inserted = await q.get(
    `INSERT INTO users (id, database_id, email, name, avatar, password_hash, email_verified, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (database_id, email) DO NOTHING RETURNING id`,
    [row.id, databaseId, row.email, row.name, row.avatar, row.password_hash, row.email_verified, now, now],
  );
  return inserted ? row : undefined;
}

/**
 * The account of an e-mail, made from `u` when there is none. `created` says which: an account
 * that already existed (made meanwhile by a concurrent request included) is one someone else may
 * hold, and the caller judges it as such.
 */
export async function findOrCreateUser(q: Queryable, databaseId: string, u: NewUser, now: string): Promise<{ user: UserRow; created: boolean }> {
  const existing = await userByEmail(q, databaseId, u.email);
  const created = existing ? undefined : await insertUser(q, databaseId, u, now);
  const user = existing ?? created ?? (await userByEmail(q, databaseId, u.email));
  if (!user) throw new Error('the account vanished while signing in');
  return { user, created: created !== undefined };
}

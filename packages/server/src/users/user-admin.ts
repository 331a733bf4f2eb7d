import { ApiError, notFound } from '../errors.ts';
import type { Clock } from '../infra/clock.ts';
import type { JsonObject } from '../json/merge-patch.ts';
import type { Param, Queryable, Store } from '../store/store.ts';
import { isoAt } from '../auth/tokens.ts';
import { checkAvatar, toUser, USER_COLUMNS, type User, type UserRow } from './users.ts';

/**
 * The most an `appMetadata` object may weigh, as compact JSON (UTF-8). It is read on every request
 * a rule with `{"$auth": "appMetadata.…"}` judges and held for every socket of a signed-in user, so
 * it is meant for roles, plans and team ids, not for documents: those belong in a collection.
 */
export const APP_METADATA_MAX_BYTES = 16 * 1024;

/** One page of a database's users (API.md §2.1), oldest first. */
export interface UserList {
  users: AdminUser[];
  total: number;
}

/** A user as the app's backend sees it: with `mfa`, whether sign-in asks a second step (API.md §2.2). */
export type AdminUser = User & { mfa: boolean };

/** Selects `mfa` beside a users row: whether the user has a verified second factor. */
const MFA_FLAG = '(SELECT count(*) FROM mfa_factors f WHERE f.user_id = users.id AND f.verified = 1) AS mfa';
const withMfa = (r: UserRow & { mfa: number | string }): AdminUser => ({ ...toUser(r), mfa: Number(r.mfa) > 0 });

/** What `PATCH /auth/users/:id` may change; `appMetadata` replaces the stored object whole. */
export interface UserPatch {
  name?: string | null;
  avatar?: string | null;
  emailVerified?: boolean;
  appMetadata?: JsonObject;
  disabled?: boolean;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern escaped with `\`. */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const missing = (userId: string) => notFound(`User '${userId}' not found`);

/**
 * Ends everything a user is signed in with: the realtime tokens asked for with their sessions, then
 * the sessions. The grant check of realtime (realtime/realtime.ts) closes their open sockets with
 * 4401 on every instance, as it does after a sign-out; on PostgreSQL the deletes also reach every
 * instance's session cache (store/migrations/0007).
 */
export async function endEverySession(tx: Queryable, userId: string): Promise<void> {
  await tx.run('DELETE FROM realtime_tokens WHERE user_session IN (SELECT token_hash FROM user_sessions WHERE user_id = ?)', [userId]);
  await tx.run('DELETE FROM user_sessions WHERE user_id = ?', [userId]);
}

/**
 * The app's backend managing its users (API.md §2.1: `/auth/users`, secret key or operator). The
 * dashboard's Users page calls the same routes with the operator token and X-Database-Id.
 */
export class UserAdmin {
  constructor(private readonly d: { store: Store; clock: Clock }) {}

  /** Users whose e-mail starts with `email` (lower-cased; e-mails are stored lower-cased), oldest first. */
  async list(databaseId: string, opts: { limit: number; offset: number; email?: string }): Promise<UserList> {
    const { store } = this.d;
    const params: Param[] = [databaseId];
    let where = 'database_id = ?';
    const prefix = opts.email?.trim().toLowerCase();
    if (prefix) {
      where += " AND email LIKE ? ESCAPE '\\'";
      params.push(`${likeLiteral(prefix)}%`);
    }
    const count = await store.get<{ n: number | string }>(`SELECT count(*) AS n FROM users WHERE ${where}`, params);
    const rows = await store.all<UserRow & { mfa: number }>(
      `SELECT ${USER_COLUMNS}, ${MFA_FLAG} FROM users WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`,
      [...params, opts.limit, opts.offset],
    );
    return { users: rows.map(withMfa), total: Number(count?.n ?? 0) };
  }

  /** One user; 404 `not_found` when the database has none with this id. */
  async get(databaseId: string, userId: string): Promise<AdminUser> {
    const row = await this.d.store.get<UserRow & { mfa: number }>(`SELECT ${USER_COLUMNS}, ${MFA_FLAG} FROM users WHERE database_id = ? AND id = ?`, [
      databaseId,
      userId,
    ]);
    if (!row) throw missing(userId);
    return withMfa(row);
  }

  /**
   * Changes the given fields in one transaction. `disabled: true` also ends every session and
   * realtime token of the user (their sockets close); `appMetadata` is replaced whole.
   */
  async update(databaseId: string, userId: string, patch: UserPatch): Promise<User> {
    const { store, clock } = this.d;
    checkAvatar(patch.avatar);
    const appMetadata = patch.appMetadata === undefined ? undefined : JSON.stringify(patch.appMetadata);
    if (appMetadata !== undefined && Buffer.byteLength(appMetadata) > APP_METADATA_MAX_BYTES) {
      throw new ApiError('payload_too_large', `appMetadata is over ${APP_METADATA_MAX_BYTES} bytes as JSON`);
    }
    return store.transaction(async (tx) => {
      const row = await tx.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE database_id = ? AND id = ?${store.dialect.lockRows}`, [databaseId, userId]);
      if (!row) throw missing(userId);
      const sets: string[] = [];
      const params: Param[] = [];
      const set = (column: string, value: Param, placeholder = '?') => {
        sets.push(`${column} = ${placeholder}`);
        params.push(value);
      };
      if (patch.name !== undefined) set('name', patch.name);
      if (patch.avatar !== undefined) set('avatar', patch.avatar);
      if (patch.emailVerified !== undefined) set('email_verified', patch.emailVerified ? 1 : 0);
      if (appMetadata !== undefined) set('app_metadata', appMetadata, store.dialect.jsonParam);
      if (patch.disabled !== undefined) set('disabled', patch.disabled ? 1 : 0);
      if (sets.length === 0) return toUser(row);
      set('updated_at', isoAt(clock));
      const updated = await tx.get<UserRow>(`UPDATE users SET ${sets.join(', ')} WHERE id = ? RETURNING ${USER_COLUMNS}`, [...params, userId]);
      if (!updated) throw missing(userId);
      if (patch.disabled) await endEverySession(tx, userId);
      return toUser(updated);
    });
  }

  /** Deletes a user (`removeUser`); 404 `not_found` when the database has none with this id. */
  async delete(databaseId: string, userId: string): Promise<void> {
    await this.d.store.transaction(async (tx) => {
      if (!(await removeUser(tx, databaseId, userId))) throw missing(userId);
    });
  }
}

/**
 * Deletes a user inside the caller's transaction: the account, its sessions and realtime tokens,
 * its linked identities and its unused e-mail links (keyed by e-mail: a magic link would otherwise
 * make the account again). Its documents stay: they belong to the app. False when there was none.
 */
export async function removeUser(tx: Queryable, databaseId: string, userId: string): Promise<boolean> {
  const row = await tx.get<{ email: string }>('SELECT email FROM users WHERE database_id = ? AND id = ?', [databaseId, userId]);
  if (!row) return false;
  await endEverySession(tx, userId);
  await tx.run('DELETE FROM auth_tokens WHERE database_id = ? AND email = ?', [databaseId, row.email]);
  // Identities go with the user (ON DELETE CASCADE).
  await tx.run('DELETE FROM users WHERE database_id = ? AND id = ?', [databaseId, userId]);
  return true;
}

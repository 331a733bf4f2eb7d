import { notFound } from '../errors.ts';
import { nowIso } from '../ids/ids.ts';
import type { Store } from '../store/store.ts';
import { toUser, USER_COLUMNS, userById, type User, type UserRow } from '../auth/users.ts';

/** A user as the Users page shows it: the §2 user, its live sessions and linked providers. */
export interface UserDetail {
  user: User;
  activeSessions: number;
  providers: string[];
}

/** One page of a database's end users. */
export interface UserPage {
  users: User[];
  total: number;
  limit: number;
  offset: number;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern escaped with `\`. */
const likeLiteral = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Lists a database's users, newest first; `search` keeps those whose e-mail contains it
 * (e-mails are stored lower-cased, so the search is case-insensitive on both engines).
 */
export async function listUsers(store: Store, databaseId: string, opts: { search?: string; limit: number; offset: number }): Promise<UserPage> {
  const params: string[] = [databaseId];
  let where = 'database_id = ?';
  const search = opts.search?.trim().toLowerCase();
  if (search) {
    where += " AND email LIKE ? ESCAPE '\\'";
    params.push(`%${likeLiteral(search)}%`);
  }
  const count = await store.get<{ n: number }>(`SELECT count(*) AS n FROM users WHERE ${where}`, params);
  const rows = await store.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [
    ...params,
    opts.limit,
    opts.offset,
  ]);
  return { users: rows.map(toUser), total: count?.n ?? 0, limit: opts.limit, offset: opts.offset };
}

async function userRow(store: Store, databaseId: string, userId: string): Promise<UserRow> {
  const row = await userById(store, databaseId, userId);
  if (!row) throw notFound(`User '${userId}' not found`);
  return row;
}

/** One user with its live session count and linked OAuth providers; 404 when absent. */
export async function getUser(store: Store, databaseId: string, userId: string): Promise<UserDetail> {
  const row = await userRow(store, databaseId, userId);
  const sessions = await store.get<{ n: number }>('SELECT count(*) AS n FROM user_sessions WHERE database_id = ? AND user_id = ? AND expires_at > ?', [
    databaseId,
    userId,
    nowIso(),
  ]);
  const providers = await store.all<{ provider: string }>(
    'SELECT DISTINCT provider FROM user_identities WHERE database_id = ? AND user_id = ? ORDER BY provider',
    [databaseId, userId],
  );
  return { user: toUser(row), activeSessions: sessions?.n ?? 0, providers: providers.map((p) => p.provider) };
}

/** Deletes a user with its sessions, identities and pending e-mail tokens; 404 when absent. */
export async function deleteUser(store: Store, databaseId: string, userId: string): Promise<void> {
  await store.transaction(async (tx) => {
    const row = await tx.get<{ email: string }>('SELECT email FROM users WHERE database_id = ? AND id = ?', [databaseId, userId]);
    if (!row) throw notFound(`User '${userId}' not found`);
    // Sessions and identities go with the user (ON DELETE CASCADE); unused reset and magic-link
    // tokens are keyed by e-mail, and would otherwise let someone recreate the account.
    await tx.run('DELETE FROM auth_tokens WHERE database_id = ? AND email = ?', [databaseId, row.email]);
    await tx.run('DELETE FROM users WHERE database_id = ? AND id = ?', [databaseId, userId]);
  });
}

/** Ends every session of a user ("sign out everywhere"); returns how many were live. */
export async function signOutUser(store: Store, databaseId: string, userId: string): Promise<number> {
  await userRow(store, databaseId, userId);
  const live = await store.get<{ n: number }>('SELECT count(*) AS n FROM user_sessions WHERE database_id = ? AND user_id = ? AND expires_at > ?', [
    databaseId,
    userId,
    nowIso(),
  ]);
  await store.run('DELETE FROM user_sessions WHERE database_id = ? AND user_id = ?', [databaseId, userId]);
  return live?.n ?? 0;
}

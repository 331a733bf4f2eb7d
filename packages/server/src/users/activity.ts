import { nowIso } from '../ids/ids.ts';
import type { Store } from '../store/store.ts';

/**
 * What the dashboard's Users page shows beside the §2.1 user (GET /auth/users/:id, which lists,
 * changes and deletes users for the dashboard too): how many sessions the user has live and which
 * providers are linked, and "sign out everywhere". Operator only; the caller checked the user.
 */
export interface UserActivity {
  activeSessions: number;
  providers: string[];
}

/** The live session count and linked OAuth providers of a user. */
export async function userActivity(store: Store, databaseId: string, userId: string): Promise<UserActivity> {
  const sessions = await store.get<{ n: number | string }>('SELECT count(*) AS n FROM user_sessions WHERE database_id = ? AND user_id = ? AND expires_at > ?', [
    databaseId,
    userId,
    nowIso(),
  ]);
  const providers = await store.all<{ provider: string }>(
    'SELECT DISTINCT provider FROM user_identities WHERE database_id = ? AND user_id = ? ORDER BY provider',
    [databaseId, userId],
  );
  return { activeSessions: Number(sessions?.n ?? 0), providers: providers.map((p) => p.provider) };
}

/** Ends every session of a user ("sign out everywhere"); returns how many were live. */
export async function signOutUser(store: Store, databaseId: string, userId: string): Promise<number> {
  return store.transaction(async (tx) => {
    const live = await tx.get<{ n: number | string }>('SELECT count(*) AS n FROM user_sessions WHERE database_id = ? AND user_id = ? AND expires_at > ?', [
      databaseId,
      userId,
      nowIso(),
    ]);
    await tx.run('DELETE FROM user_sessions WHERE database_id = ? AND user_id = ?', [databaseId, userId]);
    return Number(live?.n ?? 0);
  });
}

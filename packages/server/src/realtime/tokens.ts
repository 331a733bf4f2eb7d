import { ApiError } from '../errors.ts';
import { hashSecret, randomBase62 } from '../keys/key-format.ts';
import { checkCollection } from '../documents/names.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';

/** Realtime tokens are valid for an hour and for several connections (§3). */
export const TOKEN_TTL_MS = 3600_000;

/** What a realtime token grants. */
export interface RealtimeGrant {
  databaseId: string;
  collections: string[];
}

/** Validates the requested collections: 1..max valid names, de-duplicated. */
export function checkCollections(collections: string[], max: number): string[] {
  if (collections.length === 0 || collections.length > max) {
    throw new ApiError('validation_failed', `collections must list 1 to ${max} names`, [{ path: '/collections', message: `1 to ${max} names` }]);
  }
  return [...new Set(collections.map(checkCollection))];
}

/** Issues a token for a database's collections; only its hash is stored. */
export async function createRealtimeToken(store: Store, clock: Clock, grant: RealtimeGrant, keyId: string | undefined) {
  const token = `rt_${randomBase62(43)}`;
  const now = clock.now();
  const expiresAt = new Date(now + TOKEN_TTL_MS).toISOString();
  await store.run(
    `INSERT INTO realtime_tokens (token_hash, database_id, key_id, collections, expires_at, created_at) VALUES (?, ?, ?, ${store.dialect.jsonParam}, ?, ?)`,
    [hashSecret(token), grant.databaseId, keyId ?? null, JSON.stringify(grant.collections), expiresAt, new Date(now).toISOString()],
  );
  return { token, expiresAt };
}

/** The grant of a live token whose key (if any) is not revoked, or undefined. */
export async function resolveRealtimeToken(store: Store, clock: Clock, token: string): Promise<RealtimeGrant | undefined> {
  if (!/^rt_[A-Za-z0-9]{43}$/.test(token)) return undefined;
  const row = await store.get<{ database_id: string; collections: string }>(
    `SELECT t.database_id, ${store.dialect.jsonText('t.collections')} AS collections FROM realtime_tokens t
     LEFT JOIN api_keys k ON k.id = t.key_id
     WHERE t.token_hash = ? AND t.expires_at > ? AND (t.key_id IS NULL OR (k.id IS NOT NULL AND k.revoked_at IS NULL))`,
    [hashSecret(token), new Date(clock.now()).toISOString()],
  );
  return row && { databaseId: row.database_id, collections: JSON.parse(row.collections) as string[] };
}

/** Deletes expired tokens. */
export async function pruneRealtimeTokens(store: Store, clock: Clock): Promise<void> {
  await store.run('DELETE FROM realtime_tokens WHERE expires_at <= ?', [new Date(clock.now()).toISOString()]);
}

import { ApiError } from '../errors.ts';
import { hashSecret, randomBase62 } from '../keys/key-format.ts';
import { checkCollection } from '../documents/names.ts';
import type { Store } from '../store/store.ts';
import type { Clock } from '../infra/clock.ts';
import { isoAt } from '../auth/tokens.ts';

/** Realtime tokens are valid for an hour and for several connections (§3). */
export const TOKEN_TTL_MS = 3600_000;

/**
 * What a token was granted through, recorded with it so that the grant can be checked again for
 * as long as a socket uses it: the key, the operator session (an operator token with
 * X-Database-Id acts as a secret key) and, for a user's token (API.md §10), the user session.
 * The sessions are stored as the hashes their own tables are keyed by.
 */
export interface TokenSource {
  keyId?: string;
  operatorSessionHash?: string;
  userSessionHash?: string;
}

/** What a live token grants, and who it counts against in the rate limits. */
export interface RealtimeGrant {
  /** The stored hash of the token: what its sockets are grouped and re-checked by. */
  tokenHash: string;
  databaseId: string;
  collections: string[];
  keyId?: string;
  operatorId?: string;
  /**
   * A token asked for with a public key is subject to the database's rules (API.md §10); one of a
   * secret key or an operator is not.
   */
  subjectToRules: boolean;
  /** The user a public-key token belongs to (through its live user session); undefined: nobody. */
  userId?: string;
}

/** Validates the requested collections: 1..max valid names, de-duplicated. */
export function checkCollections(collections: string[], max: number): string[] {
  if (collections.length === 0 || collections.length > max) {
    throw new ApiError('validation_failed', `collections must list 1 to ${max} names (the server's LIMIT_REALTIME_COLLECTIONS)`, [
      { path: '/collections', message: `1 to ${max} names` },
    ]);
  }
  return [...new Set(collections.map(checkCollection))];
}

/** Issues a token for a database's collections; only its hash is stored, with what granted it. */
export async function createRealtimeToken(
  store: Store,
  clock: Clock,
  grant: { databaseId: string; collections: string[] },
  source: TokenSource,
): Promise<{ token: string; expiresAt: string }> {
  const token = `rt_${randomBase62(43)}`;
  const now = clock.now();
  const expiresAt = new Date(now + TOKEN_TTL_MS).toISOString();
  await store.run(
    `INSERT INTO realtime_tokens (token_hash, database_id, key_id, operator_session, user_session, collections, expires_at, created_at)
     VALUES (?, ?, ?, ?, ?, ${store.dialect.jsonParam}, ?, ?)`,
    [
      hashSecret(token),
      grant.databaseId,
      source.keyId ?? null,
      source.operatorSessionHash ?? null,
      source.userSessionHash ?? null,
      JSON.stringify(grant.collections),
      expiresAt,
      new Date(now).toISOString(),
    ],
  );
  return { token, expiresAt };
}

/**
 * The one definition of a live grant, shared by the upgrade and the re-check of open sockets: the
 * token has not expired, its key (if any) exists and is not revoked, and the operator session and
 * user session it came through (if any) have not ended, nor been left to a disabled user (API.md
 * §2.1; disabling also deletes the sessions, this covers one that outlived it). Binds the current
 * time three times.
 */
const LIVE_GRANT = `realtime_tokens t
  LEFT JOIN api_keys k ON k.id = t.key_id
  LEFT JOIN operator_sessions os ON os.token_hash = t.operator_session
  LEFT JOIN user_sessions us ON us.token_hash = t.user_session
  LEFT JOIN users tu ON tu.id = us.user_id
  WHERE t.expires_at > ?
    AND (t.key_id IS NULL OR (k.id IS NOT NULL AND k.revoked_at IS NULL))
    AND (t.operator_session IS NULL OR os.expires_at > ?)
    AND (t.user_session IS NULL OR (us.expires_at > ? AND tu.disabled = 0))`;

/** A syntactically possible realtime token (anything else is refused without a query). */
export const isTokenShaped = (token: string): boolean => /^rt_[A-Za-z0-9]{43}$/.test(token);

/** The grant of a live token, or undefined. Rejects when the store fails (the caller answers 503). */
export async function resolveRealtimeToken(store: Store, clock: Clock, token: string): Promise<RealtimeGrant | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const now = isoAt(clock);
  const tokenHash = hashSecret(token);
  const row = await store.get<{
    database_id: string;
    collections: string;
    key_id: string | null;
    key_kind: string | null;
    operator_id: string | null;
    user_id: string | null;
  }>(
    `SELECT t.database_id, ${store.dialect.jsonText('t.collections')} AS collections, t.key_id, k.kind AS key_kind, os.operator_id, us.user_id
     FROM ${LIVE_GRANT} AND t.token_hash = ?`,
    [now, now, now, tokenHash],
  );
  if (!row) return undefined;
  return {
    tokenHash,
    databaseId: row.database_id,
    collections: JSON.parse(row.collections) as string[],
    keyId: row.key_id ?? undefined,
    operatorId: row.operator_id ?? undefined,
    subjectToRules: row.key_kind === 'public',
    userId: row.user_id ?? undefined,
  };
}

/** Hashes per query of `liveTokenHashes`: one query for an instance's sockets unless it holds very many tokens. */
const CHECK_BATCH = 1000;

/**
 * Which of these token hashes still grant a socket. One query per batch, the hashes bound as one
 * JSON array (the statement text stays the same whatever their number, so PostgreSQL plans it once).
 */
export async function liveTokenHashes(store: Store, clock: Clock, hashes: string[]): Promise<Set<string>> {
  const live = new Set<string>();
  // The hashes bound as one JSON array: the store's subquery of its strings (JsonSql.textList).
  const listed = store.dialect.json.textList();
  for (let i = 0; i < hashes.length; i += CHECK_BATCH) {
    const now = isoAt(clock);
    const rows = await store.all<{ token_hash: string }>(`SELECT t.token_hash FROM ${LIVE_GRANT} AND t.token_hash IN ${listed}`, [
      now,
      now,
      now,
      JSON.stringify(hashes.slice(i, i + CHECK_BATCH)),
    ]);
    for (const r of rows) live.add(r.token_hash);
  }
  return live;
}

/** Deletes expired tokens. */
export async function pruneRealtimeTokens(store: Store, clock: Clock): Promise<void> {
  await store.run('DELETE FROM realtime_tokens WHERE expires_at <= ?', [isoAt(clock)]);
}

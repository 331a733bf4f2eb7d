import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import type { Clock } from '../infra/clock.ts';
import type { Queryable, Store } from '../store/store.ts';
import type { InvalidatedCache } from '../infra/invalidation/cache.ts';
import { generateKey, hashSecret, keyHint, type KeyKind } from './key-format.ts';

/**
 * A key as listings show it: never a secret key itself. A public key is not a secret (it goes into
 * browser code), so listings include it whole as `key`; public keys created before migration 0009
 * were stored as a hash only and are listed without `key`.
 */
interface KeyRecord {
  id: string;
  kind: KeyKind;
  name: string | null;
  hint: string;
  key?: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** What a valid key resolves to on every request. */
export interface KeyPrincipal {
  keyId: string;
  databaseId: string;
  kind: KeyKind;
}

interface KeyRow {
  id: string;
  kind: KeyKind;
  name: string | null;
  hint: string;
  public_key: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const toRecord = (r: KeyRow): KeyRecord => ({
  id: r.id,
  kind: r.kind,
  name: r.name,
  hint: r.hint,
  // Only a public key is ever kept whole; the kind check guards against a stray value.
  ...(r.kind === 'public' && r.public_key ? { key: r.public_key } : {}),
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/**
 * Creates a key. A secret key is in the answer and nowhere else, ever (only its hash is stored); a
 * public key is also kept whole, so listings can show it again.
 */
export async function createKey(q: Queryable, clock: Clock, databaseId: string, kind: KeyKind, name: string | null) {
  const key = generateKey(kind);
  const record: KeyRecord = { id: newId(), kind, name, hint: keyHint(key), createdAt: new Date(clock.now()).toISOString(), lastUsedAt: null, revokedAt: null };
  await q.run('INSERT INTO api_keys (id, database_id, kind, name, key_hash, hint, public_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
    record.id,
    databaseId,
    kind,
    name,
    hashSecret(key),
    record.hint,
    kind === 'public' ? key : null,
    record.createdAt,
  ]);
  return { ...record, key };
}

export async function listKeys(store: Store, databaseId: string): Promise<KeyRecord[]> {
  const rows = await store.all<KeyRow>(
    'SELECT id, kind, name, hint, public_key, created_at, last_used_at, revoked_at FROM api_keys WHERE database_id = ? ORDER BY created_at, id',
    [databaseId],
  );
  return rows.map(toRecord);
}

/**
 * Revokes a key: the next request with it gets 401, on every instance. Caches hear of it from the
 * store itself (infra/invalidation); the route answers after `Invalidation.barrier()`.
 */
export async function revokeKey(store: Store, clock: Clock, databaseId: string, keyId: string): Promise<void> {
  const changed = await store.run('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? AND database_id = ?', [
    new Date(clock.now()).toISOString(),
    keyId,
    databaseId,
  ]);
  if (changed === 0) throw notFound(`Key '${keyId}' not found`);
}

/**
 * Resolves a presented key. The lookup is by SHA-256 of the key, so comparing the stored hash
 * leaks nothing about the key itself (an attacker cannot steer the hash's bytes). With a cache,
 * a live key is remembered under its hash until it is revoked (infra/invalidation/cache.ts).
 */
export async function resolveKey(store: Store, clock: Clock, presented: string, cache?: InvalidatedCache<KeyPrincipal>): Promise<KeyPrincipal | undefined> {
  if (!/^svc_(sk|pk)_[A-Za-z0-9]{32,128}$/.test(presented)) return undefined;
  const hash = hashSecret(presented);
  const lookup = async () => {
    const row = await store.get<{ id: string; database_id: string; kind: KeyKind }>(
      'SELECT id, database_id, kind FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL',
      [hash],
    );
    return row && { value: Object.freeze({ keyId: row.id, databaseId: row.database_id, kind: row.kind }) };
  };
  return cache ? cache.get(`key:${hash}`, clock.now(), lookup) : (await lookup())?.value;
}

export function parseKind(kind: unknown): KeyKind {
  if (kind === 'secret' || kind === 'public') return kind;
  throw new ApiError('validation_failed', 'kind must be "secret" or "public"', [{ path: '/kind', message: 'must be "secret" or "public"' }]);
}

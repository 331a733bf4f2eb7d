import { ApiError, notFound } from '../errors.ts';
import { newId } from '../ids/ids.ts';
import { systemClock, type Clock } from '../infra/clock.ts';
import { createKey } from '../keys/keys.ts';
import type { Store } from '../store/store.ts';
import { EMPTY_SETTINGS, patchSettings, publicSettings, type Settings } from './settings.ts';
import { changedSearchCollections } from '../documents/search.ts';
import { scheduleSearchBuilds, wakeSearchBuilders } from '../documents/search-builds.ts';
import { rulesSaved } from '../documents/rule-indexes.ts';

interface DatabaseRow {
  id: string;
  name: string;
  settings: string;
  created_at: string;
  updated_at: string;
}

/** A database as the management API shows it (no client secrets). */
function toDatabase(r: DatabaseRow) {
  return { id: r.id, name: r.name, settings: publicSettings(JSON.parse(r.settings) as Settings), createdAt: r.created_at, updatedAt: r.updated_at };
}

export type Database = ReturnType<typeof toDatabase>;

function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100) {
    throw new ApiError('validation_failed', 'name must be 1 to 100 characters', [{ path: '/name', message: 'must be 1 to 100 characters' }]);
  }
  return name.trim();
}

const columns = (store: Store) => `id, name, ${store.dialect.jsonText('settings')} AS settings, created_at, updated_at`;

/** Creates a database, its first secret key and its first public key, together (`clock`: the app's; tools and tests may leave it). */
export async function createDatabase(store: Store, name: unknown, clock: Clock = systemClock) {
  const now = new Date(clock.now()).toISOString();
  const row: DatabaseRow = { id: newId(), name: checkName(name), settings: JSON.stringify(EMPTY_SETTINGS), created_at: now, updated_at: now };
  const [key, publicKey] = await store.transaction(async (tx) => {
    await tx.run(`INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES (?, ?, ${store.dialect.jsonParam}, ?, ?)`, [
      row.id,
      row.name,
      row.settings,
      now,
      now,
    ]);
    return [await createKey(tx, clock, row.id, 'secret', 'default'), await createKey(tx, clock, row.id, 'public', 'default')] as const;
  });
  const shown = (k: typeof key) => ({ id: k.id, kind: k.kind, name: k.name, key: k.key, createdAt: k.createdAt });
  return { database: toDatabase(row), key: shown(key), publicKey: shown(publicKey) };
}

export async function listDatabases(store: Store): Promise<Database[]> {
  return (await store.all<DatabaseRow>(`SELECT ${columns(store)} FROM databases ORDER BY created_at, id`)).map(toDatabase);
}

async function getRow(store: Store, id: string): Promise<DatabaseRow> {
  const row = await store.get<DatabaseRow>(`SELECT ${columns(store)} FROM databases WHERE id = ?`, [id]);
  if (!row) throw notFound(`Database '${id}' not found`);
  return row;
}

export async function getDatabase(store: Store, id: string): Promise<Database> {
  return toDatabase(await getRow(store, id));
}

/** The stored settings, client secrets included: for server-side use only. */
export async function getSettings(store: Store, id: string): Promise<Settings> {
  return JSON.parse((await getRow(store, id)).settings) as Settings;
}

/** Renames and/or merges settings (JSON Merge Patch). */
export async function updateDatabase(store: Store, clock: Clock, id: string, patch: { name?: unknown; settings?: unknown }): Promise<Database> {
  return store.transaction(async (tx) => {
    const row = await tx.get<DatabaseRow>(`SELECT ${columns(store)} FROM databases WHERE id = ?`, [id]);
    if (!row) throw notFound(`Database '${id}' not found`);
    const name = patch.name === undefined ? row.name : checkName(patch.name);
    const before = JSON.parse(row.settings) as Settings;
    const next = patch.settings === undefined ? before : patchSettings(before, patch.settings);
    const settings = patch.settings === undefined ? row.settings : JSON.stringify(next);
    const updated = { ...row, name, settings, updated_at: new Date(clock.now()).toISOString() };
    await tx.run(`UPDATE databases SET name = ?, settings = ${store.dialect.jsonParam}, updated_at = ? WHERE id = ?`, [name, settings, updated.updated_at, id]);
    // Collections whose search fields changed are (re)indexed in the background (documents/search-builds.ts).
    // The fields new rules filter on ask for their indexes (documents/rule-indexes.ts).
    if (next.rules !== undefined && next.rules !== before.rules) {
      const rules = next.rules;
      tx.afterCommit(() => rulesSaved(store, id, rules));
    }
    const rebuilt = changedSearchCollections(before.search, next.search);
    if (rebuilt.length) {
      await scheduleSearchBuilds(tx, id, rebuilt);
      tx.afterCommit(wakeSearchBuilders);
    }
    return toDatabase(updated);
  });
}

/**
 * Deletes a database with everything in it (keys, documents, events) by cascade, and its callers'
 * idempotency keys, which have no foreign key (migration 19: its check cost every keyed write).
 */
export async function deleteDatabase(store: Store, id: string): Promise<void> {
  const changed = await store.transaction(async (tx) => {
    const n = await tx.run('DELETE FROM databases WHERE id = ?', [id]);
    if (n) await tx.run('DELETE FROM idempotency_keys WHERE database_id = ?', [id]);
    return n;
  });
  if (changed === 0) throw notFound(`Database '${id}' not found`);
}

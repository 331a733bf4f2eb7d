import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 21 (SQLite): `idempotency_keys` without its primary key on (scope, key). That index
 * is ordered by the key, and keys as most clients make them (random UUIDs) land each on a page of
 * its own: every keyed write dirtied one more page, which its COMMIT wrote whole to the WAL and a
 * checkpoint copied again. The index of keys is kept in the server's memory instead
 * (store/sqlite/key-index.ts: built from this table when the store opens, and by every insert),
 * and the table is only appended to. SQLite runs one instance per
 * file, which makes one process's memory a place for it. `id` names the rowid the index points
 * to, so that a VACUUM keeps it. PostgreSQL logs an index insert as the entry, not the page, and
 * keeps its primary key.
 */
const statements = (d: Dialect): string[] =>
  d.name === 'sqlite'
    ? [
        `CREATE TABLE idempotency_keys_appended (
          id INTEGER PRIMARY KEY,
          scope TEXT NOT NULL,
          key TEXT NOT NULL,
          database_id TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          claimed_at TEXT NOT NULL,
          status INTEGER,
          etag TEXT,
          body TEXT
        )`,
        `INSERT INTO idempotency_keys_appended (scope, key, database_id, fingerprint, claimed_at, status, etag, body)
         SELECT scope, key, database_id, fingerprint, claimed_at, status, etag, body FROM idempotency_keys ORDER BY rowid`,
        'DROP TABLE idempotency_keys',
        'ALTER TABLE idempotency_keys_appended RENAME TO idempotency_keys',
      ]
    : [];

export const migration: Migration = { version: 21, name: 'idempotency keys indexed in memory', statements };

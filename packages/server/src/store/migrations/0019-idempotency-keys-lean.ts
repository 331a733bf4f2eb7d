import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 19: `idempotency_keys` without what every keyed write paid for and only rare work
 * used (idempotency/keys.ts). A key's row is inserted by every keyed write and read only by a retry.
 *
 * - No foreign key to `databases`: on PostgreSQL its check (a trigger and a locking read of the
 *   database's row per key row) cost a keyed insert more than the row itself; on SQLite a read of
 *   the parent per row. Deleting a database deletes its keys itself (databases/databases.ts), as
 *   the cascade did (also with a scan: `database_id` has no index). A keyed write of a database
 *   deleted meanwhile fails on the foreign keys of the rows it writes (documents, events, files);
 *   a row that outlives its database all the same (a batch of `check`s only) is pruned with the rest.
 * - SQLite: no index on `claimed_at`. Rows are appended in time order, so the rowid order is the
 *   order of `claimed_at` (to the clock's steps), and the prune walks the rowids from the oldest
 *   (keys.ts prune); the rows are copied here oldest first to start so. PostgreSQL has no such
 *   order (a heap reuses freed space), keeps the index, whose insert at its right edge is cheap.
 */
const statements = (d: Dialect): string[] =>
  d.name === 'sqlite'
    ? [
        `CREATE TABLE idempotency_keys_lean (
          scope TEXT NOT NULL,
          key TEXT NOT NULL,
          database_id TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          claimed_at TEXT NOT NULL,
          status INTEGER,
          etag TEXT,
          body TEXT,
          PRIMARY KEY (scope, key)
        )`,
        `INSERT INTO idempotency_keys_lean (scope, key, database_id, fingerprint, claimed_at, status, etag, body)
         SELECT scope, key, database_id, fingerprint, claimed_at, status, etag, body FROM idempotency_keys ORDER BY claimed_at`,
        'DROP TABLE idempotency_keys',
        'ALTER TABLE idempotency_keys_lean RENAME TO idempotency_keys',
      ]
    : ['ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_database_id_fkey'];

export const migration: Migration = { version: 19, name: 'idempotency keys lean', statements };

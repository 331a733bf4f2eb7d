import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 16: files (API.md §12).
 * - `files`: one record per stored file. `data` holds the record's fields other than id and the
 *   timestamps ({bucket, name, contentType, size, sha256, owner, metadata}), so the documents'
 *   filter and sort compiler (documents/query.ts: system columns id/created_at/updated_at, the
 *   rest a path into `data`) lists files with the §1/§1.1 language unchanged. `size` is a column
 *   as well: the per-database quota sums it. `version` is the id of the event that last wrote it.
 * - `file_jobs`: the durable queue of byte removals (a deleted file's bytes and thumbnails, a
 *   failed upload's bytes), claimed with a lease like webhook deliveries; a job is deleted once
 *   its bytes are gone, so it survives restarts and retries until done.
 * - `file_keys`: the per-database key that signs links (§12), shared by every instance.
 */
export const migration: Migration = {
  version: 16,
  name: 'files',
  statements: (d: Dialect) => [
    `CREATE TABLE files (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      bucket TEXT NOT NULL,
      id TEXT NOT NULL,
      data ${d.jsonType} NOT NULL,
      size ${d.bigintType} NOT NULL,
      version ${d.bigintType} NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (database_id, bucket, id)
    )`,
    `CREATE INDEX files_by_id ON files (database_id, id)`,
    `CREATE TABLE file_jobs (
      id TEXT PRIMARY KEY,
      prefix TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      run_at TEXT NOT NULL,
      lease_until TEXT,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX file_jobs_due ON file_jobs (run_at)`,
    `CREATE TABLE file_keys (
      database_id TEXT PRIMARY KEY REFERENCES databases(id) ON DELETE CASCADE,
      secret TEXT NOT NULL
    )`,
  ],
};

import type { Migration } from './migration.ts';

/** Migration 1: foundation. */
export const migration: Migration = {
  version: 1,
  name: 'foundation',
  statements: (d) => [
    `CREATE TABLE operators (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE operator_sessions (
      token_hash TEXT PRIMARY KEY,
      operator_id TEXT NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    // last_event_id is the per-database event counter: see changes/append.ts for why it
    // gives commit-ordered event ids on PostgreSQL.
    `CREATE TABLE databases (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      settings ${d.jsonType} NOT NULL,
      last_event_id ${d.bigintType} NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      kind TEXT NOT NULL,
      name TEXT,
      key_hash TEXT NOT NULL UNIQUE,
      hint TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_used_at TEXT,
      revoked_at TEXT
    )`,
    `CREATE INDEX api_keys_by_database ON api_keys (database_id, created_at)`,
    `CREATE TABLE documents (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      collection TEXT NOT NULL,
      id TEXT NOT NULL,
      data ${d.jsonType} NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (database_id, collection, id)
    )`,
    `CREATE INDEX documents_by_created ON documents (database_id, collection, created_at, id)`,
    `CREATE INDEX documents_by_updated ON documents (database_id, collection, updated_at, id)`,
    // Document counts per collection, kept in the writing transaction so `total` and
    // GET /collections never count rows.
    `CREATE TABLE collections (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      count ${d.bigintType} NOT NULL,
      PRIMARY KEY (database_id, name)
    )`,
    `CREATE TABLE events (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      id ${d.bigintType} NOT NULL,
      collection TEXT NOT NULL,
      type TEXT NOT NULL,
      document_id TEXT NOT NULL,
      document ${d.jsonType} NOT NULL,
      previous ${d.jsonType},
      created_at TEXT NOT NULL,
      PRIMARY KEY (database_id, id)
    )`,
    `CREATE INDEX events_by_time ON events (created_at)`,
    // Field paths that got an automatic index (documents/indexes.ts).
    `CREATE TABLE document_indexes (
      path TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
  ],
};

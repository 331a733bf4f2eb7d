import type { Migration } from './migration.ts';

/** Migration 4: realtime tokens. */
export const migration: Migration = {
  version: 4,
  name: 'realtime tokens',
  statements: (d) => [
    // Tokens for the realtime WebSocket (§3): stored hashed, valid for an hour, for several connections.
    `CREATE TABLE realtime_tokens (
      token_hash TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      key_id TEXT,
      collections ${d.jsonType} NOT NULL,
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX realtime_tokens_by_expiry ON realtime_tokens (expires_at)`,
  ],
};

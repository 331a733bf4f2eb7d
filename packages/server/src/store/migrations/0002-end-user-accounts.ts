import type { Migration } from './migration.ts';

/** Migration 2: end-user accounts. */
export const migration: Migration = {
  version: 2,
  name: 'end-user accounts',
  statements: () => [
    // email_verified is 0/1 on both engines. password_hash is NULL for accounts made by a
    // magic link or an OAuth provider until a password is set through a reset.
    `CREATE TABLE users (
      id TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      email TEXT NOT NULL,
      name TEXT,
      avatar TEXT,
      password_hash TEXT,
      email_verified INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (database_id, email)
    )`,
    // Only SHA-256 of a session token is stored; the token itself exists in the client alone.
    `CREATE TABLE user_sessions (
      token_hash TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX user_sessions_by_user ON user_sessions (user_id)`,
    `CREATE INDEX user_sessions_by_expiry ON user_sessions (expires_at)`,
    // Password-reset and magic-link tokens: hashed, single use (used_at), short-lived.
    `CREATE TABLE auth_tokens (
      token_hash TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      purpose TEXT NOT NULL,
      email TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX auth_tokens_by_expiry ON auth_tokens (expires_at)`,
    // OAuth state: hashed, single use (deleted when consumed), bound to database and redirect URL.
    `CREATE TABLE oauth_states (
      state_hash TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      redirect_url TEXT NOT NULL,
      code_verifier TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX oauth_states_by_expiry ON oauth_states (expires_at)`,
    `CREATE TABLE user_identities (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      provider_user_id TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      email TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (database_id, provider, provider_user_id)
    )`,
    `CREATE INDEX user_identities_by_user ON user_identities (user_id)`,
  ],
};

import type { Migration } from './migration.ts';

/**
 * Migration 14: second factors and passkeys (API.md §2.2). A factor, a recovery code and an
 * mfaToken belong either to an end user (`user_id`, with its `database_id`) or to an operator
 * (`operator_id`, no database): two nullable references rather than one untyped owner column, so
 * deleting the account deletes them by cascade on both engines.
 *
 * - `mfa_factors.secret` is the TOTP secret itself (base32): a code can only be checked with it, so
 *   it cannot be hashed. `last_step` is the last 30-second step accepted: a code is accepted only
 *   by an UPDATE that moves it forward, so no code works twice, whichever instance checks it.
 * - Recovery codes and mfaTokens are random, kept as SHA-256 hashes (auth/tokens.ts).
 * - `passkey_challenges` holds WebAuthn challenges (not secrets: the browser is given them), single
 *   use by DELETE … RETURNING; `user_id` binds a registration challenge to its user.
 */
export const migration: Migration = {
  version: 14,
  name: 'second factors and passkeys',
  statements: (d) => [
    `CREATE TABLE mfa_factors (
      id TEXT PRIMARY KEY,
      database_id TEXT REFERENCES databases(id) ON DELETE CASCADE,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      operator_id TEXT REFERENCES operators(id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      secret TEXT NOT NULL,
      verified INTEGER NOT NULL DEFAULT 0,
      last_step ${d.bigintType} NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`,
    'CREATE INDEX mfa_factors_by_user ON mfa_factors (user_id)',
    'CREATE INDEX mfa_factors_by_operator ON mfa_factors (operator_id)',
    `CREATE TABLE mfa_recovery_codes (
      code_hash TEXT PRIMARY KEY,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      operator_id TEXT REFERENCES operators(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL
    )`,
    'CREATE INDEX mfa_recovery_codes_by_user ON mfa_recovery_codes (user_id)',
    'CREATE INDEX mfa_recovery_codes_by_operator ON mfa_recovery_codes (operator_id)',
    `CREATE TABLE mfa_tokens (
      token_hash TEXT PRIMARY KEY,
      database_id TEXT REFERENCES databases(id) ON DELETE CASCADE,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      operator_id TEXT REFERENCES operators(id) ON DELETE CASCADE,
      failures INTEGER NOT NULL DEFAULT 0,
      expires_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    'CREATE INDEX mfa_tokens_by_expiry ON mfa_tokens (expires_at)',
    `CREATE TABLE passkeys (
      id TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      credential_id TEXT NOT NULL,
      public_key TEXT NOT NULL,
      counter ${d.bigintType} NOT NULL DEFAULT 0,
      transports TEXT,
      name TEXT,
      created_at TEXT NOT NULL,
      last_used_at TEXT,
      UNIQUE (database_id, credential_id)
    )`,
    'CREATE INDEX passkeys_by_user ON passkeys (user_id)',
    `CREATE TABLE passkey_challenges (
      id TEXT PRIMARY KEY,
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
      challenge TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`,
    'CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at)',
  ],
};

import type { Dialect } from '../store.ts';

/**
 * Numbered migrations, applied in order at start on both dialects. Never edit one that has
 * shipped: add the next number. Each returns its statements for the dialect at hand.
 *
 * Timestamps are stored as ISO 8601 text with milliseconds (`2026-11-22T10:00:00.000Z`): the
 * exact strings the API returns, ordered the same way by both engines.
 */
export interface Migration {
  version: number;
  name: string;
  statements(d: Dialect): string[];
}

export const MIGRATIONS: Migration[] = [
  {
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
  },
  {
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
  },
  {
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
  },
  {
    // Webhooks, their deliveries (the durable queue) and every attempt.
    // - webhooks.secret is kept in clear: both signature schemes need the key itself.
    // - A delivery stores the exact body it sends (payload): every attempt sends the same bytes,
    //   and pruning the change log never loses a pending delivery.
    // - lease_until/lease_token are a dispatcher's claim; an expired lease makes the row claimable
    //   again (an instance died mid-attempt).
    // - series_start is `attempts` when the current series began (0, or the count at a manual
    //   retry): a series ends as failed after WEBHOOK_MAX_ATTEMPTS attempts.
    // - (delivery_id, n) is the key of an attempt: one attempt number is recorded once.
    version: 3,
    name: 'webhooks',
    statements: () => [
      `CREATE TABLE webhooks (
        id TEXT PRIMARY KEY,
        database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        collections TEXT NOT NULL,
        description TEXT,
        enabled INTEGER NOT NULL,
        secret TEXT NOT NULL,
        disabled_reason TEXT,
        failure_streak INTEGER NOT NULL DEFAULT 0,
        failing_since TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
      `CREATE INDEX webhooks_by_database ON webhooks (database_id, created_at)`,
      `CREATE TABLE webhook_deliveries (
        id TEXT PRIMARY KEY,
        webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL,
        event TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        series_start INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_attempt_at TEXT,
        response_status INTEGER,
        lease_until TEXT,
        lease_token TEXT,
        created_at TEXT NOT NULL
      )`,
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
      `CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at)`,
      `CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at)`,
      `CREATE TABLE webhook_attempts (
        delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        at TEXT NOT NULL,
        response_status INTEGER,
        duration_ms INTEGER NOT NULL,
        error TEXT,
        response_body TEXT,
        PRIMARY KEY (delivery_id, n)
      )`,
    ],
  },
  {
    // What each realtime token was granted through, so that its open sockets can be closed when
    // that ends (realtime/tokens.ts): key_id was already there; the hashes of the operator session
    // (an operator token acting with X-Database-Id) and of the end-user session (API.md §10), as
    // operator_sessions and user_sessions are keyed. No foreign keys: a token outliving its session
    // is simply no longer live, and the hourly prune removes it.
    version: 5,
    name: 'realtime token sources',
    statements: () => [
      'ALTER TABLE realtime_tokens ADD COLUMN operator_session TEXT',
      'ALTER TABLE realtime_tokens ADD COLUMN user_session TEXT',
    ],
  },
  {
    // Which database caused each automatic index (documents/indexes.ts), so that each database
    // has its own budget of builds. NULL for indexes built before: they count for the store only.
    version: 6,
    name: 'automatic index budgets',
    statements: () => ['ALTER TABLE document_indexes ADD COLUMN database_id TEXT'],
  },
];

import type { Migration } from './migration.ts';

/** Migration 3: webhooks. */
export const migration: Migration = {
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
};

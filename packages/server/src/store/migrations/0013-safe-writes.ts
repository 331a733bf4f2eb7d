import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 13, safe writes (API.md §1.2).
 *
 * `documents.version`: the id of the event that last created or updated the document, written in
 * the same transaction as the document (documents/service.ts). Rows written before it get the id
 * of their last create or update event still in the log; a row whose events were pruned gets its
 * database's counter as it is now: a value no earlier write of it can have had, and below every
 * write to come, so `If-Match` with an older tag never matches and versions still only grow.
 *
 * `idempotency_keys`: one row per claimed `Idempotency-Key` of a caller (`scope`: the database, a
 * user, a public key or an operator) with its request's fingerprint, claimed before the write and
 * completed with the 2xx answer by the write's own transaction (idempotency/keys.ts).
 */
const statements = (d: Dialect): string[] => [
  `ALTER TABLE documents ADD COLUMN version ${d.bigintType} NOT NULL DEFAULT 0`,
  // One pass over the log, grouped (a correlated subquery per document would scan the events
  // once per document: the log has no index by document).
  `UPDATE documents SET version = last.id
   FROM (SELECT database_id, collection, document_id, max(id) AS id FROM events WHERE type <> 'document.deleted'
         GROUP BY database_id, collection, document_id) AS last
   WHERE documents.database_id = last.database_id AND documents.collection = last.collection AND documents.id = last.document_id`,
  `UPDATE documents SET version = (SELECT last_event_id FROM databases WHERE databases.id = documents.database_id) WHERE version = 0`,
  `CREATE TABLE idempotency_keys (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    status INTEGER,
    etag TEXT,
    body TEXT,
    PRIMARY KEY (scope, key)
  )`,
  `CREATE INDEX idempotency_keys_by_claimed ON idempotency_keys (claimed_at)`,
];

export const migration: Migration = { version: 13, name: 'safe writes', statements };

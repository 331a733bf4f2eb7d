import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 20 (PostgreSQL): the prune's index on `idempotency_keys.claimed_at` becomes a BRIN
 * index. The B-tree cost every keyed write an index entry (a page to dirty and log) for a read that
 * only the prune makes, now and then. A BRIN index keeps one summary per range of 128 heap pages,
 * made by VACUUM, so an insert does nothing to it. It suits the table: rows are appended in
 * `claimed_at` order, and the prune deletes the oldest, so a page freed and filled again holds
 * rows of one short stretch of time. The prune reads whole page ranges whose summary says they
 * may hold expired rows (and any range not yet summarised), instead of the B-tree's exact rows: a
 * few more pages, once in a while. SQLite has no such index since migration 19.
 */
const statements = (d: Dialect): string[] =>
  d.name === 'sqlite'
    ? []
    : ['DROP INDEX IF EXISTS idempotency_keys_by_claimed', 'CREATE INDEX idempotency_keys_by_claimed ON idempotency_keys USING brin (claimed_at)'];

export const migration: Migration = { version: 20, name: 'idempotency keys by claimed brin', statements };

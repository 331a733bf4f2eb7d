import type { Migration } from './migration.ts';

/** Migration 5: realtime token sources. */
export const migration: Migration = {
  // What each realtime token was granted through, so that its open sockets can be closed when
  // that ends (realtime/tokens.ts): key_id was already there; the hashes of the operator session
  // (an operator token acting with X-Database-Id) and of the end-user session (API.md §10), as
  // operator_sessions and user_sessions are keyed. No foreign keys: a token outliving its session
  // is simply no longer live, and the hourly prune removes it.
  version: 5,
  name: 'realtime token sources',
  statements: () => ['ALTER TABLE realtime_tokens ADD COLUMN operator_session TEXT', 'ALTER TABLE realtime_tokens ADD COLUMN user_session TEXT'],
};

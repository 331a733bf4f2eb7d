import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * What credential caches hold (infra/invalidation), as rows: the table, the writes that end or
 * change one, the tag announced and the column naming the row. Session updates are not
 * listed: the only one is `refresh`, which moves the expiry later, and a cache that remembers the
 * earlier expiry just looks the session up again then.
 */
const CACHED: Array<{ table: string; events: Array<'UPDATE' | 'DELETE'>; prefix: string; column: string }> = [
  { table: 'api_keys', events: ['DELETE'], prefix: 'key:', column: 'key_hash' },
  { table: 'user_sessions', events: ['DELETE'], prefix: 'session:', column: 'token_hash' },
  { table: 'users', events: ['UPDATE', 'DELETE'], prefix: 'user:', column: 'id' },
  { table: 'operator_sessions', events: ['DELETE'], prefix: 'operator-session:', column: 'token_hash' },
  { table: 'operators', events: ['UPDATE', 'DELETE'], prefix: 'operator:', column: 'id' },
];

/**
 * api_keys updates count only when a column a cache holds changes: `last_used_at` is written in
 * batches every 30 seconds and changes nothing a cache holds.
 */
const KEY_CHANGED = `OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.key_hash IS DISTINCT FROM NEW.key_hash
  OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.database_id IS DISTINCT FROM NEW.database_id`;

/**
 * PostgreSQL: NOTIFY `svc_invalidate` with the tags of the rows, inside the writing transaction
 * (delivered at COMMIT, never for a rollback). Statement-level with the old rows as a transition
 * table: one message per statement; past 64 rows (a purge, a deleted database) one `flush`
 * instead of an oversized payload (NOTIFY takes under 8,000 bytes).
 */
const postgres = (): string[] => [
  `CREATE FUNCTION svc_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    n integer;
    tags text;
  BEGIN
    EXECUTE format('SELECT count(*), string_agg(%L || %I, %L) FROM (SELECT %I FROM gone LIMIT 65) g', TG_ARGV[0], TG_ARGV[1], ' ', TG_ARGV[1])
      INTO n, tags;
    IF n > 64 THEN
      PERFORM pg_notify('svc_invalidate', 'flush');
    ELSIF n > 0 THEN
      PERFORM pg_notify('svc_invalidate', tags);
    END IF;
    RETURN NULL;
  END $$`,
  ...CACHED.flatMap(({ table, events, prefix, column }) =>
    events.map(
      (event) =>
        `CREATE TRIGGER ${table}_invalidate_${event.toLowerCase()} AFTER ${event} ON ${table}
     REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION svc_invalidate('${prefix}', '${column}')`,
    ),
  ),
  `CREATE FUNCTION svc_invalidate_key() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('svc_invalidate', 'key:' || OLD.key_hash);
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER api_keys_invalidate_update AFTER UPDATE ON api_keys FOR EACH ROW WHEN (${KEY_CHANGED})
   EXECUTE FUNCTION svc_invalidate_key()`,
];

/**
 * Migration 7: on PostgreSQL the store announces every write that ends or changes a credential,
 * so no path (the API, the CLI, a cascade from a deleted database, SQL by hand) can forget to:
 * infra/invalidation/invalidation.ts explains the caches this keeps honest. SQLite's are kept
 * honest by TEMP triggers of the serving process and PRAGMA data_version (infra/invalidation/sqlite.ts):
 * nothing to add to the file.
 */
export const migration: Migration = {
  version: 7,
  name: 'invalidation triggers',
  statements: (d: Dialect) => (d.name === 'postgres' ? postgres() : []),
};

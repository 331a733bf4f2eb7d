import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 11: on PostgreSQL a change of a database's settings (its access rules among them) is
 * announced like a credential's (migration 7): NOTIFY `svc_invalidate` with `database:<id>`, inside
 * the writing transaction, so the documents feature may keep a database's rules in memory
 * (documents/rule-access.ts) and still apply a change at once on every instance. `UPDATE OF
 * settings` keeps the trigger off the database row's other writes: every document write moves
 * `last_event_id` (changes/append.ts), and those must cost nothing more. SQLite hears the same writes through TEMP triggers (infra/invalidation/sqlite.ts).
 */
const postgres = (): string[] => [
  `CREATE FUNCTION svc_invalidate_database() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('svc_invalidate', 'database:' || OLD.id);
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER databases_invalidate_settings AFTER UPDATE OF settings ON databases FOR EACH ROW
   WHEN (OLD.settings IS DISTINCT FROM NEW.settings) EXECUTE FUNCTION svc_invalidate_database()`,
  `CREATE TRIGGER databases_invalidate_delete AFTER DELETE ON databases FOR EACH ROW EXECUTE FUNCTION svc_invalidate_database()`,
];

export const migration: Migration = {
  version: 11,
  name: 'settings invalidation',
  statements: (d: Dialect) => (d.name === 'postgres' ? postgres() : []),
};

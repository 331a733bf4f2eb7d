import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * PostgreSQL: the rows of `documents` and `events` go with their database by a trigger instead of
 * a foreign key. A foreign key checks every inserted row against `databases` (a row lock and a
 * lookup per document and per event: a fifth of the backend's CPU for a bulk of 100,
 * docs/performance-notes.md), and a database's writes already lock its row first: the commit
 * group's `begin` (changes/append.ts) fails when the row is gone, and holds it until COMMIT, so
 * a DELETE of the database waits for the group, then its trigger deletes what the group wrote.
 * Every other write of an event moves the database's counter first (appendWithCte), and fails
 * without the row. SQLite keeps its foreign keys: checks there are a lookup in the same file.
 */
const postgres = (): string[] => [
  'ALTER TABLE documents DROP CONSTRAINT IF EXISTS documents_database_id_fkey',
  'ALTER TABLE events DROP CONSTRAINT IF EXISTS events_database_id_fkey',
  `CREATE FUNCTION svc_delete_database_rows() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    DELETE FROM documents WHERE database_id = OLD.id;
    DELETE FROM events WHERE database_id = OLD.id;
    RETURN NULL;
  END $$`,
  'CREATE TRIGGER databases_delete_rows AFTER DELETE ON databases FOR EACH ROW EXECUTE FUNCTION svc_delete_database_rows()',
];

export const migration: Migration = {
  version: 18,
  name: 'document rows without foreign keys',
  statements: (d: Dialect) => (d.name === 'postgres' ? postgres() : []),
};

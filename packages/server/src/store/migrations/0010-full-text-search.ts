import type { Migration } from './migration.ts';

/** Migration 10: full-text search (documents/search.ts). */
export const migration: Migration = {
  version: 10,
  name: 'full-text search',
  statements: (d) => [
    // The words of each document of a collection with search fields, indexed as the dialect does it
    // (store/*/search-sql.ts: FTS5 on SQLite, a tsvector under GIN on PostgreSQL).
    ...d.search.schema,
    // Back-fills to run (documents/search-builds.ts): one per collection whose search fields changed;
    // `build` names the change (a newer one replaces it), `after_id` is how far it got.
    `CREATE TABLE search_builds (
      database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
      collection TEXT NOT NULL,
      build TEXT NOT NULL,
      after_id TEXT NOT NULL,
      PRIMARY KEY (database_id, collection)
    )`,
  ],
};

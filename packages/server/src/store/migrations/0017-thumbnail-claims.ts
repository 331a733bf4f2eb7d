import type { Migration } from './migration.ts';

/**
 * Migration 17: `file_thumb_claims`, who is making which thumbnail (API.md §12: a thumbnail is made
 * once, also when several instances are asked for it at once). A row is a claim with a lease: the
 * instance that inserted it makes the thumbnail and deletes it; the others wait for the thumbnail;
 * a claim whose instance died expires and is taken over. Rows live for the seconds of one making.
 */
export const migration: Migration = {
  version: 17,
  name: 'thumbnail-claims',
  statements: () => [
    `CREATE TABLE file_thumb_claims (
      database_id TEXT NOT NULL,
      file_id TEXT NOT NULL,
      thumb TEXT NOT NULL,
      lease_until TEXT NOT NULL,
      PRIMARY KEY (database_id, file_id, thumb)
    )`,
  ],
};

import type { Migration } from './migration.ts';

/** Migration 6: automatic index budgets. */
export const migration: Migration = {
  // Which database caused each automatic index (documents/indexes.ts), so that each database
  // has its own budget of builds. NULL for indexes built before: they count for the store only.
  version: 6,
  name: 'automatic index budgets',
  statements: () => ['ALTER TABLE document_indexes ADD COLUMN database_id TEXT'],
};

import type { Migration } from './migration.ts';

/** Migration 9: public keys kept. */
export const migration: Migration = {
  // A public key is not a secret (it is pasted into browser code), so it is kept whole and can be
  // shown again. Secret keys stay hash-only: the column is NULL for them, and for public keys
  // created before this migration (only their hash was ever stored, so they cannot be recovered).
  version: 9,
  name: 'public keys kept',
  statements: () => ['ALTER TABLE api_keys ADD COLUMN public_key TEXT'],
};

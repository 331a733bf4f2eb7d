import type { Migration } from './migration.ts';

/**
 * Migration 8: what an app's backend manages on its users (API.md §2.1). `app_metadata` is a JSON
 * object only a secret key or an operator writes (the user reads it in /auth/me, and rules read it
 * as `{"$auth": "appMetadata.<path>"}`); `disabled` is 0/1 like `email_verified`: a disabled user
 * cannot sign in and no session of theirs resolves. Existing users get `{}` and 0.
 */
export const migration: Migration = {
  version: 8,
  name: 'user app metadata and disabled',
  statements: (d) => [
    `ALTER TABLE users ADD COLUMN app_metadata ${d.jsonType} NOT NULL DEFAULT '{}'`,
    'ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0',
  ],
};

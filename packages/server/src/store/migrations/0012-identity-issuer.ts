import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/** The issuer of an existing OpenID Connect identity: the one its database is configured with now (the only one it can have been linked with, unless an operator changed it since). */
const issuerOf = (d: Dialect, identity: string): string =>
  `COALESCE((SELECT ${d.name === 'postgres' ? "d.settings -> 'oauth' -> 'oidc' ->> 'issuer'" : "json_extract(d.settings, '$.oauth.oidc.issuer')"}
     FROM databases d WHERE d.id = ${identity}.database_id), '')`;

/** SQLite cannot change a primary key in place: the table is made again (nothing references it). */
const sqlite = (d: Dialect): string[] => [
  `CREATE TABLE user_identities_new (
    database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    issuer TEXT NOT NULL DEFAULT '',
    provider_user_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (database_id, provider, issuer, provider_user_id)
  )`,
  `INSERT INTO user_identities_new (database_id, provider, issuer, provider_user_id, user_id, email, created_at)
   SELECT i.database_id, i.provider, CASE WHEN i.provider = 'oidc' THEN ${issuerOf(d, 'i')} ELSE '' END, i.provider_user_id, i.user_id, i.email, i.created_at
   FROM user_identities i`,
  'DROP TABLE user_identities',
  'ALTER TABLE user_identities_new RENAME TO user_identities',
  'CREATE INDEX user_identities_by_user ON user_identities (user_id)',
];

const postgres = (d: Dialect): string[] => [
  `ALTER TABLE user_identities ADD COLUMN issuer TEXT NOT NULL DEFAULT ''`,
  `UPDATE user_identities i SET issuer = ${issuerOf(d, 'i')} WHERE i.provider = 'oidc'`,
  'ALTER TABLE user_identities DROP CONSTRAINT user_identities_pkey',
  'ALTER TABLE user_identities ADD PRIMARY KEY (database_id, provider, issuer, provider_user_id)',
];

/**
 * Migration 12: an OpenID Connect identity is (issuer, sub) (OIDC Core §5.7), not `sub` alone: a
 * database whose operator points it at another issuer must not let that issuer's user with the
 * same `sub` into the account linked through the first. Google and GitHub identities get ''.
 */
export const migration: Migration = {
  version: 12,
  name: 'identity issuer',
  statements: (d: Dialect) => (d.name === 'postgres' ? postgres(d) : sqlite(d)),
};

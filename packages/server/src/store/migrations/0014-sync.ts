import { randomBytes } from 'node:crypto';
import type { Dialect } from '../store.ts';
import type { Migration } from './migration.ts';

/**
 * Migration 14, sync (API.md §3.1): the key that signs sync checkpoints and snapshot cursors
 * (sync/tokens.ts). Kept in the store, made once per store when it migrates, so every instance
 * on the store signs and checks with the same key and no setting has to carry it.
 */
const statements = (_d: Dialect): string[] => [
  'CREATE TABLE sync_keys (name TEXT PRIMARY KEY, secret TEXT NOT NULL)',
  `INSERT INTO sync_keys (name, secret) VALUES ('checkpoints', '${randomBytes(32).toString('hex')}')`,
];

export const migration: Migration = { version: 14, name: 'sync', statements };

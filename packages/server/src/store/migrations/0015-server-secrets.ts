import type { Migration } from './migration.ts';

/**
 * Migration 15: secrets of the whole deployment, made at random by the first instance that needs
 * one and shared by all through the store. The first is the key that signs list cursors
 * (documents/cursor-key.ts); it was derived from DATABASE_URL, which for SQLite is a file path
 * anyone may know, so cursors could be forged.
 */
export const migration: Migration = {
  version: 15,
  name: 'server secrets',
  statements: () => ['CREATE TABLE server_secrets (name TEXT PRIMARY KEY, secret TEXT NOT NULL, created_at TEXT NOT NULL)'],
};

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../../src/store/migrations/index.ts';
import type { Migration } from '../../src/store/migrations/migration.ts';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { IdempotencyKeys } from '../../src/idempotency/keys.ts';
import { ManualClock } from '../../src/infra/clock.ts';

const DIR = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url));
const FILE = /^(\d{4})-([a-z0-9-]+)\.ts$/;
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

test('one migration per file, NNNN-<name>.ts: versions contiguous from 1, each matching its file, all listed in order', async () => {
  const files = readdirSync(DIR)
    .filter((f) => /^\d/.test(f))
    .sort();
  for (const f of files) assert.match(f, FILE, `${f} is named NNNN-<name>.ts`);
  assert.deepEqual(
    files.map((f) => Number(FILE.exec(f)![1])),
    files.map((_, i) => i + 1),
    'file numbers are 1, 2, 3… without gaps or duplicates',
  );
  for (const f of files) {
    const { migration } = (await import(new URL(f, `file://${DIR}`).href)) as { migration: Migration };
    const [, number, name] = FILE.exec(f)!;
    assert.equal(migration.version, Number(number), `${f} holds version ${Number(number)}`);
    assert.equal(slug(migration.name), name, `${f} is named after its migration ('${migration.name}')`);
  }
  assert.deepEqual(
    MIGRATIONS.map((m) => m.version),
    files.map((_, i) => i + 1),
    'index.ts lists every file, in order',
  );
});

forEachStore('migrations', (kind) => {
  test('a fresh store records every migration once, and migrating again changes nothing', async () => {
    const db = await openTestStore(kind);
    try {
      const versions = async () => (await db.store.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
      assert.deepEqual(
        await versions(),
        MIGRATIONS.map((m) => m.version),
      );
      await db.store.migrate();
      assert.deepEqual(
        await versions(),
        MIGRATIONS.map((m) => m.version),
      );
    } finally {
      await db.drop();
    }
  });

  test('migration "identity issuer": existing OpenID Connect identities get their database\'s issuer, others none', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      // The table as it was before the migration (migration 2's), with rows linked then.
      const before = MIGRATIONS.find((m) => m.version === 2)!
        .statements(store.dialect)
        .filter((sql) => sql.includes('user_identities'));
      await store.run('DROP TABLE user_identities');
      for (const sql of before) await store.run(sql);
      const now = new Date().toISOString();
      const settings = JSON.stringify({ oauth: { oidc: { issuer: 'https://sso.example.com/realms/a', clientId: 'c', clientSecret: 's' } } });
      await store.run('INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['d1', 'd', settings, now, now]);
      await store.run("INSERT INTO users (id, database_id, email, created_at, updated_at) VALUES ('u1', 'd1', 'a@example.com', ?, ?)", [now, now]);
      for (const [provider, sub] of [
        ['oidc', 'sub-1'],
        ['google', 'g-1'],
      ]) {
        await store.run('INSERT INTO user_identities (database_id, provider, provider_user_id, user_id, email, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
          'd1',
          provider,
          sub,
          'u1',
          'a@example.com',
          now,
        ]);
      }
      // Only this migration runs again (found by name: its number may change when branches merge).
      const issuerMigration = MIGRATIONS.find((m) => m.name === 'identity issuer')!;
      await store.run('DELETE FROM schema_migrations WHERE version = ?', [issuerMigration.version]);
      await store.migrate();
      const rows = await store.all<{ provider: string; issuer: string }>('SELECT provider, issuer FROM user_identities ORDER BY provider');
      assert.deepEqual(
        rows.map((r) => [r.provider, r.issuer]),
        [
          ['google', ''],
          ['oidc', 'https://sso.example.com/realms/a'],
        ],
      );
      // The same sub at another issuer is another identity now.
      await store.run(
        "INSERT INTO user_identities (database_id, provider, issuer, provider_user_id, user_id, email, created_at) VALUES ('d1', 'oidc', 'https://other.example.com', 'sub-1', 'u1', NULL, ?)",
        [now],
      );
    } finally {
      await db.drop();
    }
  });

  test('migration "idempotency keys lean": the keys are kept, oldest first in insertion order, and name their database without a foreign key', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      // The table as migration 13 made it, with rows claimed out of insertion order.
      const before = MIGRATIONS.find((m) => m.version === 13)!
        .statements(store.dialect)
        .filter((sql) => sql.includes('idempotency_keys'));
      await store.run('DROP TABLE idempotency_keys');
      for (const sql of before) await store.run(sql);
      const now = new Date().toISOString();
      await store.run("INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES ('d1', 'd', '{}', ?, ?)", [now, now]);
      for (const [key, at] of [
        ['b', '2026-11-27T10:00:02.000Z'],
        ['a', '2026-11-27T10:00:01.000Z'],
        ['c', '2026-11-27T10:00:03.000Z'],
      ]) {
        await store.run(
          "INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES ('database:d1', ?, 'd1', 'f', ?, 201, NULL, '{}')",
          [key, at],
        );
      }
      const lean = MIGRATIONS.find((m) => m.name === 'idempotency keys lean')!;
      await store.run('DELETE FROM schema_migrations WHERE version = ?', [lean.version]);
      await store.migrate();
      const order = store.dialect.insertOrder;
      const rows = await store.all<{ key: string }>(`SELECT key FROM idempotency_keys ORDER BY ${order ?? 'claimed_at'}`);
      assert.deepEqual(
        rows.map((r) => r.key),
        ['a', 'b', 'c'],
      );
      // No foreign key: a key's row of a database deleted meanwhile goes in (and is pruned with the rest).
      await store.run("INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at) VALUES ('database:gone', 'k', 'gone', 'f', ?)", [now]);
    } finally {
      await db.drop();
    }
  });
  test('migration "idempotency keys by claimed brin": on PostgreSQL the prune\'s index on claimed_at is a BRIN index, which a keyed write adds no entry to, and the prune still finds the expired keys', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      if (store.dialect.name === 'sqlite') {
        assert.deepEqual(MIGRATIONS.find((m) => m.version === 20)!.statements(store.dialect), [], 'SQLite has no index on claimed_at since migration 19');
        return;
      }
      const method = async () =>
        (
          await store.get<{ method: string }>(
            "SELECT am.amname AS method FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'idempotency_keys_by_claimed'",
          )
        )?.method;
      assert.equal(await method(), 'brin');
      // From the B-tree migration 13 made, with rows in it.
      await store.run('DROP INDEX idempotency_keys_by_claimed');
      await store.run('CREATE INDEX idempotency_keys_by_claimed ON idempotency_keys (claimed_at)');
      for (const [key, at] of [
        ['old', '2026-11-25T10:00:00.000Z'],
        ['new', '2026-11-27T10:00:00.000Z'],
      ]) {
        await store.run("INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at) VALUES ('database:d1', ?, 'd1', 'f', ?)", [key, at]);
      }
      await store.run('DELETE FROM schema_migrations WHERE version = 20');
      await store.migrate();
      assert.equal(await method(), 'brin');
      assert.equal(await new IdempotencyKeys(store, new ManualClock(Date.parse('2026-11-27T12:00:00.000Z'))).prune(10), 1);
      assert.deepEqual(
        (await store.all<{ key: string }>('SELECT key FROM idempotency_keys')).map((r) => r.key),
        ['new'],
      );
    } finally {
      await db.drop();
    }
  });
});

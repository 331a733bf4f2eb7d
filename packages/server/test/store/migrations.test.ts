import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MIGRATIONS } from '../../src/store/migrations/index.ts';
import type { Migration } from '../../src/store/migrations/migration.ts';
import { forEachStore, openTestStore } from '../helpers/stores.ts';

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
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../src/store/open-store.ts';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { IdempotencyKeys, KEEP_MS, type KeyedRequest } from '../../src/idempotency/keys.ts';
import { MIGRATIONS } from '../../src/store/migrations/index.ts';
import type { Store } from '../../src/store/store.ts';
import type { SqliteKeyRows } from '../../src/store/sqlite/key-index.ts';

/**
 * How a key's row is written and found (store.ts KeyRows): through the primary key on
 * PostgreSQL, through an index the store keeps in memory on SQLite (migration 21,
 * sqlite/key-index.ts), which must hold every key of the file, also those written before the
 * store was opened, and lets go of the rows the prune deleted.
 */
forEachStore('idempotency key rows', (kind) => {
  const clock = new ManualClock(Date.parse('2026-11-27T12:00:00.000Z'));
  const request = (key: string, scope = 'database:d1'): KeyedRequest => ({ scope, databaseId: 'd1', key, fingerprint: `f-${key}` });
  const answer = (n: number) => ({ status: 201, body: `{"n":${n}}`, etag: `"${n}"` });
  /** Records `key` as a keyed write does; what it throws when the key is taken. */
  const record = (store: Store, r: KeyedRequest, n: number) =>
    store
      .transaction((tx) => new IdempotencyKeys(store, clock).record(r, tx, answer(n)))
      .then(
        () => 'recorded',
        (e: unknown) => e,
      );
  const found = (store: Store, r: KeyedRequest) => new IdempotencyKeys(store, clock).afterFailure(r, new Error('the write failed'));

  test('a key is recorded once per scope, found by its scope and key, and found again when the store is opened anew', async () => {
    const db = await openTestStore(kind);
    let reopened: Store | undefined;
    try {
      const { store } = db;
      for (let i = 0; i < 50; i++) assert.equal(await record(store, request(`k${i}`), i), 'recorded');
      assert.equal(await record(store, request('k7', 'user:d1:u1'), 70), 'recorded', 'another caller, the same key');
      assert.notEqual(await record(store, request('k7'), 99), 'recorded', 'a taken key is not recorded again');
      assert.deepEqual(await found(store, request('k7')), answer(7));
      assert.deepEqual(await found(store, request('k7', 'user:d1:u1')), answer(70));
      assert.equal((await store.get<{ n: number }>('SELECT count(*) AS n FROM idempotency_keys'))?.n, 51);
      // Two keys of one transaction: the second sees the first (the same commit group on SQLite).
      const both = await store
        .transaction(async (tx) => {
          const keys = new IdempotencyKeys(store, clock);
          await keys.record(request('pair'), tx, answer(1));
          await keys.record(request('pair'), tx, answer(2));
        })
        .then(
          () => 'both recorded',
          () => 'the second was refused',
        );
      assert.equal(both, 'the second was refused');
      await assert.rejects(found(store, request('pair')), 'the transaction rolled back: no row, and on SQLite no entry left');
      assert.equal(await record(store, request('pair'), 3), 'recorded');
      // Deleted rows leave no entry: the key is free again.
      await store.run('DELETE FROM idempotency_keys WHERE key = ?', ['k3']);
      await assert.rejects(found(store, request('k3')));
      assert.equal(await record(store, request('k3'), 33), 'recorded');
      if (kind === 'sqlite') {
        // The file holds no index of the table: a random key dirties no page of its own.
        assert.deepEqual(await store.all("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'idempotency_keys'"), []);
        // A second store on the file (the first stays open, idle), as a restart would open it.
        reopened = await openStore(db.url);
        assert.deepEqual(await found(reopened, request('k7')), answer(7), 'found after the store was opened again');
        assert.deepEqual(await found(reopened, request('k3')), answer(33));
        assert.notEqual(await record(reopened, request('k49'), 0), 'recorded');
        assert.equal(await record(reopened, request('k50'), 50), 'recorded');
      }
    } finally {
      await reopened?.close();
      await db.drop();
    }
  });

  test('the prune deletes expired keys, which are free again; on SQLite the index lets go of them', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      const later = new ManualClock(clock.now());
      const keys = new IdempotencyKeys(store, later);
      const write = (key: string) => store.transaction((tx) => keys.record(request(key), tx, answer(1)));
      for (let i = 0; i < 30; i++) await write(`old${i}`);
      later.advance(KEEP_MS - 1000);
      for (let i = 0; i < 5; i++) await write(`new${i}`);
      later.advance(2000);
      assert.equal(await keys.prune(7), 30);
      if (kind === 'sqlite') assert.equal((store.keyRows as SqliteKeyRows).size, 5, 'the entries of the 5 rows left');
      await assert.rejects(keys.afterFailure(request('old3'), new Error('the write failed')));
      assert.deepEqual(await keys.afterFailure(request('new3'), new Error('the write failed')), answer(1));
      await write('old3');
      later.advance(KEEP_MS + 1000);
      assert.equal(await keys.prune(7), 6);
      if (kind === 'sqlite') assert.equal((store.keyRows as SqliteKeyRows).size, 0);
      // Emptied otherwise (a deleted database's keys): SQLite numbers new rows from 1 again; the
      // index drops what it held of the rows gone, and the prune still lets go of the new ones.
      for (let i = 0; i < 4; i++) await write(`again${i}`);
      await store.run('DELETE FROM idempotency_keys');
      for (let i = 0; i < 2; i++) await write(`after${i}`);
      await assert.rejects(keys.afterFailure(request('again1'), new Error('the write failed')));
      assert.deepEqual(await keys.afterFailure(request('after1'), new Error('the write failed')), answer(1));
      if (kind === 'sqlite') assert.equal((store.keyRows as SqliteKeyRows).size, 2);
      later.advance(KEEP_MS + 1000);
      assert.equal(await keys.prune(7), 2);
      if (kind === 'sqlite') assert.equal((store.keyRows as SqliteKeyRows).size, 0);
    } finally {
      await db.drop();
    }
  });

  test('migration "idempotency keys indexed in memory": the keys are kept, in insertion order, and found', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      const m21 = MIGRATIONS.find((m) => m.version === 21)!;
      if (kind === 'postgres') {
        assert.deepEqual(m21.statements(store.dialect), [], 'PostgreSQL keeps its primary key');
        return;
      }
      // The table as migration 19 left it, with rows.
      await store.run('DROP TABLE idempotency_keys');
      for (const sql of MIGRATIONS.find((m) => m.version === 19)!
        .statements(store.dialect)
        .filter((s) => s.startsWith('CREATE'))) {
        await store.run(sql.replace('idempotency_keys_lean', 'idempotency_keys'));
      }
      for (const key of ['b', 'a', 'c']) {
        await store.run(
          "INSERT INTO idempotency_keys (scope, key, database_id, fingerprint, claimed_at, status, etag, body) VALUES ('database:d1', ?, 'd1', ?, ?, 201, NULL, '{}')",
          [key, `f-${key}`, new Date(clock.now()).toISOString()],
        );
      }
      await store.run('DELETE FROM schema_migrations WHERE version = 21');
      await store.migrate();
      assert.deepEqual(
        (await store.all<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY rowid')).map((r) => r.key),
        ['b', 'a', 'c'],
      );
      assert.deepEqual(await store.all("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'idempotency_keys'"), []);
      assert.deepEqual(await found(store, request('a')), { status: 201, body: '{}', etag: null });
      assert.notEqual(await record(store, request('c'), 1), 'recorded');
    } finally {
      await db.drop();
    }
  });
});

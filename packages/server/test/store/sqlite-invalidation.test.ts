import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { sqliteTestStore, type TestStore } from '../helpers/stores.ts';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { createInvalidation, type Invalidation } from '../../src/infra/invalidation/invalidation.ts';
import { InvalidatedCache } from '../../src/infra/invalidation/cache.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

const quiet = { warn: () => undefined, info: () => undefined };

/**
 * The SQLite credential caches (infra/invalidation/sqlite.ts) at the level of one cache: what a
 * write of this process kills dies at once and is not cached again from the old row before its
 * COMMIT, and another connection's commit (the `svc` CLI) empties everything at the next request.
 * The HTTP tests (test/keys/cache.test.ts, test/multi-instance, test/cli) prove the same end to end.
 */
async function setUp(): Promise<{ db: TestStore; invalidation: Invalidation; cache: InvalidatedCache<string>; read(): Promise<string | undefined> }> {
  const db = await sqliteTestStore();
  await db.store.run(`INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES ('d1', 'one', '{}', 'now', 'now')`);
  const invalidation = createInvalidation(db.url, quiet, db.store);
  await invalidation.start();
  const cache = new InvalidatedCache<string>(invalidation, { max: 10 });
  let lookups = 0;
  const read = () =>
    cache.get('database:d1', Date.now(), async () => {
      lookups += 1;
      const row = await db.store.get<{ settings: string }>('SELECT settings FROM databases WHERE id = ?', ['d1']);
      return row && { value: `${row.settings}#${lookups}` };
    });
  return { db, invalidation, cache, read };
}

test('sqlite invalidation: an entry dies with this process’s write, and the old row read before its COMMIT is not kept', async () => {
  const { db, invalidation, read } = await setUp();
  try {
    assert.ok(invalidation.current());
    assert.equal(await read(), '{}#1');
    assert.equal(await read(), '{}#1', 'cached');
    let inside: string | undefined;
    await db.store.transaction(async (tx) => {
      await tx.run(`UPDATE databases SET settings = '{"rules":"x"}' WHERE id = 'd1'`);
      // The reader still sees the committed (old) row: it must not be kept.
      inside = await read();
    });
    assert.equal(inside, '{}#2');
    assert.equal(await read(), '{"rules":"x"}#3', 'looked up again after the COMMIT');
    assert.equal(await read(), '{"rules":"x"}#3');
  } finally {
    await invalidation.close();
    await db.drop();
  }
});

test('sqlite invalidation: another connection’s commit empties the caches at the next request', async () => {
  const { db, invalidation, read } = await setUp();
  try {
    assert.equal(await read(), '{}#1');
    const path = db.url.slice('sqlite:'.length);
    const other = new Database(path);
    other.prepare(`UPDATE databases SET settings = '{"rules":"y"}' WHERE id = 'd1'`).run();
    other.close();
    assert.equal(await read(), '{}#1', 'no request yet: the entry stands');
    invalidation.beforeRequest?.();
    assert.equal(await read(), '{"rules":"y"}#2');
  } finally {
    await invalidation.close();
    await db.drop();
  }
});

test('sqlite invalidation: only a SqliteStore gets it; without the store (the CLI) nothing is cached', async () => {
  const db = await sqliteTestStore();
  try {
    assert.ok(db.store instanceof SqliteStore);
    const none = createInvalidation(db.url, quiet);
    await none.start();
    assert.equal(none.current(), false);
  } finally {
    await db.drop();
  }
});

// Tests (and any embedder) may build two apps on one store object: both instances sit on its one
// writer connection, whose SQL function must hand the triggers' tags to each of them.
test('sqlite invalidation: two apps on one store object: a key cached by one and revoked through the other is refused by the first on the next request', async () => {
  const db = await sqliteTestStore();
  let a: TestServer | undefined;
  let b: TestServer | undefined;
  try {
    a = await startServer('sqlite', { db });
    b = await startServer('sqlite', { db });
    const { databaseId } = await a.createDatabase();
    const opA = apiClient(a, await a.operatorToken());
    const opB = apiClient(b, await b.operatorToken());
    const newKey = () => opA.post<{ id: string; key: string }>(`/admin/databases/${databaseId}/keys`, { kind: 'secret' }, 201);
    for (let i = 0; i < 5; i += 1) {
      const onA = await newKey();
      await apiClient(a, onA.key).get('/cached/docs');
      await apiClient(a, onA.key).get('/cached/docs');
      await opB.delete(`/admin/databases/${databaseId}/keys/${onA.id}`);
      assertError(await apiClient(a, onA.key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `round ${i}: cached on A, revoked through B`);

      const onB = await newKey();
      await apiClient(b, onB.key).get('/cached/docs');
      await apiClient(b, onB.key).get('/cached/docs');
      await opA.delete(`/admin/databases/${databaseId}/keys/${onB.id}`);
      assertError(await apiClient(b, onB.key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `round ${i}: cached on B, revoked through A`);
    }
    // Once B is closed, A (still on the connection) keeps hearing the tags.
    await b.close();
    b = undefined;
    const last = await newKey();
    await apiClient(a, last.key).get('/cached/docs');
    await opA.delete(`/admin/databases/${databaseId}/keys/${last.id}`);
    assertError(await apiClient(a, last.key).request('GET', '/cached/docs'), 401, 'invalid_api_key', 'after B closed');
  } finally {
    await b?.close();
    await a?.close();
    await db.drop();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, startServer, useServer, type TestDatabase, type TestServer } from '../helpers/server.ts';
import { lastChangeId, readChanges } from '../../src/changes/read.ts';
import type { ChangeEvent } from '../../src/changes/events.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { Store } from '../../src/store/store.ts';

/**
 * API.md §3 under concurrent writes, now that a database's writes share transactions (PostgreSQL
 * group commit, changes/append.ts): event ids increase in commit order without gaps, so a reader
 * that keeps asking "what committed after the last id I saw?" sees every event once, in order,
 * whatever mix of writes, failures and instances produced them; and the collection counts stay
 * exact.
 */
forEachStore('change log under concurrent writes', (kind) => {
  const t = useServer(kind);

  /** Reads the log "after the last id seen" until `done()` and once more after; returns every id seen. */
  function resumingReader(store: Store, databaseId: string, done: () => boolean): Promise<number[]> {
    return (async () => {
      const seen: number[] = [];
      let last = '0';
      for (;;) {
        const finished = done();
        const batch = await readChanges(store, store.dialect, databaseId, last, { limit: 5000 });
        for (const e of batch) seen.push(Number(e.id));
        if (batch.length) last = batch[batch.length - 1].id;
        if (finished) return seen;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
  }

  /** Every collection's count (GET /collections) equals the documents a list finds in it. */
  async function assertCountsExact(server: TestServer, db: TestDatabase): Promise<void> {
    const listed = await request(server, 'GET', '/collections', { key: db.secretKey });
    for (const c of (listed.json as { collections: Array<{ name: string; count: number }> }).collections) {
      let found = 0;
      for (let offset = 0; ; offset += 1000) {
        const page = await request(server, 'GET', `/${c.name}/docs`, { key: db.secretKey, query: { limit: '1000', offset: String(offset) } });
        found += (page.json as { documents: unknown[] }).documents.length;
        if ((page.json as { documents: unknown[] }).documents.length < 1000) break;
      }
      assert.equal(c.count, found, `count of ${c.name}`);
    }
  }

  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  test('6 writers × 120 writes of every kind, some failing: ids gap-free, a resuming reader sees each once in order, counts exact', async () => {
    const db = await t.server.createDatabase();
    const { store } = t.server.db;
    let writing = true;
    const reader = resumingReader(store, db.databaseId, () => !writing);
    // What each writer expects in the log, in its order: [type, document id] of each write that succeeded.
    const expected: Array<Array<[string, string]>> = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, w) => {
        const mine: Array<[string, string]> = (expected[w] = []);
        const path = `/mix${w % 3}/docs`;
        const call = (method: string, p: string, body?: unknown) => request(t.server, method, p, { key: db.secretKey, body });
        let last: string | undefined;
        for (let i = 0; i < 120; i += 1) {
          const step = i % 10;
          if (step === 3) {
            const r = await call('POST', `/mix${w % 3}/bulk`, {
              documents: [
                { w, i, k: 0 },
                { w, i, k: 1 },
                { w, i, k: 2 },
              ],
            });
            assert.equal(r.status, 201, r.text);
            for (const d of (r.json as { documents: Array<{ id: string }> }).documents) mine.push(['document.created', d.id]);
          } else if (step === 5) {
            const r = await call('POST', path, { id: `own-${w}`, w, i });
            assert.equal(r.status, i === 5 ? 201 : 409, r.text);
            if (r.status === 201) mine.push(['document.created', `own-${w}`]);
          } else if (step === 7) {
            assert.equal((await call('PATCH', `${path}/missing-${w}-${i}`, { w, i })).status, 404);
          } else if (step === 8 && last) {
            assert.equal((await call('PATCH', `${path}/${last}`, { patched: i })).status, 200);
            mine.push(['document.updated', last]);
          } else if (step === 9 && last) {
            assert.equal((await call('DELETE', `${path}/${last}`)).status, 204);
            mine.push(['document.deleted', last]);
            last = undefined;
          } else {
            const r = await call('POST', path, { w, i });
            assert.equal(r.status, 201, r.text);
            last = (r.json as { id: string }).id;
            mine.push(['document.created', last]);
          }
        }
      }),
    );
    writing = false;
    const seen = await reader;
    const total = expected.reduce((n, mine) => n + mine.length, 0);
    const events = await readChanges(store, store.dialect, db.databaseId, '0', { limit: 5000 });
    assert.deepEqual(
      events.map((e) => Number(e.id)),
      ids(total),
      'ids 1..n without gaps or duplicates',
    );
    assert.deepEqual(seen, ids(total), 'the resuming reader saw every event once, in order');
    assert.equal(await lastChangeId(store, db.databaseId), BigInt(total));
    for (let w = 0; w < 6; w += 1) {
      const mine = events.filter((e) => e.document.w === w).map((e) => [e.type, e.document.id]);
      assert.deepEqual(mine, expected[w], `writer ${w}'s changes are in its order`);
    }
    await assertCountsExact(t.server, db);
  });

  if (kind === 'postgres') {
    /** A second instance on the same PostgreSQL database: its own pool, so its own group commit. */
    async function secondInstance(): Promise<TestServer & { closeAll(): Promise<void> }> {
      const store = await openStore(t.server.db.url);
      const server = await startServer('postgres', { db: { ...t.server.db, store } });
      return Object.assign(server, {
        async closeAll() {
          await server.close();
          await store.close();
        },
      });
    }

    test('two instances × 4 writers × 100 inserts into one database: ids gap-free, each writer in order, a resuming reader sees each once', async () => {
      const db = await t.server.createDatabase();
      const other = await secondInstance();
      try {
        const { store } = t.server.db;
        let writing = true;
        const reader = resumingReader(store, db.databaseId, () => !writing);
        const instances = [t.server, other];
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < 100; i += 1) {
              const r = await request(instances[w % 2], 'POST', `/both${w % 3}/docs`, { key: db.secretKey, body: { w, i } });
              assert.equal(r.status, 201, r.text);
            }
          }),
        );
        writing = false;
        const seen = await reader;
        const events = await readChanges(store, store.dialect, db.databaseId, '0', { limit: 5000 });
        assert.deepEqual(
          events.map((e) => Number(e.id)),
          ids(800),
        );
        assert.deepEqual(seen, ids(800));
        for (let w = 0; w < 8; w += 1) {
          assert.deepEqual(
            events.filter((e) => e.document.w === w).map((e) => e.document.i),
            Array.from({ length: 100 }, (_, i) => i),
            `writer ${w}'s inserts in its order`,
          );
        }
        // Each instance announced its own writes' events once (the realtime bus gets them from there).
        const announced = (s: TestServer) => s.changes.filter((e: ChangeEvent) => e.databaseId === db.databaseId).map((e) => Number(e.id));
        assert.deepEqual(
          [...announced(t.server), ...announced(other)].sort((a, b) => a - b),
          ids(800),
        );
        await assertCountsExact(t.server, db);
      } finally {
        await other.closeAll();
      }
    });

    test('two instances patching the same two documents in opposite orders all succeed (no deadlock between their groups)', async () => {
      const db = await t.server.createDatabase();
      const other = await secondInstance();
      try {
        const make = async (id: string) => assert.equal((await request(t.server, 'POST', '/pair/docs', { key: db.secretKey, body: { id, n: 0 } })).status, 201);
        await make('x');
        await make('y');
        const statuses: number[] = [];
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            const [server, order] = w % 2 ? [other, ['y', 'x']] : [t.server, ['x', 'y']];
            for (let i = 0; i < 30; i += 1) {
              for (const id of order) statuses.push((await request(server, 'PATCH', `/pair/docs/${id}`, { key: db.secretKey, body: { [`w${w}`]: i } })).status);
            }
          }),
        );
        assert.deepEqual(
          statuses.filter((s) => s !== 200),
          [],
          'every patch answered 200',
        );
        const events = await readChanges(t.server.db.store, t.server.db.store.dialect, db.databaseId, '0', { limit: 5000 });
        assert.deepEqual(
          events.map((e) => Number(e.id)),
          ids(2 + 8 * 30 * 2),
        );
      } finally {
        await other.closeAll();
      }
    });
  }
});

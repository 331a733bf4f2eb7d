import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { readChanges } from '../../src/changes/read.ts';

forEachStore('change log', (kind) => {
  const t = useServer(kind);

  test('create, patch, delete and each bulk item write one event in the same transaction', async () => {
    const c = await request(t.server, 'POST', '/notes/docs', { key: t.db.secretKey, body: { a: 1 } });
    const id = (c.json as { id: string }).id;
    await request(t.server, 'PATCH', `/notes/docs/${id}`, { key: t.db.secretKey, body: { a: 2 } });
    await request(t.server, 'DELETE', `/notes/docs/${id}`, { key: t.db.secretKey });
    await request(t.server, 'POST', '/notes/bulk', { key: t.db.secretKey, body: { documents: [{ b: 1 }, { b: 2 }] } });
    const events = await readChanges(t.server.db.store, t.server.db.store.dialect, t.db.databaseId, '0');
    assert.deepEqual(
      events.map((e) => e.type),
      ['document.created', 'document.updated', 'document.deleted', 'document.created', 'document.created'],
    );
    assert.deepEqual(
      events.map((e) => e.id),
      ['1', '2', '3', '4', '5'],
    );
    assert.deepEqual(events[1].previous, c.json);
    assert.equal((events[2].document as { a: number }).a, 2, 'a deleted event carries the document as it was');
  });

  test('a created event carries the document exactly as the answer showed it, with its version as id', async () => {
    const before = (await readChanges(t.server.db.store, t.server.db.store.dialect, t.db.databaseId, '0')).length;
    const one = await request(t.server, 'POST', '/logged/docs', { key: t.db.secretKey, body: { n: 1.5, s: 'é ☃ "q"', nested: { a: [1, { b: null }] } } });
    const bulk = await request(t.server, 'POST', '/logged/bulk', {
      key: t.db.secretKey,
      body: { documents: [{ t: 'x', deep: { k: [true, false] } }, {}, { big: 12345678901234, neg: -0.25 }] },
    });
    const answers = [one.json, ...(bulk.json as { documents: unknown[] }).documents];
    const events = (await readChanges(t.server.db.store, t.server.db.store.dialect, t.db.databaseId, '0')).slice(before);
    assert.deepEqual(
      events.map((e) => e.document),
      answers,
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['document.created', 'document.created', 'document.created', 'document.created'],
    );
    assert.ok(events.every((e, i) => i === 0 || BigInt(e.id) === BigInt(events[i - 1].id) + 1n));
  });

  test('a failed bulk writes no event', async () => {
    const before = (await readChanges(t.server.db.store, t.server.db.store.dialect, t.db.databaseId, '0')).length;
    const r = await request(t.server, 'POST', '/notes/bulk', { key: t.db.secretKey, body: { documents: [{ id: 'dup' }, { id: 'dup' }] } });
    assert.equal(r.status, 409);
    const afterEvents = await readChanges(t.server.db.store, t.server.db.store.dialect, t.db.databaseId, '0');
    assert.equal(afterEvents.length, before);
  });

  test('8 concurrent writers × 200 inserts: event ids unique, gap-free and in commit order', async () => {
    const other = await t.server.createDatabase();
    const { store } = t.server.db;
    // A reader that keeps asking "what committed after the last id I saw?" while the writers run.
    // If an id could commit after a larger one, the reader would have moved past it and miss it.
    const seen: number[] = [];
    let writing = true;
    const reader = (async () => {
      let last = '0';
      for (;;) {
        const done = !writing;
        const batch = await readChanges(store, store.dialect, other.databaseId, last, { limit: 5000 });
        for (const e of batch) seen.push(Number(e.id));
        if (batch.length) last = batch[batch.length - 1].id;
        if (done) return;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 200; i += 1) {
          const r = await request(t.server, 'POST', `/load${w % 2}/docs`, { key: other.secretKey, body: { w, i } });
          assert.equal(r.status, 201);
        }
      }),
    );
    writing = false;
    await reader;
    const expected = Array.from({ length: 1600 }, (_, i) => i + 1);
    const events = await readChanges(store, store.dialect, other.databaseId, '0', { limit: 5000 });
    assert.deepEqual(
      events.map((e) => Number(e.id)),
      expected,
      'ids 1..1600 without gaps or duplicates',
    );
    assert.deepEqual(seen, expected, 'a reader polling "after the last id" during the load saw every event once, in order');
    for (let w = 0; w < 8; w += 1) {
      const mine = events.filter((e) => (e.document as { w: number }).w === w).map((e) => (e.document as { i: number }).i);
      assert.deepEqual(
        mine,
        Array.from({ length: 200 }, (_, i) => i),
        `writer ${w}'s inserts are in its order`,
      );
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { appendChanges, appendStepwise, appendWithCte } from '../../src/changes/append.ts';
import { lastChangeId, readChanges } from '../../src/changes/read.ts';
import type { NewChange } from '../../src/changes/events.ts';
import type { Store } from '../../src/store/store.ts';

const now = '2030-01-01T00:00:00.000Z';
const created = (i: number): NewChange => ({ collection: 'notes', type: 'document.created', document: { id: `n${i}`, i }, previous: null, timestamp: now });
const deleted = (i: number): NewChange => ({ collection: 'notes', type: 'document.deleted', document: { id: `n${i}`, i }, previous: null, timestamp: now });

async function newDatabase(store: Store, id: string): Promise<void> {
  await store.run('INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, id, '{}', now, now]);
}

const collectionCount = async (store: Store, databaseId: string) =>
  Number((await store.get<{ count: number | string }>("SELECT count FROM collections WHERE database_id = ? AND name = 'notes'", [databaseId]))?.count ?? 0);

forEachStore('change log append', (kind) => {
  /** Each path the dialect can run: PostgreSQL runs both, SQLite (no UPDATE inside WITH) the stepwise one. */
  const paths: Array<[string, typeof appendStepwise]> =
    kind === 'postgres'
      ? [
          ['appendWithCte', appendWithCte],
          ['appendStepwise', appendStepwise],
        ]
      : [['appendStepwise', appendStepwise]];

  for (const [name, append] of paths) {
    test(`${name}: 1,200 changes (several statements) get ids 1..1200 in order, the counter and the collection count follow`, async () => {
      const db = await openTestStore(kind);
      try {
        const { store } = db;
        await newDatabase(store, 'd1');
        const first = await store.transaction((tx) =>
          append(
            tx,
            store.dialect,
            'd1',
            Array.from({ length: 1200 }, (_, i) => created(i)),
          ),
        );
        assert.deepEqual(
          first.map((e) => e.id),
          Array.from({ length: 1200 }, (_, i) => String(i + 1)),
        );
        assert.ok(first.every((e) => e.databaseId === 'd1'));
        const second = await store.transaction((tx) => append(tx, store.dialect, 'd1', [deleted(0), deleted(1), created(2000)]));
        assert.deepEqual(
          second.map((e) => e.id),
          ['1201', '1202', '1203'],
        );
        assert.equal(await lastChangeId(store, 'd1'), 1203n);
        assert.equal(await collectionCount(store, 'd1'), 1199, '1200 created, 2 deleted, 1 created');
        const stored = await readChanges(store, store.dialect, 'd1', '1195', { limit: 100 });
        assert.deepEqual(
          stored.map((e) => [e.id, e.type, e.document.id]),
          [
            ['1196', 'document.created', 'n1195'],
            ['1197', 'document.created', 'n1196'],
            ['1198', 'document.created', 'n1197'],
            ['1199', 'document.created', 'n1198'],
            ['1200', 'document.created', 'n1199'],
            ['1201', 'document.deleted', 'n0'],
            ['1202', 'document.deleted', 'n1'],
            ['1203', 'document.created', 'n2000'],
          ],
        );
      } finally {
        await db.drop();
      }
    });
  }

  test('appendChanges picks the path of the dialect and appends nothing for no changes', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      await newDatabase(store, 'd2');
      assert.deepEqual(await store.transaction((tx) => appendChanges(tx, store.dialect, 'd2', [])), []);
      const events = await store.transaction((tx) => appendChanges(tx, store.dialect, 'd2', [created(1)]));
      assert.deepEqual(
        events.map((e) => e.id),
        ['1'],
      );
      assert.equal(await collectionCount(store, 'd2'), 1);
      const rolledBack = store.transaction(async (tx) => {
        await appendChanges(tx, store.dialect, 'd2', [created(2)]);
        throw new Error('abort');
      });
      await assert.rejects(rolledBack, /abort/);
      assert.equal(await lastChangeId(store, 'd2'), 1n, 'a rolled-back append leaves the counter');
    } finally {
      await db.drop();
    }
  });
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';
import { pointReads } from '../../src/documents/point-reads.ts';
import type { Param, Store } from '../../src/store/store.ts';

const now = '2030-01-01T00:00:00.000Z';

/**
 * Gets by id (documents/point-reads.ts): on PostgreSQL the gets of one turn of the event loop go
 * out as one statement, and each still gets its own document; SQLite reads each alone.
 */
forEachStore('point reads', (kind) => {
  let db: TestStore;
  /** Statements the real store was asked to run, by method: the store itself does the work. */
  let statements: string[] = [];
  let counted: Store;

  before(async () => {
    db = await openTestStore(kind);
    for (const id of ['d1', 'd2']) {
      await db.store.run('INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, id, '{}', now, now]);
    }
    const rows: Array<[string, string, string, string]> = [
      ['d1', 'notes', 'a', '{"n":1}'],
      ['d1', 'notes', 'b', '{"n":2}'],
      ['d1', 'tasks', 'a', '{"n":3}'],
      ['d2', 'notes', 'a', '{"n":4}'],
    ];
    for (const [database, collection, id, data] of rows) {
      await db.store.run('INSERT INTO documents (database_id, collection, id, data, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        database,
        collection,
        id,
        data,
        now,
        now,
      ]);
    }
    const real = db.store;
    counted = Object.create(real, {
      get: {
        value: (sql: string, params?: Param[]) => {
          statements.push(`get ${sql}`);
          return real.get(sql, params);
        },
      },
      all: {
        value: (sql: string, params?: Param[]) => {
          statements.push(`all ${sql}`);
          return real.all(sql, params);
        },
      },
    }) as Store;
  });
  after(() => db.drop());

  test('gets asked together each get their own document, or nothing, whatever else is in the batch', async () => {
    const read = pointReads(counted);
    statements = [];
    const asked: Array<[string, string, string]> = [
      ['d1', 'notes', 'a'],
      ['d1', 'notes', 'b'],
      ['d1', 'tasks', 'a'],
      ['d2', 'notes', 'a'],
      ['d1', 'notes', 'missing'],
      ['d2', 'tasks', 'a'],
      ['d1', 'notes', 'a'],
    ];
    const got = await Promise.all(asked.map(([d, c, id]) => read(d, c, id)));
    assert.deepEqual(
      got.map((r) => (r ? `${r.id} ${JSON.parse(r.data).n} ${r.created_at}` : null)),
      [`a 1 ${now}`, `b 2 ${now}`, `a 3 ${now}`, `a 4 ${now}`, null, null, `a 1 ${now}`],
    );
    if (kind === 'postgres') assert.equal(statements.length, 1, `one statement for the batch: ${statements.join('\n')}`);
    else assert.equal(statements.length, asked.length, 'SQLite reads each get alone');
  });

  test('a get alone uses the one-row statement', async () => {
    const read = pointReads(counted);
    statements = [];
    const row = await read('d1', 'notes', 'b');
    assert.equal(row?.data.replace(/\s/g, ''), '{"n":2}');
    assert.equal(statements.length, 1);
    assert.match(statements[0], /^get /);
  });

  test('gets asked in different turns are not held for each other', async () => {
    const read = pointReads(counted);
    statements = [];
    assert.ok(await read('d1', 'notes', 'a'));
    assert.ok(await read('d1', 'notes', 'b'));
    assert.equal(statements.length, 2);
  });
});

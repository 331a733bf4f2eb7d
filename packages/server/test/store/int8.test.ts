import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { lastChangeId, readChanges } from '../../src/changes/read.ts';

/** 2^53 + 1: the first integer a double can't hold. */
const PAST_2_53 = '9007199254740993';

forEachStore('64-bit integers from the store', (kind) => {
  const t = useServer(kind);

  test('counts arrive as numbers on both stores (no feature converts them)', async () => {
    const row = await t.server.db.store.get<{ n: unknown }>('SELECT count(*) AS n FROM databases');
    assert.equal(typeof row!.n, 'number');
    const collections = await request(t.server, 'GET', '/collections', { key: t.db.secretKey });
    assert.equal(collections.status, 200);
  });

  test('event ids past 2^53 stay exact: appended, read back and resumed from as text', async () => {
    const { store } = t.server.db;
    await store.run('UPDATE databases SET last_event_id = ? WHERE id = ?', [PAST_2_53, t.db.databaseId]);
    const w = await request(t.server, 'POST', '/big/docs', { key: t.db.secretKey, body: { a: 1 } });
    assert.equal(w.status, 201);
    const announced = t.server.changes.filter((e) => e.databaseId === t.db.databaseId).at(-1)!;
    assert.equal(announced.id, '9007199254740994');
    assert.equal(await lastChangeId(store, t.db.databaseId), 9007199254740994n);
    const read = await readChanges(store, store.dialect, t.db.databaseId, PAST_2_53);
    assert.deepEqual(
      read.map((e) => e.id),
      ['9007199254740994'],
    );
    const filtered = await request(t.server, 'GET', '/big/docs', { key: t.db.secretKey, query: { filter: JSON.stringify({ a: 1 }) } });
    assert.equal((filtered.json as { total: number }).total, 1, 'a filtered list keyed by the 64-bit version');
  });

  if (kind === 'postgres') {
    test('PostgreSQL: an int8 past 2^53 read as a number fails loudly instead of rounding', async () => {
      await assert.rejects(t.server.db.store.get(`SELECT CAST(${PAST_2_53} AS BIGINT) AS n`), /beyond 2\^53/);
      assert.deepEqual(await t.server.db.store.get('SELECT CAST(9007199254740991 AS BIGINT) AS n'), { n: 9007199254740991 });
    });
  }
});

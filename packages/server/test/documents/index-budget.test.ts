import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer, type TestDatabase } from '../helpers/server.ts';
import { indexCatalog } from './index-catalog.ts';

/**
 * Automatic index budgets (documents/indexes.ts): a field earns an index after 3 lists within the
 * window, only when documents of the collection hold it, and each database may cause at most
 * LIMIT_AUTO_INDEXES_PER_DATABASE builds. Builds run one at a time in the order they were asked
 * for, so once a later field's index exists, every earlier request has been decided: the
 * assertions that something was NOT built wait for that, never for a time.
 */
forEachStore('automatic index budgets', (kind) => {
  const t = useServer(kind, { env: { LIMIT_AUTO_INDEXES_PER_DATABASE: '2' } });
  const { indexes, indexOn, waitForIndex } = indexCatalog(() => t.server, kind);

  const list = async (key: string, collection: string, query: Record<string, string>) => {
    const r = await request(t.server, 'GET', `/${collection}/docs`, { key, query });
    assert.equal(r.status, 200, r.text.slice(0, 200));
  };
  const thrice = async (key: string, collection: string, query: Record<string, string>) => {
    for (let i = 0; i < 3; i += 1) await list(key, collection, query);
  };
  /** A new database whose `games` hold `score` in every document and `g<i>` in the i-th. */
  const gamesDatabase = async (): Promise<TestDatabase> => {
    const db = await t.server.createDatabase();
    const documents = Array.from({ length: 10 }, (_, i) => ({ score: i, [`g${i}`]: i }));
    await request(t.server, 'POST', '/games/bulk', { key: db.secretKey, body: { documents } });
    return db;
  };

  test("70 junk sorts with one database's public key build nothing and leave another database's field its index", async () => {
    await request(t.server, 'POST', '/posts/bulk', { key: t.db.secretKey, body: { documents: [{ title: 'a' }, { title: 'b' }] } });
    for (let i = 0; i < 70; i += 1) await thrice(t.db.publicKey, 'posts', { sortBy: `junk${i}` });
    const other = await gamesDatabase();
    await thrice(other.secretKey, 'games', { sortBy: 'score' });
    assert.equal((await waitForIndex('score')).length, 1, `score got its index; have ${(await indexes()).length} indexes`);
    assert.deepEqual(
      (await indexes()).filter((i) => /junk/.test(i.sql)),
      [],
      'no junk field was indexed',
    );
  });

  test('a field named in fewer than 3 lists gets no index; the third list earns it', async () => {
    const other = await gamesDatabase();
    await list(other.secretKey, 'games', { sortBy: 'g1' });
    await list(other.secretKey, 'games', { filter: JSON.stringify({ g1: { $gt: 0 } }) });
    await thrice(other.secretKey, 'games', { sortBy: 'g2' });
    assert.equal((await waitForIndex('g2')).length, 1);
    assert.deepEqual(await indexOn('g1'), [], 'two lists are not enough');
    await list(other.secretKey, 'games', { sortBy: 'g1', sortOrder: 'desc' });
    assert.equal((await waitForIndex('g1')).length, 1, 'the third list (sort or filter, either direction) earns it');
  });

  test('a database past its own budget gets no more indexes, and another database still gets its own', async () => {
    const greedy = await t.server.createDatabase();
    const fields = ['f0', 'f1', 'f2', 'f3', 'f4'];
    await request(t.server, 'POST', '/things/bulk', { key: greedy.secretKey, body: { documents: [Object.fromEntries(fields.map((f, i) => [f, i]))] } });
    for (const f of fields) await thrice(greedy.secretKey, 'things', { sortBy: f });
    const fresh = await t.server.createDatabase();
    await request(t.server, 'POST', '/items/bulk', { key: fresh.secretKey, body: { documents: [{ price: 1 }, { price: 2 }] } });
    await thrice(fresh.secretKey, 'items', { sortBy: 'price' });
    assert.equal((await waitForIndex('price')).length, 1, "the other database's field got its index");
    const built = [];
    for (const f of fields) if ((await indexOn(f)).length) built.push(f);
    assert.equal(built.length, 2, `LIMIT_AUTO_INDEXES_PER_DATABASE=2: built ${built.join(', ')}`);
    const spent = await t.server.db.store.get<{ n: number | string }>('SELECT count(*) AS n FROM document_indexes WHERE database_id = ?', [greedy.databaseId]);
    assert.equal(Number(spent?.n), 2);
    // Lists on the fields past the budget still answer, by scanning.
    const r = await request(t.server, 'GET', '/things/docs', { key: greedy.secretKey, query: { sortBy: 'f4' } });
    assert.equal(r.status, 200);
  });
});

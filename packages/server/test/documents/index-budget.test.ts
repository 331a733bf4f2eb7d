import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer, type TestDatabase } from '../helpers/server.ts';
import { indexCatalog } from './index-catalog.ts';
import { newUser } from '../helpers/auth-client.ts';

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

  // Public keys alone spent a database's budget (and four databases', the store's).
  test("a public key's own filters and sorts never ask for indexes; the same lists with the secret key do", async () => {
    const db = await gamesDatabase();
    for (let i = 0; i < 5; i += 1) {
      await list(db.publicKey, 'games', { sortBy: 'g3' });
      await list(db.publicKey, 'games', { filter: JSON.stringify({ g4: 4 }) });
    }
    await thrice(db.secretKey, 'games', { sortBy: 'g5' });
    // Builds run in the order asked: once g5's exists, any g3 or g4 build would have been decided.
    assert.equal((await waitForIndex('g5')).length, 1);
    assert.deepEqual(await indexOn('g3'), [], 'five public sorts: no index');
    assert.deepEqual(await indexOn('g4'), [], 'five public filters: no index');
    await thrice(db.secretKey, 'games', { filter: JSON.stringify({ g4: 4 }) });
    assert.equal((await waitForIndex('g4')).length, 1, 'the secret key asks');
  });

  test('saving rules asks for the indexes of the fields their read filters name, at once; public lists under the rule ask for them too', async () => {
    const db = await t.server.createDatabase();
    await request(t.server, 'POST', '/todos/bulk', { key: db.secretKey, body: { documents: [{ owner: 'u1' }] } });
    const saved = await request(t.server, 'PUT', '/rules', { key: db.secretKey, body: { rules: { todos: { read: { owner: { $auth: 'id' } } } } } });
    assert.equal(saved.status, 200, saved.text);
    // No list at all: the rule's field is indexed, followed by created_at (the order of the rule's lists).
    const owner = await waitForIndex('owner');
    assert.equal(owner.length, 1);
    assert.match(owner[0].sql, /created_at, id\)/);

    // Rules saved before their collection holds documents: nothing to index then. The lists under
    // the rule (a public key's, with a session) ask for the rule's field, never for their own.
    const later = await t.server.createDatabase();
    const rules = { notes: { read: { $or: [{ author: { $auth: 'id' } }, { shared: true }] } } };
    assert.equal((await request(t.server, 'PUT', '/rules', { key: later.secretKey, body: { rules } })).status, 200);
    await request(t.server, 'POST', '/notes/bulk', { key: later.secretKey, body: { documents: [{ author: 'a', mood: 1 }] } });
    const token = (await newUser(t.server, later.publicKey, 'rules@index.test')).session.token;
    for (let i = 0; i < 3; i += 1) {
      const r = await request(t.server, 'GET', '/notes/docs', {
        key: later.publicKey,
        headers: { 'x-session-token': token },
        query: { sortBy: 'mood', filter: '{"mood": 1}' },
      });
      assert.equal(r.status, 200, r.text);
    }
    assert.equal((await waitForIndex('author')).length, 1, "the rule's field");
    assert.deepEqual(await indexOn('mood'), [], "the public list's own sort and filter (the database had room for one more)");
  });
});

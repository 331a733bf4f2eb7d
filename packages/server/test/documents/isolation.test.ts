import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer, type TestDatabase } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string };

forEachStore('isolation between databases', (kind) => {
  // Database A is the server's own; B is made beside it.
  const t = useServer(kind, { databaseName: 'A' });
  /** A's secret key; another key per request where a test says so. */
  const a = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  let b: TestDatabase;
  let docA: Doc;
  before(async () => {
    b = await t.server.createDatabase('B');
    docA = await a.post<Doc>('/shared/docs', { id: 'doc1', owner: 'A', secret: 's-A' }, 201);
    await a.post('/onlyA/bulk', { documents: [{ n: 1 }, { n: 2 }] }, 201);
  });
  const asB = () => apiClient(t.server, b.secretKey);

  const readA = () => a.get<Doc>('/shared/docs/doc1');

  test("B's keys cannot read A's document: 404, with no hint it exists", async () => {
    for (const key of [b.secretKey, b.publicKey]) {
      const r = await a.request('GET', '/shared/docs/doc1', { key });
      assertError(r, 404, 'not_found');
      assert.ok(!r.text.includes('s-A'));
    }
  });

  test("B cannot patch or delete A's document, and A's document is unchanged", async () => {
    await asB().patch('/shared/docs/doc1', { owner: 'B' }, 404);
    await asB().delete('/shared/docs/doc1', 404);
    assert.deepEqual(await readA(), docA);
  });

  test("B's lists and collections do not show A's documents", async () => {
    for (const key of [b.secretKey, b.publicKey]) {
      assert.deepEqual((await a.request('GET', '/shared/docs', { key })).json, { documents: [], total: 0, limit: 20, offset: 0, nextCursor: null });
      const f = await a.request('GET', '/shared/docs', { key, query: { filter: JSON.stringify({ owner: 'A' }) } });
      assert.equal((f.json as { total: number }).total, 0);
      assert.deepEqual((await a.request('GET', '/collections', { key })).json, { collections: [] });
    }
  });

  test('the same id in the same collection of two databases are two documents', async () => {
    await asB().post('/shared/docs', { id: 'doc1', owner: 'B' }, 201); // no conflict with A
    assert.equal((await asB().get<Doc>('/shared/docs/doc1')).owner, 'B');
    assert.deepEqual(await readA(), docA);
    await asB().post('/shared/bulk', { documents: [{ id: 'x1' }] }, 201);
    await a.get('/shared/docs/x1', 404);
    assert.deepEqual(await a.get('/collections'), {
      collections: [
        { name: 'onlyA', count: 2 },
        { name: 'shared', count: 1 },
      ],
    });
    assert.deepEqual(await asB().get('/collections'), { collections: [{ name: 'shared', count: 2 }] });
  });

  test("deleting B's document of the same id leaves A's", async () => {
    await asB().delete('/shared/docs/doc1', 204);
    assert.deepEqual(await readA(), docA);
  });

  test("an operator token with X-Database-Id sees only that database's data", async () => {
    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.get('/shared/docs/doc1', 404, { headers: { 'x-database-id': b.databaseId } });
    assert.deepEqual(await op.get('/shared/docs/doc1', 200, { headers: { 'x-database-id': t.db.databaseId } }), docA);
  });
});

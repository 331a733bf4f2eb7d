import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';

type Doc = Record<string, unknown> & { id: string };
type Db = Awaited<ReturnType<TestServer['createDatabase']>>;

forEachStore('isolation between databases', (kind) => {
  let server: TestServer;
  let a: Db;
  let b: Db;
  let docA: Doc;
  before(async () => {
    server = await startServer(kind);
    a = await server.createDatabase('A');
    b = await server.createDatabase('B');
    docA = (await request(server, 'POST', '/shared/docs', { key: a.secretKey, body: { id: 'doc1', owner: 'A', secret: 's-A' } })).json as Doc;
    await request(server, 'POST', '/onlyA/bulk', { key: a.secretKey, body: { documents: [{ n: 1 }, { n: 2 }] } });
  });
  after(() => server.close());

  const readA = async () => (await request(server, 'GET', '/shared/docs/doc1', { key: a.secretKey })).json as Doc;

  test("B's keys cannot read A's document: 404, with no hint it exists", async () => {
    for (const key of [b.secretKey, b.publicKey]) {
      const r = await request(server, 'GET', '/shared/docs/doc1', { key });
      assert.equal(r.status, 404);
      assert.equal(errorCode(r), 'not_found');
      assert.ok(!r.text.includes('s-A'));
    }
  });

  test("B cannot patch or delete A's document, and A's document is unchanged", async () => {
    const p = await request(server, 'PATCH', '/shared/docs/doc1', { key: b.secretKey, body: { owner: 'B' } });
    assert.equal(p.status, 404);
    const d = await request(server, 'DELETE', '/shared/docs/doc1', { key: b.secretKey });
    assert.equal(d.status, 404);
    assert.deepEqual(await readA(), docA);
  });

  test("B's lists and collections do not show A's documents", async () => {
    for (const key of [b.secretKey, b.publicKey]) {
      const l = await request(server, 'GET', '/shared/docs', { key });
      assert.deepEqual(l.json, { documents: [], total: 0, limit: 20, offset: 0 });
      const f = await request(server, 'GET', '/shared/docs', { key, query: { filter: JSON.stringify({ owner: 'A' }) } });
      assert.equal((f.json as { total: number }).total, 0);
      const c = await request(server, 'GET', '/collections', { key });
      assert.deepEqual(c.json, { collections: [] });
    }
  });

  test('the same id in the same collection of two databases are two documents', async () => {
    const c = await request(server, 'POST', '/shared/docs', { key: b.secretKey, body: { id: 'doc1', owner: 'B' } });
    assert.equal(c.status, 201, 'no conflict with A');
    assert.equal(((await request(server, 'GET', '/shared/docs/doc1', { key: b.secretKey })).json as Doc).owner, 'B');
    assert.deepEqual(await readA(), docA);
    const bulk = await request(server, 'POST', '/shared/bulk', { key: b.secretKey, body: { documents: [{ id: 'x1' }] } });
    assert.equal(bulk.status, 201);
    assert.equal((await request(server, 'GET', '/shared/docs/x1', { key: a.secretKey })).status, 404);
    const cols = (await request(server, 'GET', '/collections', { key: a.secretKey })).json;
    assert.deepEqual(cols, { collections: [{ name: 'onlyA', count: 2 }, { name: 'shared', count: 1 }] });
    const colsB = (await request(server, 'GET', '/collections', { key: b.secretKey })).json;
    assert.deepEqual(colsB, { collections: [{ name: 'shared', count: 2 }] });
  });

  test("deleting B's document of the same id leaves A's", async () => {
    assert.equal((await request(server, 'DELETE', '/shared/docs/doc1', { key: b.secretKey })).status, 204);
    assert.deepEqual(await readA(), docA);
  });

  test("an operator token with X-Database-Id sees only that database's data", async () => {
    const op = await server.operatorToken();
    const r = await request(server, 'GET', '/shared/docs/doc1', { key: op, headers: { 'x-database-id': b.databaseId } });
    assert.equal(r.status, 404);
    const ok = await request(server, 'GET', '/shared/docs/doc1', { key: op, headers: { 'x-database-id': a.databaseId } });
    assert.deepEqual(ok.json, docA);
  });
});

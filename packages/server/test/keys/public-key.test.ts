import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';

type Doc = Record<string, unknown> & { id: string };

forEachStore('public keys', (kind) => {
  let server: TestServer;
  let db: Awaited<ReturnType<TestServer['createDatabase']>>;
  let doc: Doc;
  before(async () => {
    server = await startServer(kind);
    db = await server.createDatabase();
    doc = (await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { id: 'p1', title: 'kept' } })).json as Doc;
  });
  after(() => server.close());

  const snapshot = async () => ({
    list: (await request(server, 'GET', '/posts/docs', { key: db.secretKey, query: { limit: 100 } })).json,
    collections: (await request(server, 'GET', '/collections', { key: db.secretKey })).json,
  });

  test('a public key reads: get, list (sorted and filtered) and collections', async () => {
    const pk = db.publicKey;
    assert.match(pk, /^svc_pk_/);
    assert.deepEqual((await request(server, 'GET', '/posts/docs/p1', { key: pk })).json, doc);
    const l = await request(server, 'GET', '/posts/docs', { key: pk, query: { sortBy: 'title', filter: JSON.stringify({ title: 'kept' }) } });
    assert.equal(l.status, 200);
    assert.deepEqual((l.json as { documents: Doc[] }).documents, [doc]);
    assert.deepEqual((await request(server, 'GET', '/collections', { key: pk })).json, { collections: [{ name: 'posts', count: 1 }] });
  });

  test('every write with a public key → 403 read_only_key and nothing changes', async () => {
    const before = await snapshot();
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/posts/docs', { title: 'new' }],
      ['POST', '/posts/docs', { id: 'p2', title: 'new' }],
      ['POST', '/fresh/docs', { title: 'new collection' }],
      ['PATCH', '/posts/docs/p1', { title: 'changed' }],
      ['PATCH', '/posts/docs/missing', { title: 'changed' }],
      ['DELETE', '/posts/docs/p1', undefined],
      ['POST', '/posts/bulk', { documents: [{ a: 1 }, { a: 2 }] }],
      ['POST', '/fresh/bulk', { documents: [{ a: 1 }] }],
    ];
    for (const [method, path, body] of writes) {
      const r = await request(server, method, path, { key: db.publicKey, body });
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.equal(errorCode(r), 'read_only_key', `${method} ${path}`);
    }
    assert.deepEqual(await snapshot(), before);
    const fresh = await request(server, 'GET', '/fresh/docs', { key: db.secretKey });
    assert.equal((fresh.json as { total: number }).total, 0);
    assert.equal(server.changes.filter((c) => c.databaseId === db.databaseId).length, 1, 'only the setup insert is in the change log');
  });

  test('a public key cannot reach the management API', async () => {
    const r = await request(server, 'GET', '/admin/databases', { key: db.publicKey });
    assert.equal(r.status, 403);
    assert.equal(errorCode(r), 'forbidden');
  });
});

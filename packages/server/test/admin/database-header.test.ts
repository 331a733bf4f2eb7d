import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';

type Doc = Record<string, unknown> & { id: string };

forEachStore('operator token with X-Database-Id', (kind) => {
  let server: TestServer;
  let op: string;
  let db: Awaited<ReturnType<TestServer['createDatabase']>>;
  before(async () => {
    server = await startServer(kind);
    op = await server.operatorToken();
    db = await server.createDatabase();
  });
  after(() => server.close());

  const asOperator = (method: string, path: string, body?: unknown) =>
    request(server, method, path, { key: op, body, headers: { 'x-database-id': db.databaseId } });

  test('acts as the database\'s secret key on every documents route', async () => {
    const c = await asOperator('POST', '/notes/docs', { id: 'n1', text: 'from the dashboard' });
    assert.equal(c.status, 201);
    assert.deepEqual((await request(server, 'GET', '/notes/docs/n1', { key: db.secretKey })).json, c.json, 'written into that database');
    assert.equal((await asOperator('GET', '/notes/docs/n1')).status, 200);
    const p = await asOperator('PATCH', '/notes/docs/n1', { text: 'edited' });
    assert.equal((p.json as Doc).text, 'edited');
    assert.equal((await asOperator('POST', '/notes/bulk', { documents: [{ a: 1 }, { a: 2 }] })).status, 201);
    const l = await asOperator('GET', '/notes/docs', undefined);
    assert.equal((l.json as { total: number }).total, 3);
    assert.deepEqual((await asOperator('GET', '/collections')).json, { collections: [{ name: 'notes', count: 3 }] });
    assert.equal((await asOperator('DELETE', '/notes/docs/n1')).status, 204);
    assert.equal((await request(server, 'GET', '/notes/docs/n1', { key: db.secretKey })).status, 404);
  });

  test('without X-Database-Id an operator token cannot use data routes; an unknown database → 404', async () => {
    for (const [method, path, body] of [['GET', '/notes/docs', undefined], ['POST', '/notes/docs', { a: 1 }]] as const) {
      const r = await request(server, method, path, { key: op, body });
      assert.equal(r.status, 403, `${method} without the header`);
      assert.equal(errorCode(r), 'forbidden');
      const u = await request(server, method, path, { key: op, body, headers: { 'x-database-id': 'no-such-database' } });
      assert.equal(u.status, 404, `${method} unknown database`);
    }
    assert.equal(((await request(server, 'GET', '/notes/docs', { key: db.secretKey })).json as { total: number }).total, 2);
  });

  test('X-Database-Id does nothing for an API key: the key\'s own database is used', async () => {
    const other = await server.createDatabase();
    const r = await request(server, 'GET', '/notes/docs', { key: other.secretKey, headers: { 'x-database-id': db.databaseId } });
    assert.equal(r.status, 200);
    assert.equal((r.json as { total: number }).total, 0);
    const w = await request(server, 'POST', '/notes/docs', { key: other.publicKey, body: { a: 1 }, headers: { 'x-database-id': db.databaseId } });
    assert.equal(w.status, 403);
    assert.equal(errorCode(w), 'read_only_key');
  });

  test('a signed-out operator token is refused on data routes', async () => {
    const token = ((await request(server, 'POST', '/admin/sign-in', { body: { email: 'operator@svc.test', password: 'operator-password-1' } })).json as { token: string }).token;
    assert.equal((await request(server, 'GET', '/notes/docs', { key: token, headers: { 'x-database-id': db.databaseId } })).status, 200);
    await request(server, 'POST', '/admin/sign-out', { key: token });
    assert.equal((await request(server, 'GET', '/notes/docs', { key: token, headers: { 'x-database-id': db.databaseId } })).status, 401);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { OPERATOR, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string };

forEachStore('operator token with X-Database-Id', (kind) => {
  const t = useServer(kind);
  const dbHeader = () => ({ headers: { 'x-database-id': t.db.databaseId } });
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  /** The operator token with X-Database-Id: the dashboard's way into a database's data. */
  const asOperator = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
    dbHeader,
  );
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  test("acts as the database's secret key on every documents route", async () => {
    const c = await asOperator.post<Doc>('/notes/docs', { id: 'n1', text: 'from the dashboard' }, 201);
    assert.deepEqual(await secret.get('/notes/docs/n1'), c, 'written into that database');
    await asOperator.get('/notes/docs/n1', 200);
    const p = await asOperator.patch<Doc>('/notes/docs/n1', { text: 'edited' });
    assert.equal(p.text, 'edited');
    await asOperator.post('/notes/bulk', { documents: [{ a: 1 }, { a: 2 }] }, 201);
    assert.equal((await asOperator.get<{ total: number }>('/notes/docs')).total, 3);
    assert.deepEqual(await asOperator.get('/collections'), { collections: [{ name: 'notes', count: 3 }] });
    await asOperator.delete('/notes/docs/n1', 204);
    await secret.get('/notes/docs/n1', 404);
  });

  test('without X-Database-Id an operator token cannot use data routes; an unknown database → 404', async () => {
    for (const [method, path, body] of [
      ['GET', '/notes/docs', undefined],
      ['POST', '/notes/docs', { a: 1 }],
    ] as const) {
      assertError(await op.request(method, path, { body }), 403, 'forbidden', `${method} without the header`);
      const u = await op.request(method, path, { body, headers: { 'x-database-id': 'no-such-database' } });
      assert.equal(u.status, 404, `${method} unknown database`);
    }
    assert.equal((await secret.get<{ total: number }>('/notes/docs')).total, 2);
  });

  test("X-Database-Id does nothing for an API key: the key's own database is used", async () => {
    const other = await t.server.createDatabase();
    const r = await apiClient(t.server, other.secretKey, dbHeader()).get<{ total: number }>('/notes/docs');
    assert.equal(r.total, 0);
    const w = await apiClient(t.server, other.publicKey, dbHeader()).request('POST', '/notes/docs', { body: { a: 1 } });
    assertError(w, 403, 'read_only_key');
  });

  test('a signed-out operator token is refused on data routes', async () => {
    const { token } = await apiClient(t.server).post<{ token: string }>('/admin/sign-in', OPERATOR, 200);
    const session = apiClient(t.server, token, dbHeader());
    await session.get('/notes/docs', 200);
    await apiClient(t.server, token).post('/admin/sign-out', undefined, 204);
    await session.get('/notes/docs', 401);
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';

forEachStore('validation', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(kind);
  });
  after(() => server.close());

  test('query strings are coerced to their types; JSON bodies are taken as typed (no "5" for 5)', async () => {
    const op = await server.operatorToken();
    const numberName = await request(server, 'POST', '/admin/databases', { key: op, body: { name: 5 } });
    assert.equal(numberName.status, 400);
    assert.equal(errorCode(numberName), 'validation_failed');
    const { secretKey } = await server.createDatabase();
    const list = await request(server, 'GET', '/posts/docs', { key: secretKey, query: { limit: '5', offset: '0' } });
    assert.equal(list.status, 200);
    assert.equal((list.json as { limit: number }).limit, 5, 'limit=5 in the query string is the number 5');
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

forEachStore('validation', (kind) => {
  const t = useServer(kind);
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  test('query strings are coerced to their types; JSON bodies are taken as typed (no "5" for 5)', async () => {
    assertError(await op.request('POST', '/admin/databases', { body: { name: 5 } }), 400, 'validation_failed');
    const list = await api.get<{ limit: number }>('/posts/docs', 200, { query: { limit: '5', offset: '0' } });
    assert.equal(list.limit, 5, 'limit=5 in the query string is the number 5');
  });
});

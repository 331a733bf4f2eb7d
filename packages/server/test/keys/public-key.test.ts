import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string };

forEachStore('public keys', (kind) => {
  const t = useServer(kind);
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  let doc: Doc;
  before(async () => {
    doc = await secret.post<Doc>('/posts/docs', { id: 'p1', title: 'kept' }, 201);
  });

  const snapshot = async () => ({
    list: await secret.get('/posts/docs', 200, { query: { limit: 100 } }),
    collections: await secret.get('/collections'),
  });

  test('a public key reads: get, list (sorted and filtered) and collections', async () => {
    assert.match(t.db.publicKey, /^svc_pk_/);
    assert.deepEqual(await pub.get('/posts/docs/p1'), doc);
    const l = await pub.get<{ documents: Doc[] }>('/posts/docs', 200, { query: { sortBy: 'title', filter: JSON.stringify({ title: 'kept' }) } });
    assert.deepEqual(l.documents, [doc]);
    assert.deepEqual(await pub.get('/collections'), { collections: [{ name: 'posts', count: 1 }] });
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
    for (const [method, path, body] of writes) assertError(await pub.request(method, path, { body }), 403, 'read_only_key', `${method} ${path}`);
    assert.deepEqual(await snapshot(), before);
    assert.equal((await secret.get<{ total: number }>('/fresh/docs')).total, 0);
    assert.equal(t.server.changes.filter((c) => c.databaseId === t.db.databaseId).length, 1, 'only the setup insert is in the change log');
  });

  test('a public key cannot reach the management API', async () => {
    assertError(await pub.request('GET', '/admin/databases'), 403, 'forbidden');
  });
});

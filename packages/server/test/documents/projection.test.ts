import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { newUser, withSession } from '../helpers/auth-client.ts';

type Doc = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };
type Page = { documents: Doc[]; total: number; limit: number; offset: number; nextCursor: string | null };

const POSTS: Array<Record<string, unknown>> = [
  { id: 'p1', title: 'One', status: 'open', author: { name: 'Ann', email: 'ann@x.test' }, tags: ['a'], body: 'long text' },
  { id: 'p2', title: 'Two', status: 'done', author: { name: 'Bob' }, items: [{ sku: 'a', qty: 1 }, { sku: 'b' }, 5, null] },
  { id: 'p3', status: 'open', author: 'not an object', constructor: 'data' },
  { id: 'p4', title: null, status: 'open' },
];

/** API.md §1.1: `fields=` (projection) on lists and get, and `limit=0` (count only). */
forEachStore('projection and count only', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(async () => {
    await api.post('/posts/bulk', { documents: POSTS }, 201);
  });
  const list = (query: Record<string, string | number>) => api.get<Page>('/posts/docs', 200, { query: { sortBy: 'id', ...query } });
  const strip = (d: Doc) => {
    const { createdAt, updatedAt, ...rest } = d;
    assert.match(createdAt, /Z$/);
    assert.match(updatedAt, /Z$/);
    return rest;
  };

  test('a list returns only the named fields plus id, createdAt, updatedAt; unknown fields are absent', async () => {
    const p = await list({ fields: 'title,author.name,nope,deep.er.path' });
    assert.deepEqual(p.documents.map(strip), [
      { id: 'p1', title: 'One', author: { name: 'Ann' } },
      { id: 'p2', title: 'Two', author: { name: 'Bob' } },
      { id: 'p3' },
      { id: 'p4', title: null },
    ]);
    assert.equal(p.total, 4);
    assert.deepEqual(Object.keys(p.documents[0]), ['id', 'title', 'author', 'createdAt', 'updatedAt']);
  });

  test('a path through an array applies to its object elements; a shorter path takes the whole field', async () => {
    const p = await list({ fields: 'items.qty, author ,author.name,constructor', filter: JSON.stringify({ id: { $in: ['p2', 'p3'] } }) });
    assert.deepEqual(p.documents.map(strip), [
      { id: 'p2', author: { name: 'Bob' }, items: [{ qty: 1 }, {}] },
      { id: 'p3', author: 'not an object', constructor: 'data' },
    ] as unknown[]);
  });

  test('system fields named in fields change nothing; an empty fields= returns whole documents', async () => {
    const p = await list({ fields: 'id,createdAt', limit: 1 });
    assert.deepEqual(p.documents.map(strip), [{ id: 'p1' }]);
    const whole = await list({ fields: '', limit: 1 });
    assert.deepEqual(strip(whole.documents[0]), POSTS[0]);
  });

  test('GET one document with fields', async () => {
    assert.deepEqual(strip(await api.get<Doc>('/posts/docs/p1', 200, { query: { fields: 'author.email,tags' } })), {
      id: 'p1',
      author: { email: 'ann@x.test' },
      tags: ['a'],
    });
    assert.deepEqual(strip(await api.get<Doc>('/posts/docs/p1')), POSTS[0]);
    assertError(await api.request('GET', '/posts/docs/p1', { query: { fields: 'a..b' } }), 400, 'validation_failed');
    assertError(await api.request('GET', '/posts/docs/nope', { query: { fields: 'title' } }), 404, 'not_found');
  });

  test('bad field paths → 400 validation_failed, as for sortBy', async () => {
    for (const fields of ['a..b', '$where', 'a-b', '1a', 'a.', 'x'.repeat(300), 'a[0]', Array.from({ length: 101 }, (_, i) => `f${i}`).join(',')]) {
      assertError(await api.request('GET', '/posts/docs', { query: { fields } }), 400, 'validation_failed', fields);
    }
  });

  test('projection under a read rule selects; the rule still decides which documents', async () => {
    const db = await t.server.createDatabase();
    const secret = apiClient(() => t.server, db.secretKey);
    await secret.put('/rules', { rules: { notes: { read: { owner: { $auth: 'id' } } } } });
    const ann = await newUser(t.server, db.publicKey, 'ann@fields.test');
    await secret.post(
      '/notes/bulk',
      {
        documents: [
          { id: 'mine', owner: ann.user.id, text: 'a', secret: 's' },
          { id: 'theirs', owner: 'x', text: 'b' },
        ],
      },
      201,
    );
    const asAnn = apiClient(() => t.server, db.publicKey, withSession(ann.session.token));
    const p = await asAnn.get<Page>('/notes/docs', 200, { query: { fields: 'text' } });
    assert.deepEqual(p.documents.map(strip), [{ id: 'mine', text: 'a' }]);
    assert.equal(p.total, 1);
    assertError(await asAnn.request('GET', '/notes/docs/theirs', { query: { fields: 'text' } }), 404, 'not_found');
    assert.deepEqual(strip(await asAnn.get<Doc>('/notes/docs/mine', 200, { query: { fields: 'owner' } })), { id: 'mine', owner: ann.user.id });
  });

  test('limit=0 answers the count only: no documents, the (filtered) total', async () => {
    assert.deepEqual(await list({ limit: 0 }), { documents: [], total: 4, limit: 0, offset: 0, nextCursor: null });
    assert.deepEqual(await list({ limit: 0, filter: JSON.stringify({ status: 'open' }) }), { documents: [], total: 3, limit: 0, offset: 0, nextCursor: null });
    assert.deepEqual(await list({ limit: 0, offset: 3 }), { documents: [], total: 4, limit: 0, offset: 3, nextCursor: null });
    assert.equal((await api.get<Page>('/empty/docs', 200, { query: { limit: 0 } })).total, 0);
    // A count follows writes.
    await api.post('/posts/docs', { id: 'p5', status: 'open' }, 201);
    assert.equal((await list({ limit: 0, filter: JSON.stringify({ status: 'open' }) })).total, 4);
    assert.equal((await list({ limit: 0 })).total, 5);
    await api.delete('/posts/docs/p5');
    assert.equal((await list({ limit: 0 })).total, 4);
    for (const limit of ['-1', '1001', '0.5']) {
      assertError(await api.request('GET', '/posts/docs', { query: { limit } }), 400, 'validation_failed', limit);
    }
  });
});

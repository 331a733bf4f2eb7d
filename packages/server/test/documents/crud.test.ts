import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

forEachStore('documents CRUD', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  const list = (collection: string, query: Record<string, string | number> = {}) =>
    api.get<{ documents: Doc[]; total: number }>(`/${collection}/docs`, 200, { query });

  test('create returns 201 with id and timestamps flat beside the fields; get returns the same', async () => {
    const c = await api.request('POST', '/posts/docs', { body: { title: 'Hello', tags: ['a'], n: 1.5, createdAt: 'x', updatedAt: 'y' } });
    assert.equal(c.status, 201);
    const doc = c.json as Doc;
    assert.equal(typeof doc.id, 'string');
    assert.match(doc.createdAt, ISO_MS, 'a body createdAt is ignored');
    assert.equal(doc.updatedAt, doc.createdAt);
    assert.deepEqual(
      { ...doc, id: undefined, createdAt: undefined, updatedAt: undefined },
      { title: 'Hello', tags: ['a'], n: 1.5, id: undefined, createdAt: undefined, updatedAt: undefined },
    );
    assert.deepEqual(await api.get(`/posts/docs/${doc.id}`), doc);
  });

  test('generated ids sort by creation time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await api.post<Doc>('/ordered/docs', { i }, 201)).id);
    assert.deepEqual([...ids].sort(), ids);
  });

  test('custom ids: valid ones are kept, invalid ones → 400, duplicates → 409 and the first stays', async () => {
    for (const id of ['a', 'A-b_9', 'x'.repeat(128)]) {
      const r = await api.request('POST', '/custom/docs', { body: { id, v: 1 } });
      assert.equal(r.status, 201, id);
      assert.equal((r.json as Doc).id, id);
    }
    for (const id of ['', 'x'.repeat(129), 'has space', 'dot.ted', 'sl/ash', 'é', 42, null, true]) {
      const r = await api.request('POST', '/custom/docs', { body: { id, v: 2 } });
      assertError(r, 400, 'validation_failed', JSON.stringify(id));
    }
    const long = 'x'.repeat(128);
    assert.equal((await api.get<Doc>(`/custom/docs/${long}`)).id, long, 'a 128-character id can be read');
    await api.patch(`/custom/docs/${long}`, { v: 9 }, 200);
    await api.delete(`/custom/docs/${long}`, 204);
    await api.post('/custom/docs', { id: long, v: 1 }, 201);
    const dup = await api.request('POST', '/custom/docs', { body: { id: 'a', v: 3 } });
    assertError(dup, 409, 'conflict');
    assert.equal((await api.get<Doc>('/custom/docs/a')).v, 1);
    assert.equal((await list('custom')).total, 3);
  });

  test('the same id may exist in two collections', async () => {
    await api.post('/one/docs', { id: 'same' }, 201);
    await api.post('/two/docs', { id: 'same' }, 201);
  });

  test('PATCH is a JSON Merge Patch: nested objects merge, null removes, arrays replace; createdAt unchanged', async () => {
    const c = await api.post<Doc>(
      '/merge/docs',
      { title: 't', author: { name: 'Ann', email: 'a@x', address: { city: 'Oslo', zip: '0150' } }, tags: ['a', 'b'], drop: 1 },
      201,
    );
    const d = await api.patch<Doc>(
      `/merge/docs/${c.id}`,
      {
        author: { email: null, address: { city: 'Bergen' } },
        tags: ['c'],
        drop: null,
        added: { x: null, y: 1 },
        createdAt: '2000-01-01T00:00:00.000Z',
      },
      200,
    );
    const expected = { id: c.id, title: 't', author: { name: 'Ann', address: { city: 'Bergen', zip: '0150' } }, tags: ['c'], added: { y: 1 } };
    assert.deepEqual({ ...d, createdAt: undefined, updatedAt: undefined }, { ...expected, createdAt: undefined, updatedAt: undefined });
    assert.equal(d.createdAt, c.createdAt, 'createdAt never changes');
    assert.ok(d.updatedAt >= c.updatedAt);
    assert.match(d.updatedAt, ISO_MS);
    assert.deepEqual(await api.get(`/merge/docs/${c.id}`), d, 'the patch was stored');
  });

  test('PATCH accepts application/merge-patch+json and a body id equal to the path id; another id → 400', async () => {
    const c = await api.post<Doc>('/merge/docs', { v: 1 }, 201);
    const ok = await api.patch<Doc>(`/merge/docs/${c.id}`, { id: c.id, v: 2 }, 200, { contentType: 'application/merge-patch+json' });
    assert.equal(ok.v, 2);
    const bad = await api.request('PATCH', `/merge/docs/${c.id}`, { body: { id: 'other', v: 3 } });
    assertError(bad, 400, 'validation_failed');
    assert.equal((await api.get<Doc>(`/merge/docs/${c.id}`)).v, 2, 'nothing changed');
  });

  test('PATCH or DELETE of a missing document → 404 not_found', async () => {
    const p = await api.request('PATCH', '/merge/docs/nope', { body: { v: 1 } });
    assertError(p, 404, 'not_found');
    const d = await api.request('DELETE', '/merge/docs/nope');
    assertError(d, 404, 'not_found');
  });

  test('DELETE → 204 with no body, then GET, PATCH and DELETE → 404', async () => {
    const c = await api.post<Doc>('/gone/docs', { v: 1 }, 201);
    const d = await api.request('DELETE', `/gone/docs/${c.id}`);
    assert.equal(d.status, 204);
    assert.equal(d.text, '');
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { v: 2 }],
      ['DELETE', undefined],
    ] as const) {
      const r = await api.request(method, `/gone/docs/${c.id}`, { body });
      assertError(r, 404, 'not_found', method);
    }
    assert.equal((await list('gone')).total, 0);
  });

  test('bulk insert answers 201 with the documents in input order, all readable', async () => {
    const input = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? { id: `b${29 - i}`, i } : { i }));
    const { documents: docs } = await api.post<{ documents: Doc[] }>('/bulk1/bulk', { documents: input }, 201);
    assert.deepEqual(
      docs.map((d) => d.i),
      input.map((d) => d.i),
    );
    input.forEach((d, i) => {
      if ('id' in d) assert.equal(docs[i].id, d.id);
    });
    assert.equal(new Set(docs.map((d) => d.id)).size, 30);
    assert.equal((await list('bulk1', { limit: 100 })).total, 30);
    assert.deepEqual(await api.get(`/bulk1/docs/${docs[7].id}`), docs[7]);
  });

  test('bulk is all or nothing: one bad item, a duplicate id within or against stored documents → nothing written', async () => {
    await api.post('/atomic/docs', { id: 'taken' }, 201);
    const cases: Array<[unknown[], number]> = [
      [[{ a: 1 }, { a: 2 }, 'not an object'], 400],
      [[{ a: 1 }, { id: 'bad id!' }], 400],
      [[{ a: 1 }, { a: [1, 2] }, 7], 400],
      [[{ id: 'd1' }, { a: 1 }, { id: 'd1' }], 409],
      [[{ a: 1 }, { id: 'taken' }], 409],
      [[{ a: 1 }, { big: 'x'.repeat(1024 * 1024 + 1) }], 413],
    ];
    for (const [documents, status] of cases) {
      const r = await api.request('POST', '/atomic/bulk', { body: { documents } });
      assert.equal(r.status, status, JSON.stringify(documents).slice(0, 80));
      const l = await list('atomic', { limit: 100 });
      assert.equal(l.total, 1, 'nothing was written');
      assert.deepEqual(
        l.documents.map((d) => d.id),
        ['taken'],
      );
    }
    await api.get('/atomic/docs/d1', 404);
  });

  test('bulk of 1001 documents → 413 and nothing written; 1000 is accepted', async () => {
    const r = await api.request('POST', '/many/bulk', { body: { documents: Array.from({ length: 1001 }, (_, i) => ({ i })) } });
    assertError(r, 413, 'payload_too_large');
    assert.equal((await list('many')).total, 0);
    await api.post('/many/bulk', { documents: Array.from({ length: 1000 }, (_, i) => ({ i })) }, 201);
    assert.equal((await list('many')).total, 1000);
  });

  test('bulk body must be {documents: [...]}', async () => {
    for (const body of [{}, { documents: 'x' }, [{ a: 1 }]]) {
      const r = await api.request('POST', '/shape/bulk', { body });
      assert.equal(r.status, 400, JSON.stringify(body));
    }
  });

  test('GET /collections lists collections with counts, following inserts and deletes', async () => {
    const fresh = apiClient(t.server, (await t.server.createDatabase()).secretKey);
    const cols = () => fresh.get<{ collections: Array<{ name: string; count: number }> }>('/collections');
    assert.deepEqual(await cols(), { collections: [] });
    await fresh.post('/beta/bulk', { documents: [{}, {}, {}] }, 201);
    const a = await fresh.post<Doc>('/alpha/docs', {}, 201);
    assert.deepEqual(await cols(), {
      collections: [
        { name: 'alpha', count: 1 },
        { name: 'beta', count: 3 },
      ],
    });
    const [b] = (await fresh.get<{ documents: Doc[] }>('/beta/docs')).documents;
    await fresh.delete(`/beta/docs/${b.id}`, 204);
    await fresh.delete(`/alpha/docs/${a.id}`, 204);
    assert.deepEqual(await cols(), { collections: [{ name: 'beta', count: 2 }] }, 'an emptied collection disappears');
    assert.equal((await fresh.get<{ total: number }>('/beta/docs')).total, 2, 'total follows deletes');
  });

  test('listing a collection with no documents → 200 with an empty page', async () => {
    assert.deepEqual(await api.get('/never/docs'), { documents: [], total: 0, limit: 20, offset: 0, nextCursor: null });
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';

type Doc = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

forEachStore('documents CRUD', (kind) => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer(kind);
    key = (await server.createDatabase()).secretKey;
  });
  after(() => server.close());

  const list = async (collection: string, query: Record<string, string | number> = {}) =>
    (await request(server, 'GET', `/${collection}/docs`, { key, query })).json as { documents: Doc[]; total: number };

  test('create returns 201 with id and timestamps flat beside the fields; get returns the same', async () => {
    const c = await request(server, 'POST', '/posts/docs', { key, body: { title: 'Hello', tags: ['a'], n: 1.5, createdAt: 'x', updatedAt: 'y' } });
    assert.equal(c.status, 201);
    const doc = c.json as Doc;
    assert.equal(typeof doc.id, 'string');
    assert.match(doc.createdAt, ISO_MS, 'a body createdAt is ignored');
    assert.equal(doc.updatedAt, doc.createdAt);
    assert.deepEqual({ ...doc, id: undefined, createdAt: undefined, updatedAt: undefined }, { title: 'Hello', tags: ['a'], n: 1.5, id: undefined, createdAt: undefined, updatedAt: undefined });
    const g = await request(server, 'GET', `/posts/docs/${doc.id}`, { key });
    assert.equal(g.status, 200);
    assert.deepEqual(g.json, doc);
  });

  test('generated ids sort by creation time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(((await request(server, 'POST', '/ordered/docs', { key, body: { i } })).json as Doc).id);
    assert.deepEqual([...ids].sort(), ids);
  });

  test('custom ids: valid ones are kept, invalid ones → 400, duplicates → 409 and the first stays', async () => {
    for (const id of ['a', 'A-b_9', 'x'.repeat(128)]) {
      const r = await request(server, 'POST', '/custom/docs', { key, body: { id, v: 1 } });
      assert.equal(r.status, 201, id);
      assert.equal((r.json as Doc).id, id);
    }
    for (const id of ['', 'x'.repeat(129), 'has space', 'dot.ted', 'sl/ash', 'é', 42, null, true]) {
      const r = await request(server, 'POST', '/custom/docs', { key, body: { id, v: 2 } });
      assert.equal(r.status, 400, JSON.stringify(id));
      assert.equal(errorCode(r), 'validation_failed');
    }
    const long = 'x'.repeat(128);
    assert.equal(((await request(server, 'GET', `/custom/docs/${long}`, { key })).json as Doc).id, long, 'a 128-character id can be read');
    assert.equal((await request(server, 'PATCH', `/custom/docs/${long}`, { key, body: { v: 9 } })).status, 200);
    assert.equal((await request(server, 'DELETE', `/custom/docs/${long}`, { key })).status, 204);
    assert.equal((await request(server, 'POST', '/custom/docs', { key, body: { id: long, v: 1 } })).status, 201);
    const dup = await request(server, 'POST', '/custom/docs', { key, body: { id: 'a', v: 3 } });
    assert.equal(dup.status, 409);
    assert.equal(errorCode(dup), 'conflict');
    assert.equal(((await request(server, 'GET', '/custom/docs/a', { key })).json as Doc).v, 1);
    assert.equal((await list('custom')).total, 3);
  });

  test('the same id may exist in two collections', async () => {
    assert.equal((await request(server, 'POST', '/one/docs', { key, body: { id: 'same' } })).status, 201);
    assert.equal((await request(server, 'POST', '/two/docs', { key, body: { id: 'same' } })).status, 201);
  });

  test('PATCH is a JSON Merge Patch: nested objects merge, null removes, arrays replace; createdAt unchanged', async () => {
    const c = (await request(server, 'POST', '/merge/docs', {
      key, body: { title: 't', author: { name: 'Ann', email: 'a@x', address: { city: 'Oslo', zip: '0150' } }, tags: ['a', 'b'], drop: 1 },
    })).json as Doc;
    const p = await request(server, 'PATCH', `/merge/docs/${c.id}`, {
      key, body: { author: { email: null, address: { city: 'Bergen' } }, tags: ['c'], drop: null, added: { x: null, y: 1 }, createdAt: '2000-01-01T00:00:00.000Z' },
    });
    assert.equal(p.status, 200);
    const d = p.json as Doc;
    const expected = { id: c.id, title: 't', author: { name: 'Ann', address: { city: 'Bergen', zip: '0150' } }, tags: ['c'], added: { y: 1 } };
    assert.deepEqual({ ...d, createdAt: undefined, updatedAt: undefined }, { ...expected, createdAt: undefined, updatedAt: undefined });
    assert.equal(d.createdAt, c.createdAt, 'createdAt never changes');
    assert.ok(d.updatedAt >= c.updatedAt);
    assert.match(d.updatedAt, ISO_MS);
    assert.deepEqual((await request(server, 'GET', `/merge/docs/${c.id}`, { key })).json, d, 'the patch was stored');
  });

  test('PATCH accepts application/merge-patch+json and a body id equal to the path id; another id → 400', async () => {
    const c = (await request(server, 'POST', '/merge/docs', { key, body: { v: 1 } })).json as Doc;
    const ok = await request(server, 'PATCH', `/merge/docs/${c.id}`, { key, body: { id: c.id, v: 2 }, contentType: 'application/merge-patch+json' });
    assert.equal(ok.status, 200);
    assert.equal((ok.json as Doc).v, 2);
    const bad = await request(server, 'PATCH', `/merge/docs/${c.id}`, { key, body: { id: 'other', v: 3 } });
    assert.equal(bad.status, 400);
    assert.equal(errorCode(bad), 'validation_failed');
    assert.equal(((await request(server, 'GET', `/merge/docs/${c.id}`, { key })).json as Doc).v, 2, 'nothing changed');
  });

  test('PATCH or DELETE of a missing document → 404 not_found', async () => {
    const p = await request(server, 'PATCH', '/merge/docs/nope', { key, body: { v: 1 } });
    assert.equal(p.status, 404);
    assert.equal(errorCode(p), 'not_found');
    const d = await request(server, 'DELETE', '/merge/docs/nope', { key });
    assert.equal(d.status, 404);
    assert.equal(errorCode(d), 'not_found');
  });

  test('DELETE → 204 with no body, then GET, PATCH and DELETE → 404', async () => {
    const c = (await request(server, 'POST', '/gone/docs', { key, body: { v: 1 } })).json as Doc;
    const d = await request(server, 'DELETE', `/gone/docs/${c.id}`, { key });
    assert.equal(d.status, 204);
    assert.equal(d.text, '');
    for (const [method, body] of [['GET', undefined], ['PATCH', { v: 2 }], ['DELETE', undefined]] as const) {
      const r = await request(server, method, `/gone/docs/${c.id}`, { key, body });
      assert.equal(r.status, 404, method);
      assert.equal(errorCode(r), 'not_found');
    }
    assert.equal((await list('gone')).total, 0);
  });

  test('bulk insert answers 201 with the documents in input order, all readable', async () => {
    const input = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? { id: `b${29 - i}`, i } : { i }));
    const r = await request(server, 'POST', '/bulk1/bulk', { key, body: { documents: input } });
    assert.equal(r.status, 201);
    const docs = (r.json as { documents: Doc[] }).documents;
    assert.deepEqual(docs.map((d) => d.i), input.map((d) => d.i));
    input.forEach((d, i) => { if ('id' in d) assert.equal(docs[i].id, d.id); });
    assert.equal(new Set(docs.map((d) => d.id)).size, 30);
    assert.equal((await list('bulk1', { limit: 100 })).total, 30);
    const one = await request(server, 'GET', `/bulk1/docs/${docs[7].id}`, { key });
    assert.deepEqual(one.json, docs[7]);
  });

  test('bulk is all or nothing: one bad item, a duplicate id within or against stored documents → nothing written', async () => {
    await request(server, 'POST', '/atomic/docs', { key, body: { id: 'taken' } });
    const cases: Array<[unknown[], number]> = [
      [[{ a: 1 }, { a: 2 }, 'not an object'], 400],
      [[{ a: 1 }, { id: 'bad id!' }], 400],
      [[{ a: 1 }, { a: [1, 2] }, 7], 400],
      [[{ id: 'd1' }, { a: 1 }, { id: 'd1' }], 409],
      [[{ a: 1 }, { id: 'taken' }], 409],
      [[{ a: 1 }, { big: 'x'.repeat(1024 * 1024 + 1) }], 413],
    ];
    for (const [documents, status] of cases) {
      const r = await request(server, 'POST', '/atomic/bulk', { key, body: { documents } });
      assert.equal(r.status, status, JSON.stringify(documents).slice(0, 80));
      const l = await list('atomic', { limit: 100 });
      assert.equal(l.total, 1, 'nothing was written');
      assert.deepEqual(l.documents.map((d) => d.id), ['taken']);
    }
    assert.equal((await request(server, 'GET', '/atomic/docs/d1', { key })).status, 404);
  });

  test('bulk of 1001 documents → 413 and nothing written; 1000 is accepted', async () => {
    const r = await request(server, 'POST', '/many/bulk', { key, body: { documents: Array.from({ length: 1001 }, (_, i) => ({ i })) } });
    assert.equal(r.status, 413);
    assert.equal(errorCode(r), 'payload_too_large');
    assert.equal((await list('many')).total, 0);
    const ok = await request(server, 'POST', '/many/bulk', { key, body: { documents: Array.from({ length: 1000 }, (_, i) => ({ i })) } });
    assert.equal(ok.status, 201);
    assert.equal((await list('many')).total, 1000);
  });

  test('bulk body must be {documents: [...]}', async () => {
    for (const body of [{}, { documents: 'x' }, [{ a: 1 }]]) {
      const r = await request(server, 'POST', '/shape/bulk', { key, body });
      assert.equal(r.status, 400, JSON.stringify(body));
    }
  });

  test('GET /collections lists collections with counts, following inserts and deletes', async () => {
    const fresh = (await server.createDatabase()).secretKey;
    const cols = async () => (await request(server, 'GET', '/collections', { key: fresh })).json as { collections: Array<{ name: string; count: number }> };
    assert.deepEqual(await cols(), { collections: [] });
    await request(server, 'POST', '/beta/bulk', { key: fresh, body: { documents: [{}, {}, {}] } });
    const a = (await request(server, 'POST', '/alpha/docs', { key: fresh, body: {} })).json as Doc;
    assert.deepEqual(await cols(), { collections: [{ name: 'alpha', count: 1 }, { name: 'beta', count: 3 }] });
    const b = ((await request(server, 'GET', '/beta/docs', { key: fresh })).json as { documents: Doc[] }).documents[0];
    assert.equal((await request(server, 'DELETE', `/beta/docs/${b.id}`, { key: fresh })).status, 204);
    assert.equal((await request(server, 'DELETE', `/alpha/docs/${a.id}`, { key: fresh })).status, 204);
    assert.deepEqual(await cols(), { collections: [{ name: 'beta', count: 2 }] }, 'an emptied collection disappears');
    const page = (await request(server, 'GET', '/beta/docs', { key: fresh })).json as { total: number };
    assert.equal(page.total, 2, 'total follows deletes');
  });

  test('listing a collection with no documents → 200 with an empty page', async () => {
    const r = await request(server, 'GET', '/never/docs', { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { documents: [], total: 0, limit: 20, offset: 0 });
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';

type Doc = { id: string; createdAt: string; updatedAt: string; [k: string]: unknown };

/** Versions, ETag, If-Match on PATCH and DELETE, If-None-Match on GET (API.md §1.2). */
forEachStore('document versions and preconditions', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const lastEventId = () => t.server.changes[t.server.changes.length - 1].id;

  test('create 201, get 200 and PATCH 200 carry ETag "<id of the event that last wrote the document>"', async () => {
    const created = await api.request('POST', '/posts/docs', { body: { title: 'a' } });
    assertStatus(created, 201, 'create');
    assert.equal(created.headers.get('etag'), `"${lastEventId()}"`);
    const id = (created.json as Doc).id;
    const got = await api.request('GET', `/posts/docs/${id}`);
    assert.equal(got.headers.get('etag'), created.headers.get('etag'));
    const patched = await api.request('PATCH', `/posts/docs/${id}`, { body: { title: 'b' } });
    assertStatus(patched, 200, 'patch');
    assert.equal(patched.headers.get('etag'), `"${lastEventId()}"`);
    assert.ok(BigInt(lastEventId()) > BigInt(created.headers.get('etag')!.replace(/"/g, '')));
    assert.equal((await api.request('GET', `/posts/docs/${id}`)).headers.get('etag'), patched.headers.get('etag'));
    const deleted = await api.request('DELETE', `/posts/docs/${id}`);
    assertStatus(deleted, 204, 'delete');
    assert.equal(deleted.headers.get('etag'), null, 'a 204 carries no ETag');
  });

  test('every accepted PATCH writes: an empty merge patch gets a new updatedAt, event and version', async () => {
    const doc = await api.post<Doc>('/posts/docs', { n: 1 }, 201);
    const before = t.server.changes.length;
    const r = await api.request('PATCH', `/posts/docs/${doc.id}`, { body: {} });
    assertStatus(r, 200, 'empty patch');
    assert.equal(t.server.changes.length, before + 1);
    assert.equal(t.server.changes[before].type, 'document.updated');
    assert.equal(r.headers.get('etag'), `"${t.server.changes[before].id}"`);
    assert.ok((r.json as Doc).updatedAt >= doc.updatedAt);
  });

  test('a bulk create gives its documents consecutive versions in input order', async () => {
    const before = t.server.changes.length;
    const { documents } = await api.post<{ documents: Doc[] }>('/posts/bulk', { documents: [{ i: 0 }, { i: 1 }, { id: 'own-bulk-id', i: 2 }, { i: 3 }] }, 201);
    const events = t.server.changes.slice(before);
    assert.deepEqual(
      events.map((e) => e.document.id),
      documents.map((d) => d.id),
    );
    for (let i = 1; i < events.length; i++) assert.equal(BigInt(events[i].id), BigInt(events[i - 1].id) + 1n);
    for (const [i, d] of documents.entries()) {
      assert.equal((await api.request('GET', `/posts/docs/${d.id}`)).headers.get('etag'), `"${events[i].id}"`);
    }
  });

  test('If-Match: the write happens only at a named version; 412 carries the current ETag and document, and writes nothing', async () => {
    const created = await api.request('POST', '/posts/docs', { body: { title: 'v1' } });
    const doc = created.json as Doc;
    const v1 = created.headers.get('etag')!;
    const ok = await api.request('PATCH', `/posts/docs/${doc.id}`, { body: { title: 'v2' }, headers: { 'if-match': `"0", ${v1}` } });
    assertStatus(ok, 200, 'patch at v1');
    const v2 = ok.headers.get('etag')!;
    const before = t.server.changes.length;
    const stale = await api.request('PATCH', `/posts/docs/${doc.id}`, { body: { title: 'lost' }, headers: { 'if-match': v1 } });
    assertError(stale, 412, 'precondition_failed');
    assert.equal(stale.headers.get('etag'), v2);
    assert.equal((stale.json as { document: Doc }).document.title, 'v2');
    assert.equal(t.server.changes.length, before, 'no event');
    // A weak tag never matches, even naming the current version.
    assertError(await api.request('PATCH', `/posts/docs/${doc.id}`, { body: { title: 'x' }, headers: { 'if-match': `W/${v2}` } }), 412, 'precondition_failed');
    assertError(await api.request('DELETE', `/posts/docs/${doc.id}`, { headers: { 'if-match': v1 } }), 412, 'precondition_failed');
    assert.equal((await api.get<Doc>(`/posts/docs/${doc.id}`)).title, 'v2');
    assertStatus(await api.request('PATCH', `/posts/docs/${doc.id}`, { body: { title: 'v3' }, headers: { 'if-match': '*' } }), 200, 'If-Match: *');
    assertError(await api.request('PATCH', '/posts/docs/nope', { body: { title: 'x' }, headers: { 'if-match': '*' } }), 404, 'not_found');
    assertError(await api.request('PATCH', `/posts/docs/${doc.id}`, { body: { title: 'x' }, headers: { 'if-match': 'not-a-tag' } }), 400, 'validation_failed');
    const current = (await api.request('GET', `/posts/docs/${doc.id}`)).headers.get('etag')!;
    assertStatus(await api.request('DELETE', `/posts/docs/${doc.id}`, { headers: { 'if-match': current } }), 204, 'delete at the current version');
  });

  test('If-None-Match naming the current version → 304 with its ETag and no body (weak comparison)', async () => {
    const created = await api.request('POST', '/posts/docs', { body: { title: 'cached' } });
    const { id } = created.json as Doc;
    const tag = created.headers.get('etag')!;
    for (const header of [tag, `W/${tag}`, `"1", ${tag}`, '*']) {
      const r = await api.request('GET', `/posts/docs/${id}`, { headers: { 'if-none-match': header } });
      assertStatus(r, 304, `If-None-Match: ${header}`);
      assert.equal(r.text, '');
      assert.equal(r.headers.get('etag'), tag);
    }
    const other = await api.request('GET', `/posts/docs/${id}`, { headers: { 'if-none-match': '"1"' } });
    assertStatus(other, 200, 'another version');
  });

  test('§10 decides first: a document the rules hide is 404 whatever If-Match or If-None-Match say', async () => {
    await api.put('/rules', { rules: { secret: { read: { owner: 'nobody' }, update: true, delete: true }, '*': { read: true } } });
    const created = await api.request('POST', '/secret/docs', { body: { owner: 'someone' } });
    const { id } = created.json as Doc;
    const tag = created.headers.get('etag')!;
    const { session } = await newUser(t.server, t.db.publicKey, `hidden-${kind}@example.test`);
    const as = (h: Record<string, string>) => ({ ...h, 'x-session-token': session.token });
    assertError(await pub.request('GET', `/secret/docs/${id}`, { headers: as({ 'if-none-match': tag }) }), 404, 'not_found');
    assertError(await pub.request('PATCH', `/secret/docs/${id}`, { body: { a: 1 }, headers: as({ 'if-match': '"1"' }) }), 404, 'not_found');
    assertError(await pub.request('DELETE', `/secret/docs/${id}`, { headers: as({ 'if-match': '"1"' }) }), 404, 'not_found');
    await api.put('/rules', { rules: {} });
  });

  test('concurrent PATCHes with the same If-Match: exactly one wins, the others get 412', async () => {
    const created = await api.request('POST', '/posts/docs', { body: { n: 0 } });
    const { id } = created.json as Doc;
    const tag = created.headers.get('etag')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api.request('PATCH', `/posts/docs/${id}`, { body: { n: i + 1 }, headers: { 'if-match': tag } })),
    );
    assert.equal(answers.filter((r) => r.status === 200).length, 1);
    assert.equal(answers.filter((r) => r.status === 412).length, 9);
  });
});

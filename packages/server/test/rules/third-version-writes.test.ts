import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';

type Doc = { id: string; [k: string]: unknown };

/** §10's third-version update rules `{ when, fields }`, UUID ids on public creates, and §0's CORS line. */
forEachStore('third-version rules for writes, and CORS', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );

  test('a public like counter: { when: "signedIn", fields: ["likes"] } lets $inc likes, nothing else', async () => {
    await api.put('/rules', { rules: { posts: { read: true, update: { when: 'signedIn', fields: ['likes'] } } } });
    assert.deepEqual((await api.get<{ rules: unknown }>('/rules')).rules, { posts: { read: true, update: { when: 'signedIn', fields: ['likes'] } } });
    const post = await api.post<Doc>('/posts/docs', { title: 'hello', likes: 0 }, 201);
    const u = await newUser(t.server, t.db.publicKey, `likes-${kind}@example.test`);
    const as = { headers: { 'x-session-token': u.session.token } };
    const liked = await pub.request('PATCH', `/posts/docs/${post.id}`, { ...as, body: { $inc: { likes: 1 } } });
    assertStatus(liked, 200, 'like');
    assert.equal((liked.json as Doc).likes, 1);
    assertError(await pub.request('PATCH', `/posts/docs/${post.id}`, { ...as, body: { $inc: { likes: 1 }, $set: { title: 'x' } } }), 403, 'forbidden');
    assertError(await pub.request('PATCH', `/posts/docs/${post.id}`, { ...as, body: { title: 'x' } }), 403, 'forbidden');
    assertError(await pub.request('PATCH', `/posts/docs/${post.id}`, { ...as, body: { extra: 1 } }), 403, 'forbidden');
    // Setting a field to the value it has changes nothing outside `fields`.
    assertStatus(await pub.request('PATCH', `/posts/docs/${post.id}`, { ...as, body: { title: 'hello', likes: 5 } }), 200, 'unchanged title');
    assertError(await pub.request('PATCH', `/posts/docs/${post.id}`, { body: { $inc: { likes: 1 } } }), 401, 'invalid_session');
    assert.equal((await api.get<Doc>(`/posts/docs/${post.id}`)).title, 'hello');
  });

  test('`when` may be any of the four forms; malformed forms are 400 invalid_rules naming the path', async () => {
    await api.put('/rules', { rules: { posts: { read: true, update: { when: { owner: { $auth: 'id' } }, fields: ['likes'] } } } });
    const bad = [
      { posts: { update: { when: 'sometimes', fields: ['likes'] } } },
      { posts: { update: { when: true, fields: [] } } },
      { posts: { update: { when: true, fields: ['a.b'] } } },
      { posts: { update: { when: true, fields: 'likes' } } },
    ];
    for (const rules of bad) {
      const r = await api.request('PUT', '/rules', { body: { rules } });
      assertError(r, 400, 'invalid_rules', JSON.stringify(rules));
      assert.equal((r.json as { error: { details: Array<{ path: string }> } }).error.details[0].path, '/rules/posts/update');
    }
    // Only update rules take the form.
    assertError(await api.request('PUT', '/rules', { body: { rules: { posts: { read: { when: true, fields: ['x'] } } } } }), 400, 'invalid_rules');
    await api.put('/rules', { rules: {} });
  });

  test('a public-key create may carry a canonical lower-case UUID id whatever the create rule says about id', async () => {
    await api.put('/rules', { rules: { todos: { read: true, create: { owner: { $auth: 'id' } } } } });
    const u = await newUser(t.server, t.db.publicKey, `uuid-${kind}@example.test`);
    const as = { headers: { 'x-session-token': u.session.token } };
    const id = '0192f0c4-5a7b-7c3d-8e9f-0a1b2c3d4e5f';
    const made = await pub.request('POST', '/todos/docs', { ...as, body: { id, owner: u.user.id } });
    assertStatus(made, 201, 'uuid id');
    assert.equal((made.json as Doc).id, id);
    assertError(await pub.request('POST', '/todos/docs', { ...as, body: { id, owner: u.user.id } }), 409, 'conflict');
    assertError(await pub.request('POST', '/todos/docs', { ...as, body: { id: id.toUpperCase(), owner: u.user.id } }), 403, 'forbidden');
    assertError(await pub.request('POST', '/todos/docs', { ...as, body: { id: 'my-own-id', owner: u.user.id } }), 403, 'forbidden');
    // The rule must still allow the document.
    assertError(await pub.request('POST', '/todos/docs', { ...as, body: { id: '0192f0c4-5a7b-7c3d-8e9f-0a1b2c3d4e60', owner: 'else' } }), 403, 'forbidden');
    await api.put('/rules', { rules: {} });
  });

  test('CORS: preflights allow If-Match, If-None-Match, Idempotency-Key and Range; answers expose ETag, Idempotent-Replayed and the rest', async () => {
    const pre = await fetch(`${t.server.base}/posts/docs/x`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'if-match, idempotency-key' },
    });
    assert.equal(pre.status, 204);
    const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    for (const h of ['authorization', 'content-type', 'x-session-token', 'if-match', 'if-none-match', 'idempotency-key', 'range'])
      assert.ok(allowed.includes(h), h);
    const r = await api.request('POST', '/posts/docs', { body: {}, headers: { origin: 'https://app.example' } });
    const exposed = (r.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    for (const h of [
      'etag',
      'idempotent-replayed',
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'content-range',
      'content-disposition',
    ]) {
      assert.ok(exposed.includes(h), h);
    }
  });
});

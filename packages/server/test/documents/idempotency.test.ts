import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { auth, newUser } from '../helpers/auth-client.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { createHash } from 'node:crypto';
import { IdempotencyKeys } from '../../src/idempotency/keys.ts';

type Doc = { id: string; [k: string]: unknown };

/** Idempotency-Key on every writing route (API.md §1.2). */
forEachStore('idempotency keys', (kind) => {
  const clock = new ManualClock();
  const t = useServer(kind, { clock });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const key = (k: string, extra: Record<string, string> = {}) => ({ headers: { 'idempotency-key': `${kind}-${k}`, ...extra } });
  const count = async (collection: string) => (await api.get<{ total: number }>(`/${collection}/docs`, 200, { query: { limit: 0 } })).total;

  test('a create retried with the same key is replayed (same answer, Idempotent-Replayed: true), written once', async () => {
    const first = await api.request('POST', '/orders/docs', { body: { item: 'a' }, ...key('create') });
    assertStatus(first, 201, 'first');
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const events = t.server.changes.length;
    const again = await api.request('POST', '/orders/docs', { body: { item: 'a' }, ...key('create') });
    assertStatus(again, 201, 'replay');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    assert.equal(t.server.changes.length, events, 'nothing written');
    assert.equal(await count('orders'), 1);
  });

  test('another body, path, query or If-Match with a used key → 422 idempotency_key_reused', async () => {
    const doc = await api.post<Doc>('/orders/docs', { n: 0 }, 201, key('reuse'));
    assertError(await api.request('POST', '/orders/docs', { body: { n: 1 }, ...key('reuse') }), 422, 'idempotency_key_reused');
    assertError(await api.request('POST', '/other/docs', { body: { n: 0 }, ...key('reuse') }), 422, 'idempotency_key_reused');
    assertError(await api.request('PATCH', `/orders/docs/${doc.id}`, { body: { n: 0 }, ...key('reuse') }), 422, 'idempotency_key_reused');
    // Same bytes, other JSON spacing: another fingerprint (the body's bytes count).
    assertError(await api.request('POST', '/orders/docs', { raw: '{"n": 0}', ...key('reuse') }), 422, 'idempotency_key_reused');
  });

  test('PATCH with $inc, DELETE, bulk and batch are replayed, not applied twice', async () => {
    const doc = await api.post<Doc>('/orders/docs', { likes: 0 }, 201);
    for (let i = 0; i < 3; i++) assertStatus(await api.request('PATCH', `/orders/docs/${doc.id}`, { body: { $inc: { likes: 1 } }, ...key('inc') }), 200, 'inc');
    assert.equal((await api.get<Doc>(`/orders/docs/${doc.id}`)).likes, 1);
    assertStatus(await api.request('DELETE', `/orders/docs/${doc.id}`, key('delete')), 204, 'delete');
    const replayed = await api.request('DELETE', `/orders/docs/${doc.id}`, key('delete'));
    assertStatus(replayed, 204, 'delete replayed, not 404');
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    const before = await count('bulked');
    for (let i = 0; i < 2; i++) assertStatus(await api.request('POST', '/bulked/bulk', { body: { documents: [{}, {}] }, ...key('bulk') }), 201, 'bulk');
    assert.equal(await count('bulked'), before + 2);
    const batch = { operations: [{ op: 'create', collection: 'batched', document: { a: 1 } }] };
    const b1 = await api.request('POST', '/batch', { body: batch, ...key('batch') });
    const b2 = await api.request('POST', '/batch', { body: batch, ...key('batch') });
    assertStatus(b2, 200, 'batch replay');
    assert.equal(b2.text, b1.text);
    assert.equal(await count('batched'), 1);
  });

  test('a retry whose write would now fail (its own id taken, its If-Match stale) is still a replay, and writes nothing', async () => {
    const created = await api.request('POST', '/orders/docs', { body: { id: `${kind}-own-id`, n: 1 }, ...key('own-id') });
    assertStatus(created, 201, 'create with its own id');
    const etag = created.headers.get('etag')!;
    const events = t.server.changes.length;
    const again = await api.request('POST', '/orders/docs', { body: { id: `${kind}-own-id`, n: 1 }, ...key('own-id') });
    assertStatus(again, 201, 'the retry: a replay, not 409 for the id');
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.text, created.text);
    const patch = { body: { n: 2 }, ...key('if-match', { 'if-match': etag }) };
    const patched = await api.request('PATCH', `/orders/docs/${kind}-own-id`, patch);
    assertStatus(patched, 200, 'PATCH with If-Match');
    const retried = await api.request('PATCH', `/orders/docs/${kind}-own-id`, patch);
    assertStatus(retried, 200, 'the retry: a replay, not 412 for the old version');
    assert.equal(retried.headers.get('idempotent-replayed'), 'true');
    assert.equal(retried.text, patched.text);
    assert.equal(t.server.changes.length, events + 1, 'one event: the PATCH, once');
  });

  test('a failed request records nothing: the key is free again', async () => {
    assertError(await api.request('PATCH', '/orders/docs/missing', { body: { a: 1 }, ...key('fails') }), 404, 'not_found');
    const created = await api.post<Doc>('/orders/docs', { id: 'made-later' }, 201);
    assert.equal(created.id, 'made-later');
    // The same key, now with another request, is fine: the 404 released it.
    assertStatus(await api.request('PATCH', '/orders/docs/made-later', { body: { a: 2 }, ...key('fails') }), 200, 'after release');
  });

  test('callers are separate: the database, each user of a public key, the public key without a session', async () => {
    await api.put('/rules', { rules: { likes: { read: true, create: true } } });
    const u1 = await newUser(t.server, t.db.publicKey, `idem1-${kind}@example.test`);
    const u2 = await newUser(t.server, t.db.publicKey, `idem2-${kind}@example.test`);
    const body = { post: 'p1' };
    const sessions = [u1, u2].map((u) => ({ 'x-session-token': u.session.token }));
    const answers = [
      await api.request('POST', '/likes/docs', { body, ...key('shared') }),
      await pub.request('POST', '/likes/docs', { body, ...key('shared', sessions[0]) }),
      await pub.request('POST', '/likes/docs', { body, ...key('shared', sessions[1]) }),
      await pub.request('POST', '/likes/docs', { body, ...key('shared') }),
    ];
    for (const r of answers) {
      assertStatus(r, 201, 'each caller writes');
      assert.equal(r.headers.get('idempotent-replayed'), null);
    }
    assert.equal(new Set(answers.map((r) => (r.json as Doc).id)).size, 4);
    // A second session of user 1 is the same caller: a replay.
    const second = await auth.signIn(t.server, t.db.publicKey, `idem1-${kind}@example.test`, 'correct horse battery');
    assertStatus(second, 200, 'second sign-in');
    const token = (second.json as { session: { token: string } }).session.token;
    assert.notEqual(token, u1.session.token);
    const r = await pub.request('POST', '/likes/docs', { body, ...key('shared', { 'x-session-token': token }) });
    assert.equal(r.headers.get('idempotent-replayed'), 'true');
    assert.equal(await count('likes'), 4);
    await api.put('/rules', { rules: {} });
  });

  test('a key whose first request has not answered → 409 with Retry-After: 1; a claim with no answer lapses after 60 s', async () => {
    const body = '{"x":1}';
    // The claim row of a request that has not answered yet (one still running, or one whose server died before COMMIT).
    const h = createHash('sha256');
    for (const part of ['POST', '/v1/orders/docs', '', body]) h.update(part).update('\0');
    const store = t.server.db.store;
    await store.transaction((tx) =>
      store.keyRows.insert(tx, [
        `database:${t.db.databaseId}`,
        `${kind}-running`,
        t.db.databaseId,
        h.digest('base64url'),
        new Date(clock.now()).toISOString(),
        null,
        null,
        null,
      ]),
    );
    const busy = await api.request('POST', '/orders/docs', { raw: body, ...key('running') });
    assertError(busy, 409, 'conflict');
    assert.equal(busy.headers.get('retry-after'), '1');
    assertError(await api.request('POST', '/orders/docs', { raw: '{"x":2}', ...key('running') }), 422, 'idempotency_key_reused');
    clock.advance(61_000);
    const after = await api.request('POST', '/orders/docs', { raw: body, ...key('running') });
    assertStatus(after, 201, 'the lapsed claim is taken anew');
    assert.equal(after.headers.get('idempotent-replayed'), null);
    const replay = await api.request('POST', '/orders/docs', { raw: body, ...key('running') });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, after.text);
  });

  test('answers are kept 24 hours, then pruned; a malformed key is 400', async () => {
    await api.post<Doc>('/orders/docs', { keep: 1 }, 201, key('kept'));
    clock.advance(23 * 3_600_000);
    const replay = await api.request('POST', '/orders/docs', { body: { keep: 1 }, ...key('kept') });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    clock.advance(2 * 3_600_000);
    const keys = new IdempotencyKeys(t.server.db.store, clock);
    assert.ok((await keys.prune()) >= 1);
    const rows = await t.server.db.store.all('SELECT key FROM idempotency_keys WHERE key = ?', [`${kind}-kept`]);
    assert.equal(rows.length, 0);
    const fresh = await api.request('POST', '/orders/docs', { body: { keep: 1 }, ...key('kept') });
    assertStatus(fresh, 201, 'after 24 h: a new request');
    assert.equal(fresh.headers.get('idempotent-replayed'), null);
    for (const bad of ['', 'x'.repeat(256), 'é']) {
      assertError(await api.request('POST', '/orders/docs', { body: {}, headers: { 'idempotency-key': bad } }), 400, 'validation_failed');
    }
  });

  test('concurrent requests with one key: one writes, the others are 409 or replays', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => api.request('POST', '/racing/docs', { body: { r: 1 }, ...key('race') })));
    assert.ok(
      answers.every((r) => r.status === 201 || r.status === 409),
      answers.map((r) => r.status).join(),
    );
    assert.equal(answers.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null).length, 1);
    assert.equal(await count('racing'), 1);
  });

  test('a write that loses its key to a concurrent one fails alone: writes beside it with other keys commit', async () => {
    // Sent together, so that on PostgreSQL they share commit groups, where the key rows are written by one statement for all.
    const others = Array.from({ length: 10 }, (_, i) => api.request('POST', '/shared/docs', { body: { other: i }, ...key(`other-${i}`) }));
    const bodies = [...Array.from({ length: 6 }, () => ({ same: 1 })), ...Array.from({ length: 4 }, (_, i) => ({ differing: i }))];
    const contested = bodies.map((body) => api.request('POST', '/shared/docs', { body, ...key('contested') }));
    const [o, c] = await Promise.all([Promise.all(others), Promise.all(contested)]);
    for (const r of o) assertStatus(r, 201, 'a write with a key of its own');
    const fresh = c.flatMap((r, i) => (r.status === 201 && r.headers.get('idempotent-replayed') === null ? [i] : []));
    assert.equal(fresh.length, 1, c.map((r) => r.status).join());
    const winner = JSON.stringify(bodies[fresh[0]]);
    for (const [i, r] of c.entries()) {
      if (i === fresh[0]) continue;
      // The same request again: 409 while the first ran, else its replay; another request with the key: 422 (or 409 while it ran).
      if (JSON.stringify(bodies[i]) === winner && r.status === 201) assert.equal(r.text, c[fresh[0]].text, 'a replay of the winner');
      else assert.ok(r.status === 409 || r.status === 422, `${r.status} ${r.text}`);
      if (JSON.stringify(bodies[i]) !== winner) assert.notEqual(r.status, 201);
    }
    assert.equal(await count('shared'), 11);
  });
});

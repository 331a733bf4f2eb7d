import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';

type Doc = { id: string; createdAt: string; updatedAt: string; [k: string]: unknown };

/** Update operators exactly as API.md §1.2's table, applied atomically in the write's transaction. */
forEachStore('update operators', (kind) => {
  const t = useServer(kind, { env: { LIMIT_DOCUMENT_BYTES: '2000' } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const fresh = (fields: Record<string, unknown> = {}) => api.post<Doc>('/ops/docs', fields, 201);
  const update = (id: string, body: unknown) => api.request('PATCH', `/ops/docs/${id}`, { body });
  const strip = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: Doc) => rest;

  test('each operator of the table', async () => {
    const doc = await fresh({ n: 1, s: 'b', tags: ['a'], gone: true, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 5 }, 3, 7] });
    const r = await update(doc.id, {
      $set: { 'profile.name': 'x', obj: { k: [1] } },
      $unset: { gone: true, never: true },
      $inc: { n: 2, 'stats.views': 1 },
      $min: { s: 'a', low: 4 },
      $max: { high: 9 },
      $push: { tags: { $each: ['b', 'a'] }, list: 1 },
      $addToSet: { set: { $each: [{ a: 1, b: 2 }, { b: 2, a: 1 }, 3] } },
      $pull: { items: { sku: 'a' } },
      $currentDate: { touched: true },
    });
    assertStatus(r, 200, 'update');
    const out = r.json as Doc;
    assert.deepEqual(strip(out), {
      n: 3,
      s: 'a',
      tags: ['a', 'b', 'a'],
      items: [{ sku: 'b', qty: 5 }, 3, 7],
      profile: { name: 'x' },
      obj: { k: [1] },
      stats: { views: 1 },
      low: 4,
      high: 9,
      list: [1],
      set: [{ a: 1, b: 2 }, 3],
      touched: out.updatedAt,
    });
    assert.equal(r.headers.get('etag'), `"${t.server.changes[t.server.changes.length - 1].id}"`);
    const pulled = await update(doc.id, { $pull: { items: { $gt: 4 } }, $addToSet: { tags: 'c' } });
    assert.deepEqual((pulled.json as Doc).items, [{ sku: 'b', qty: 5 }, 3]);
    assert.deepEqual((pulled.json as Doc).tags, ['a', 'b', 'a', 'c']);
    assert.deepEqual(((await update(doc.id, { $pull: { tags: 'a' } })).json as Doc).tags, ['b', 'c']);
  });

  test('$min / $max follow §1 order across types; a stored null is a value', async () => {
    const doc = await fresh({ a: 5, b: 'x', c: null, d: true });
    const out = (await update(doc.id, { $min: { a: 'z', b: 3, c: 1 }, $max: { d: 1, e: false } })).json as Doc;
    // numbers < strings < booleans; null is below all.
    assert.deepEqual(strip(out), { a: 5, b: 3, c: null, d: true, e: false });
  });

  test('400 invalid_update / invalid_field_name cases write nothing', async () => {
    const doc = await fresh({ n: 1 });
    const cases: Array<[unknown, string]> = [
      [{ $bogus: { n: 1 } }, 'invalid_update'],
      [{ $inc: { n: '1' } }, 'invalid_update'],
      [{ $inc: {} }, 'invalid_update'],
      [{ $inc: 5 }, 'invalid_update'],
      [{ $unset: { n: 1 } }, 'invalid_update'],
      [{ $min: { n: [1] } }, 'invalid_update'],
      [{ $pull: { n: {} } }, 'invalid_update'],
      [{ $pull: { n: { $gt: 1, sku: 'a' } } }, 'invalid_update'],
      [{ $push: { n: { $each: 1 } } }, 'invalid_update'],
      [{ $set: { $x: 1 } }, 'invalid_update'],
      [{ $set: { 'a.__proto__.b': 1 } }, 'invalid_field_name'],
      [{ $set: { a: { 'b.c': 1 } } }, 'invalid_field_name'],
      [{ $set: { id: 'x' } }, 'invalid_update'],
      [{ $inc: { updatedAt: 1 } }, 'invalid_update'],
      [{ $set: { a: 1 }, $inc: { 'a.b': 1 } }, 'invalid_update'],
      [{ $set: { a: 1 }, $unset: { a: true } }, 'invalid_update'],
      [{ $set: { a: 1 }, title: 'x' }, 'invalid_update'],
    ];
    const before = t.server.changes.length;
    for (const [body, code] of cases) assertError(await update(doc.id, body), 400, code, JSON.stringify(body));
    assert.equal(t.server.changes.length, before);
  });

  test('409 conflict, naming the path, when an operator cannot apply; nothing written', async () => {
    const doc = await fresh({ s: 'text', arr: [1], nul: null, big: 1.7e308 });
    const cases = [
      { $inc: { s: 1 } },
      { $push: { s: 1 } },
      { $addToSet: { nul: 1 } },
      { $pull: { s: 1 } },
      { $set: { 's.x': 1 } },
      { $inc: { 'arr.0': 1 } },
      { $set: { 'nul.x': 1 } },
      { $inc: { big: 1.7e308 } },
    ];
    const before = t.server.changes.length;
    for (const body of cases) {
      const r = await update(doc.id, body);
      assertError(r, 409, 'conflict', JSON.stringify(body));
      assert.match((r.json as { error: { message: string } }).error.message, new RegExp(Object.keys(Object.values(body)[0])[0].replace('.', '\\.')));
    }
    assert.equal(t.server.changes.length, before);
    // $unset and $pull through a missing or non-object parent: nothing happens (a write all the same).
    assertStatus(await update(doc.id, { $unset: { 's.x': true }, $pull: { 'nul.y': 1, missing: 1 } }), 200, 'unset through a string');
    assert.deepEqual(strip(await api.get<Doc>(`/ops/docs/${doc.id}`)), { s: 'text', arr: [1], nul: null, big: 1.7e308 });
  });

  test('fields named like prototype members are data', async () => {
    const doc = await fresh({});
    const out = (await update(doc.id, { $inc: { constructor: 1, 'toString.valueOf': 2 }, $push: { hasOwnProperty: 1 } })).json as Doc;
    assert.deepEqual(strip(out), { constructor: 1, toString: { valueOf: 2 }, hasOwnProperty: [1] });
    assert.equal(({} as Record<string, unknown>).valueOf, Object.prototype.valueOf);
  });

  test('the result obeys the §8 document size limit (413) and the update rule (403); order 409 before 403', async () => {
    const doc = await fresh({ n: 0, owner: 'a' });
    assertError(await update(doc.id, { $set: { big: 'x'.repeat(3000) } }), 413, 'payload_too_large');
    await api.put('/rules', { rules: { ops: { read: true, update: { owner: { $auth: 'id' } } } } });
    const user = await newUser(t.server, t.db.publicKey, `ops-${kind}@example.test`);
    const as = { headers: { 'x-session-token': user.session.token } };
    const mine = await fresh({ owner: user.user.id, n: 0, s: 'x' });
    assertStatus(await pub.request('PATCH', `/ops/docs/${mine.id}`, { ...as, body: { $inc: { n: 1 } } }), 200, 'allowed');
    assertError(await pub.request('PATCH', `/ops/docs/${mine.id}`, { ...as, body: { $set: { owner: 'b' } } }), 403, 'forbidden');
    assertError(await pub.request('PATCH', `/ops/docs/${mine.id}`, { ...as, body: { $set: { owner: 'b' }, $inc: { s: 1 } } }), 409, 'conflict');
    assertError(await pub.request('PATCH', `/ops/docs/${doc.id}`, { ...as, body: { $inc: { n: 1 } } }), 404, 'not_found');
    await api.put('/rules', { rules: {} });
  });

  test('200 concurrent $inc from several connections add exactly 200; concurrent $addToSet lose no value', async () => {
    const doc = await fresh({ likes: 0 });
    const results = await Promise.all(Array.from({ length: 200 }, () => update(doc.id, { $inc: { likes: 1 } })));
    for (const r of results) assertStatus(r, 200, '$inc');
    assert.equal((await api.get<Doc>(`/ops/docs/${doc.id}`)).likes, 200);
    const set = await fresh({});
    await Promise.all(Array.from({ length: 60 }, (_, i) => update(set.id, { $addToSet: { members: `u${i}` } })));
    const members = (await api.get<Doc>(`/ops/docs/${set.id}`)).members as string[];
    assert.equal(members.length, 60);
    assert.deepEqual(new Set(members), new Set(Array.from({ length: 60 }, (_, i) => `u${i}`)));
  });
});

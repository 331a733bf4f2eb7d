import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SvcError, type Doc } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

interface Post {
  title: string;
  score: number;
  kind?: string;
  meta?: { a?: number; b?: number };
}

describe('documents', () => {
  let f: Fixture;
  before(async () => {
    f = await fixture();
  });
  after(async () => {
    await f.close();
  });

  test('create, get, update (merge patch), delete', async () => {
    const posts = f.admin().collection<Post>('posts');
    const p = await posts.create({ title: 'Hello', score: 1, meta: { a: 1, b: 2 } });
    assert.equal(typeof p.id, 'string');
    assert.match(p.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(p.title, 'Hello');
    assert.deepEqual(await posts.get(p.id), p);

    const u = await posts.update(p.id, { score: 5, meta: { a: null, b: 3 } });
    assert.ok(u, 'a secret key always reads the result back');
    assert.equal(u.score, 5);
    assert.equal(u.title, 'Hello');
    assert.deepEqual(u.meta, { b: 3 });

    await posts.delete(p.id);
    await assert.rejects(posts.get(p.id), (e: unknown) => e instanceof SvcError && e.status === 404 && e.code === 'not_found');
  });

  test('own ids, duplicate → conflict, validation details', async () => {
    const c = f.admin().collection<Post>('own');
    const d = await c.create({ id: 'my-id', title: 't', score: 0 });
    assert.equal(d.id, 'my-id');
    await assert.rejects(c.create({ id: 'my-id', title: 't', score: 0 }), (e: unknown) => e instanceof SvcError && e.status === 409 && e.code === 'conflict');
    await assert.rejects(f.admin().collection('auth').create({}), (e: unknown) => e instanceof SvcError && e.status === 400);
    await assert.rejects(c.list({ limit: 5000 }), (e: unknown) => e instanceof SvcError && e.status === 400);
    // @ts-expect-error an unknown operator is a compile error with a typed collection (and 400 invalid_filter at run time)
    await assert.rejects(c.list({ filter: { score: { $near: 1 } } }), (e: unknown) => e instanceof SvcError && e.code === 'invalid_filter');
  });

  test('bulkCreate answers in input order', async () => {
    const c = f.admin().collection<Post>('bulk');
    const docs = await c.bulkCreate([
      { title: 'a', score: 1 },
      { title: 'b', score: 2 },
      { title: 'c', score: 3 },
    ]);
    assert.deepEqual(
      docs.map((d) => d.title),
      ['a', 'b', 'c'],
    );
    await assert.rejects(
      c.bulkCreate([
        { id: 'x', title: 'x', score: 0 },
        { id: 'x', title: 'y', score: 0 },
      ]),
      (e: unknown) => e instanceof SvcError && e.code === 'conflict',
    );
    assert.equal((await c.list()).total, 3, 'all or nothing');
  });

  test('list: limit, offset, sort, filter (an object, JSON-encoded for you)', async () => {
    const c = f.admin().collection<Post>('scores');
    await c.bulkCreate(Array.from({ length: 30 }, (_, i) => ({ title: `p${i}`, score: i % 10, kind: i % 2 ? 'odd' : 'even' })));
    const page = await c.list({ limit: 5, offset: 2, sortBy: 'score', sortOrder: 'desc', filter: { score: { $gte: 5 }, kind: 'odd' } });
    assert.equal(page.total, 9, 'total counts the filtered set (scores 5, 7, 9 three times each)');
    assert.equal(page.limit, 5);
    assert.equal(page.offset, 2);
    assert.equal(page.documents.length, 5);
    const scores = page.documents.map((d) => d.score);
    assert.deepEqual(
      [...scores].sort((a, b) => b - a),
      scores,
      'sorted desc',
    );
    assert.ok(scores.every((s) => s >= 5 && s % 2 === 1));
    const or = await c.list({ filter: { $or: [{ score: 0 }, { score: 9 }] }, limit: 100 });
    assert.equal(or.total, 6);
  });

  test('async iteration over every page', async () => {
    const c = f.admin().collection<Post>('many');
    const created = await c.bulkCreate(Array.from({ length: 250 }, (_, i) => ({ title: `t${i}`, score: i })));
    const seen: Doc<Post>[] = [];
    for await (const d of c.iterate({ pageSize: 40 })) seen.push(d);
    assert.deepEqual(
      seen.map((d) => d.id),
      created.map((d) => d.id),
      'every document once, oldest first',
    );
    let n = 0;
    for await (const d of c) n += d.score >= 0 ? 1 : 0;
    assert.equal(n, 250);
    const filtered: number[] = [];
    for await (const d of c.iterate({ pageSize: 7, filter: { score: { $lt: 20 } }, sortBy: 'score', sortOrder: 'desc' })) filtered.push(d.score);
    assert.deepEqual(
      filtered,
      Array.from({ length: 20 }, (_, i) => 19 - i),
    );
  });

  test('collections() and a public key is read-only', async () => {
    const names = (await f.admin().collections()).map((c) => c.name);
    assert.ok(names.includes('many'));
    const pub = f.browser().collection<Post>('many');
    assert.equal((await pub.list({ limit: 1 })).total, 250);
    await assert.rejects(pub.create({ title: 'no', score: 0 }), (e: unknown) => e instanceof SvcError && e.status === 403 && e.code === 'read_only_key');
  });

  test('a bad key is an API error, an unreachable server a network error', async () => {
    const bad = f.admin({ key: 'svc_sk_' + 'x'.repeat(40) }).collection('posts');
    await assert.rejects(bad.list(), (e: unknown) => e instanceof SvcError && e.status === 401 && e.code === 'invalid_api_key' && !e.isNetworkError);
    const down = f.admin({ url: 'http://127.0.0.1:1' }).collection('posts');
    await assert.rejects(down.list(), (e: unknown) => e instanceof SvcError && e.isNetworkError && e.status === 0 && !e.isAbort);
  });
});

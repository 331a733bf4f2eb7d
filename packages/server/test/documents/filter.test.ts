import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number };

/** One fixture for every operator; the expected id lists below are written by hand and hold on both stores. */
const FIXTURE: Doc[] = [
  { id: 'f1', status: 'open', score: 5, author: { name: 'Ann' } },
  { id: 'f2', status: 'closed', score: 15, author: { name: 'Bob' } },
  { id: 'f3', status: 'open', score: 25, flag: true },
  { id: 'f4', status: 'draft' },
  { id: 'f5', status: null, score: '20' },
  { id: 'f6', score: null, flag: false },
  { id: 'f7', status: 'open', score: 10, author: { name: `O'Brien "q" \\ %_` } },
  { id: 'f8', status: "x') OR 1=1 --", score: 0, flag: 'true' },
  { id: 'f9', status: 'open', score: 7.5, tags: ['a', 'b'], meta: { n: 1 } },
];

const CASES: Array<[unknown, string[]]> = [
  [{}, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ status: 'open' }, ['f1', 'f3', 'f7', 'f9']],
  [{ status: { $eq: 'open' } }, ['f1', 'f3', 'f7', 'f9']],
  // MongoDB: $ne and $nin match documents where the field is missing or null
  [{ status: { $ne: 'open' } }, ['f2', 'f4', 'f5', 'f6', 'f8']],
  [{ score: { $ne: 5 } }, ['f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $ne: null } }, ['f1', 'f2', 'f3', 'f5', 'f7', 'f8', 'f9']],
  [{ score: null }, ['f4', 'f6']],
  [{ status: null }, ['f5', 'f6']],
  // range operators compare within one type and never match missing or null
  [{ score: { $gt: 10 } }, ['f2', 'f3']],
  [{ score: { $gte: 10 } }, ['f2', 'f3', 'f7']],
  [{ score: { $lt: 7.5 } }, ['f1', 'f8']],
  [{ score: { $lte: 7.5 } }, ['f1', 'f8', 'f9']],
  [{ score: { $gt: 5, $lt: 20 } }, ['f2', 'f7', 'f9']],
  [{ score: { $gte: '0' } }, ['f5']],
  [{ status: { $gt: 'd' } }, ['f1', 'f3', 'f4', 'f7', 'f8', 'f9']],
  [{ status: { $lt: 'open' } }, ['f2', 'f4']],
  [{ score: { $in: [5, 25, '20'] } }, ['f1', 'f3', 'f5']],
  [{ score: { $in: [null] } }, ['f4', 'f6']],
  [{ score: { $in: [] } }, []],
  [{ score: { $nin: [5, 25] } }, ['f2', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $nin: [] } }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $exists: true } }, ['f1', 'f2', 'f3', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $exists: false } }, ['f4']],
  [{ 'author.name': { $exists: true } }, ['f1', 'f2', 'f7']],
  [{ 'author.name': 'Bob' }, ['f2']],
  [{ 'author.name': { $gte: 'B' } }, ['f2', 'f7']],
  // booleans are not strings or numbers
  [{ flag: true }, ['f3']],
  [{ flag: false }, ['f6']],
  [{ flag: 'true' }, ['f8']],
  [{ flag: { $ne: true } }, ['f1', 'f2', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ flag: { $gt: false } }, ['f3']],
  [{ score: 1 }, []],
  [{ score: '5' }, []],
  // implicit AND, $and, $or, nesting
  [{ status: 'open', score: { $gte: 10 } }, ['f3', 'f7']],
  [{ $and: [{ status: 'open' }, { score: { $gte: 10 } }] }, ['f3', 'f7']],
  [{ $or: [{ status: 'closed' }, { flag: true }] }, ['f2', 'f3']],
  [{ $or: [{ score: { $lt: 1 } }, { $and: [{ status: 'open' }, { score: { $gt: 20 } }] }] }, ['f3', 'f8']],
  [{ status: 'open', $or: [{ score: 5 }, { score: 10 }] }, ['f1', 'f7']],
  // system fields
  [{ id: { $in: ['f1', 'f9', 'nope'] } }, ['f1', 'f9']],
  [{ id: { $gt: 'f7' } }, ['f8', 'f9']],
  [{ id: { $ne: 'f1' }, status: 'open' }, ['f3', 'f7', 'f9']],
  // values with quotes, backslashes and LIKE wildcards are only values
  [{ 'author.name': `O'Brien "q" \\ %_` }, ['f7']],
  [{ status: "x') OR 1=1 --" }, ['f8']],
  [{ status: "open' OR '1'='1" }, []],
  [{ status: '%' }, []],
];

forEachStore('documents filters', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(() => api.post('/items/bulk', { documents: FIXTURE }, 201));

  const list = (filter: string, query: Record<string, string | number> = {}) =>
    api.request('GET', '/items/docs', { query: { filter, sortBy: 'id', limit: 100, ...query } });

  test('every operator selects exactly the expected documents', async () => {
    for (const [filter, expected] of CASES) {
      const r = await list(JSON.stringify(filter));
      assert.equal(r.status, 200, `${JSON.stringify(filter)}: ${r.text}`);
      const p = r.json as Page;
      assert.deepEqual(
        p.documents.map((d) => d.id),
        expected,
        JSON.stringify(filter),
      );
      assert.equal(p.total, expected.length, `total of ${JSON.stringify(filter)}`);
    }
  });

  test('total counts the filtered set, not the page', async () => {
    const p = (await list(JSON.stringify({ status: 'open' }), { limit: 1, offset: 1 })).json as Page;
    assert.deepEqual(
      p.documents.map((d) => d.id),
      ['f3'],
    );
    assert.equal(p.total, 4);
    const none = (await list(JSON.stringify({ status: 'nobody' }))).json as Page;
    assert.deepEqual(none, { documents: [], total: 0, limit: 100, offset: 0, nextCursor: null });
  });

  test('a filter combines with sorting by a user field', async () => {
    const p = (await list(JSON.stringify({ score: { $exists: true } }), { sortBy: 'score', sortOrder: 'desc' })).json as Page;
    assert.deepEqual(
      p.documents.map((d) => d.id),
      ['f5', 'f3', 'f2', 'f7', 'f9', 'f1', 'f8', 'f6'],
    );
  });

  test('malformed filters, unknown operators and bad paths → 400 invalid_filter', async () => {
    const bad = [
      'not json',
      '{',
      '[]',
      '"open"',
      '42',
      'null',
      '[{"a":1}]',
      '{"a":{"$regex":"x"}}',
      '{"$where":"1"}',
      '{"$not":{"a":1}}',
      '{"a":{"$gt":1,"b":2}}',
      '{"a":{"$elemMatch":{}}}',
      '{"a;drop":1}',
      `{"a') OR 1=1 --":1}`,
      '{"a..b":1}',
      '{"1a":1}',
      '{"a.":1}',
      '{"":1}',
      '{"a b":1}',
      '{"a-b":1}',
      '{"a":{"$in":5}}',
      '{"a":{"$nin":"x"}}',
      '{"a":{"$in":[{}]}}',
      '{"a":{"$exists":1}}',
      '{"a":{"$exists":"true"}}',
      '{"$and":[]}',
      '{"$or":{}}',
      '{"$and":[1]}',
      '{"$or":"x"}',
      '{"a":{"$gt":{}}}',
      '{"a":{"$gt":[1]}}',
      '{"a":{"b":1}}',
      '{"a":[1,2]}',
      '{"a":{"$eq":{"$gt":1}}}',
    ];
    for (const filter of bad) assertError(await list(filter), 400, 'invalid_filter', filter);
    const deep = JSON.stringify(Array.from({ length: 20 }).reduce<unknown>((f) => ({ $and: [f] }), { a: 1 }));
    assert.equal(errorCode(await list(deep)), 'invalid_filter');
    assert.equal(((await list('{}')).json as Page).total, FIXTURE.length, 'the collection is intact');
  });
});

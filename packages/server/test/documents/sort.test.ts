import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number; limit: number; offset: number };

/**
 * One fixture, one expected order, asserted on both stores: API.md §1 orders missing/null <
 * numbers (numeric) < strings (by code point) < false < true < objects and arrays, ties by id.
 * Ids are chosen so that id order disagrees with value order wherever it could hide a bug.
 */
const FIXTURE: Doc[] = [
  { id: 'z_missing' },
  { id: 'y_null', v: null },
  { id: 'q_true', v: true },
  { id: 'p_false', v: false },
  { id: 'w_obj', v: { a: 1 } },
  { id: 'v_arr', v: [1, 2] },
  { id: 'u_objb', v: { '0': 'zzz' } },
  { id: 'a_ten', v: 10 },
  { id: 'b_twopointfive', v: 2.5 },
  { id: 'c_neg', v: -5 },
  { id: 'd_big', v: 1000 },
  { id: 'e_zero', v: 0 },
  { id: 'f_str10', v: '10' },
  { id: 'g_str9', v: '9' },
  { id: 'h_upperB', v: 'B' },
  { id: 'i_lowera', v: 'a' },
  { id: 'j_emoji', v: '\u{1F600}' },
  { id: 'k_fullwidth', v: '\uff5e' },
  { id: 'l_empty', v: '' },
  { id: 'm_accent', v: 'é' },
];

/** Expected ascending order, written out by hand (not computed with JS comparisons). */
const ASC = [
  // missing and null tie, by id
  'y_null',
  'z_missing',
  // numbers, numerically
  'c_neg',
  'e_zero',
  'b_twopointfive',
  'a_ten',
  'd_big',
  // strings by code point: '' < '10' < '9' < 'B' < 'a' < 'é' (U+E9) < U+FF5E < U+1F600 (UTF-16 order would swap the last two)
  'l_empty',
  'f_str10',
  'g_str9',
  'h_upperB',
  'i_lowera',
  'm_accent',
  'k_fullwidth',
  'j_emoji',
  // false < true
  'p_false',
  'q_true',
  // objects and arrays tie, by id
  'u_objb',
  'v_arr',
  'w_obj',
];

/** Descending: the exact reverse (ties break by id in the same direction). */
const DESC = [...ASC].reverse();

forEachStore('documents sort and paging', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(async () => {
    // Inserted one by one, in an order unrelated to both ids and values.
    for (const doc of [...FIXTURE].sort((a, b) => (a.id.slice(2) < b.id.slice(2) ? -1 : 1))) await api.post('/mixed/docs', doc, 201);
  });

  const page = (collection: string, query: Record<string, string | number>) => api.get<Page>(`/${collection}/docs`, 200, { query });

  test('mixed types sort ascending exactly per API.md §1', async () => {
    const p = await page('mixed', { sortBy: 'v', limit: 100 });
    assert.deepEqual(
      p.documents.map((d) => d.id),
      ASC,
    );
    assert.equal(p.total, FIXTURE.length);
  });

  test('mixed types sort descending is the exact reverse', async () => {
    const p = await page('mixed', { sortBy: 'v', sortOrder: 'desc', limit: 100 });
    assert.deepEqual(
      p.documents.map((d) => d.id),
      DESC,
    );
  });

  test('paging through the mixed sort by 3 gives the same order, each document once', async () => {
    for (const [order, expected] of [
      ['asc', ASC],
      ['desc', DESC],
    ] as const) {
      const seen: string[] = [];
      for (let offset = 0; offset < FIXTURE.length + 3; offset += 3) {
        const p = await page('mixed', { sortBy: 'v', sortOrder: order, limit: 3, offset });
        assert.equal(p.limit, 3);
        assert.equal(p.offset, offset);
        seen.push(...p.documents.map((d) => d.id));
      }
      assert.deepEqual(seen, expected);
    }
  });

  test('range filters compare within a type in the same order as sorting (code points, false < true)', async () => {
    const ids = async (filter: unknown) => (await page('mixed', { filter: JSON.stringify(filter), sortBy: 'v', limit: 100 })).documents.map((d) => d.id);
    assert.deepEqual(await ids({ v: { $gt: '\uff5e' } }), ['j_emoji']);
    assert.deepEqual(await ids({ v: { $gt: 'a', $lt: '\u{1F600}' } }), ['m_accent', 'k_fullwidth']);
    assert.deepEqual(await ids({ v: { $gte: '' } }), ['l_empty', 'f_str10', 'g_str9', 'h_upperB', 'i_lowera', 'm_accent', 'k_fullwidth', 'j_emoji']);
    assert.deepEqual(await ids({ v: { $gt: 2.5, $lte: 1000 } }), ['a_ten', 'd_big']);
    assert.deepEqual(await ids({ v: { $lt: 0 } }), ['c_neg']);
    assert.deepEqual(await ids({ v: { $lt: true } }), ['p_false']);
    assert.deepEqual(await ids({ v: { $gte: false } }), ['p_false', 'q_true']);
    assert.deepEqual(await ids({ v: { $exists: true, $nin: [null, 10, '10', true] } }).then((l) => l.length), 15);
  });

  test('nested path sort (author.name), documents without the path first', async () => {
    const docs = [
      { id: 'n1', author: { name: 'Carol' } },
      { id: 'n2', author: { name: 'alice' } },
      { id: 'n3', author: 'not an object' },
      { id: 'n4', author: { name: 'Bob', age: 3 } },
      { id: 'n5' },
      { id: 'n6', author: { name: 42 } },
    ];
    await api.post('/nested/bulk', { documents: docs }, 201);
    const p = await page('nested', { sortBy: 'author.name', limit: 10 });
    assert.deepEqual(
      p.documents.map((d) => d.id),
      ['n3', 'n5', 'n6', 'n4', 'n1', 'n2'],
    );
    const d = await page('nested', { sortBy: 'author.name', sortOrder: 'desc', limit: 10 });
    assert.deepEqual(
      d.documents.map((x) => x.id),
      ['n2', 'n1', 'n4', 'n6', 'n5', 'n3'],
    );
  });

  test('50 equal values paged by 7: each document exactly once, ordered by id (asc and desc)', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `t${String((i * 37) % 50).padStart(2, '0')}`);
    await api.post('/ties/bulk', { documents: ids.map((id) => ({ id, same: 'x', n: 1 })) }, 201);
    const sorted = [...ids].sort();
    for (const sortBy of ['same', 'n', 'createdAt']) {
      for (const [order, expected] of [
        ['asc', sorted],
        ['desc', [...sorted].reverse()],
      ] as const) {
        const seen: string[] = [];
        for (let offset = 0; offset < 56; offset += 7) {
          const p = await page('ties', { sortBy, sortOrder: order, limit: 7, offset });
          assert.equal(p.total, 50);
          seen.push(...p.documents.map((d) => d.id));
        }
        assert.deepEqual(seen, expected, `${sortBy} ${order}`);
      }
    }
  });

  test('default sort is createdAt ascending; id, createdAt and updatedAt sort as system fields', async () => {
    // Each write waits for the millisecond to turn, so createdAt/updatedAt strictly increase (no ties to hide behind id order).
    const nextMs = async () => {
      const now = Date.now();
      while (Date.now() <= now) await new Promise((r) => setImmediate(r));
    };
    for (const id of ['s3', 's1', 's2']) {
      await nextMs();
      await api.post('/sys/docs', { id }, 201);
    }
    await nextMs();
    await api.patch('/sys/docs/s3', { touched: true });
    const ids = async (q: Record<string, string>) => (await page('sys', q)).documents.map((d) => d.id);
    assert.deepEqual(await ids({}), ['s3', 's1', 's2']);
    assert.deepEqual(await ids({ sortOrder: 'desc' }), ['s2', 's1', 's3']);
    assert.deepEqual(await ids({ sortBy: 'id' }), ['s1', 's2', 's3']);
    assert.deepEqual(await ids({ sortBy: 'id', sortOrder: 'desc' }), ['s3', 's2', 's1']);
    assert.deepEqual(await ids({ sortBy: 'updatedAt' }), ['s1', 's2', 's3']);
  });

  test('limit and offset defaults and bounds', async () => {
    await api.post('/bounds/bulk', { documents: Array.from({ length: 25 }, (_, i) => ({ i })) }, 201);
    const d = await page('bounds', {});
    assert.equal(d.documents.length, 20);
    assert.equal(d.limit, 20);
    assert.equal(d.offset, 0);
    assert.equal(d.total, 25);
    assert.equal((await page('bounds', { limit: 1000 })).documents.length, 25);
    assert.equal((await page('bounds', { limit: 1 })).documents.length, 1);
    assert.equal((await page('bounds', { offset: 24 })).documents.length, 1);
    const past = await page('bounds', { offset: 1000 });
    assert.equal(past.documents.length, 0);
    assert.equal(past.total, 25);
    for (const [name, value] of [
      ['limit', '1001'],
      ['limit', 'abc'],
      ['limit', '-1'],
      ['limit', '1.5'],
      ['limit', ''],
      ['offset', '-1'],
      ['offset', 'abc'],
      ['offset', '1.5'],
      ['sortOrder', 'up'],
      ['sortOrder', 'ASC'],
    ]) {
      assertError(await api.request('GET', '/bounds/docs', { query: { [name]: value } }), 400, 'validation_failed', `${name}=${value}`);
    }
  });

  test('bad sortBy paths and injection attempts → 400; the table is intact afterwards', async () => {
    for (const sortBy of ['a;drop', "a') OR 1=1 --", 'a..b', '1a', 'a.', '.a', 'a-b', 'a b', '$.a', 'a[0]', "v'", 'data->>v', 'x'.repeat(300)]) {
      assertError(await api.request('GET', '/mixed/docs', { query: { sortBy } }), 400, 'validation_failed', sortBy);
    }
    assert.equal((await page('mixed', { limit: 100 })).total, FIXTURE.length);
  });
});

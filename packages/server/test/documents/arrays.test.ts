import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';

/**
 * Arrays as in MongoDB, `$prefix` and `$icontains` (API.md §1.1). One
 * fixture of arrays of mixed types, nested objects, arrays of objects and missing fields; every
 * expected answer is written by hand, in order, and must hold on SQLite and on PostgreSQL alike.
 */

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number };

const FIXTURE: Doc[] = [
  {
    id: 'a1',
    tags: ['home', 'work'],
    items: [
      { sku: 'a', qty: 1 },
      { sku: 'b', qty: 5 },
    ],
    s: [1, 15],
    name: 'Alpha',
  },
  { id: 'a2', tags: ['home'], items: [{ sku: 'a', qty: 3 }], s: 5, name: 'alphabet' },
  { id: 'a3', tags: [], items: [], s: [], name: 'ALPINE' },
  { id: 'a4', tags: 'home', items: { sku: 'a', qty: 5 }, s: 20, name: 'Beta' },
  { id: 'a5', tags: [null, 'x', 2, true, { k: 1 }, ['home']], items: [{ sku: 'c' }, 7, null], s: ['6', 7], name: ['Gamma', 'delta'] },
  { id: 'a6', name: 'Straße ΣΑΣ' },
  { id: 'a7', tags: ['Home', 'WORK', '100%_off'], items: [{ sku: 'b', qty: [2, 9] }], s: [4.5, 5.5], name: 'İstanbul', code: 'a%b_c' },
  {
    id: 'a8',
    tags: null,
    items: [
      { sku: 'a', qty: 2 },
      { sku: 'b', qty: 2 },
    ],
    s: null,
    name: 42,
    meta: { tags: ['home'] },
  },
];
const ALL = FIXTURE.map((d) => d.id);
const but = (...ids: string[]) => ALL.filter((id) => !ids.includes(id));

const CASES: Array<[unknown, string[]]> = [
  // equality, $in and ranges match when any element does; $ne and $nin when none does
  [{ tags: 'home' }, ['a1', 'a2', 'a4']],
  [{ tags: { $eq: 'work' } }, ['a1']],
  [{ tags: { $ne: 'home' } }, ['a3', 'a5', 'a6', 'a7', 'a8']],
  [{ tags: { $in: ['work', 'x'] } }, ['a1', 'a5']],
  [{ tags: { $nin: ['home', 'x'] } }, ['a3', 'a6', 'a7', 'a8']],
  [{ tags: 2 }, ['a5']],
  [{ tags: true }, ['a5']],
  [{ tags: { $gt: 1 } }, ['a5']],
  [{ tags: { $gte: 'home' } }, ['a1', 'a2', 'a4', 'a5']],
  // null: missing, null, or an array holding null (an empty array holds nothing)
  [{ tags: null }, ['a5', 'a6', 'a8']],
  [{ tags: { $ne: null } }, ['a1', 'a2', 'a3', 'a4', 'a7']],
  [{ tags: { $in: [null, 'work'] } }, ['a1', 'a5', 'a6', 'a8']],
  [{ tags: { $exists: true } }, but('a6')],
  // several operators on one field are each satisfied on their own
  [{ s: { $gt: 4, $lt: 6 } }, ['a1', 'a2', 'a7']],
  [{ s: '6' }, ['a5']],
  [{ s: 6 }, []],
  // $all, $size
  [{ tags: { $all: ['home', 'work'] } }, ['a1']],
  [{ tags: { $all: ['home'] } }, ['a1', 'a2', 'a4']],
  [{ tags: { $all: [] } }, []],
  [{ tags: { $size: 0 } }, ['a3']],
  [{ tags: { $size: 2 } }, ['a1']],
  [{ tags: { $size: 6 } }, ['a5']],
  [{ s: { $size: 1 } }, []],
  [{ tags: { $size: 2 ** 40 } }, []],
  // $elemMatch: operators on the element itself, or a filter on its fields
  [{ s: { $elemMatch: { $gt: 4, $lt: 6 } } }, ['a7']],
  [{ tags: { $elemMatch: { $in: ['home', 2] } } }, ['a1', 'a2', 'a5']],
  [{ tags: { $elemMatch: { $ne: 'home' } } }, ['a1', 'a5', 'a7']],
  [{ tags: { $elemMatch: { k: 1 } } }, ['a5']],
  [{ items: { $elemMatch: { sku: 'a', qty: { $gte: 2 } } } }, ['a2', 'a8']],
  [{ items: { $elemMatch: { qty: { $exists: false } } } }, ['a5']],
  [{ items: { $elemMatch: { $or: [{ sku: 'c' }, { qty: 3 }] } } }, ['a2', 'a5']],
  // a path crossing an array applies to each element (one array level)
  [{ 'items.sku': 'a' }, ['a1', 'a2', 'a4', 'a8']],
  [{ 'items.sku': 'a', 'items.qty': { $gte: 5 } }, ['a1', 'a4']],
  [{ 'items.qty': { $gt: 4 } }, ['a1', 'a4']],
  [{ 'items.qty': null }, ['a5', 'a6']],
  [{ 'items.qty': { $exists: false } }, ['a3', 'a5', 'a6']],
  [{ 'items.qty': { $size: 2 } }, ['a7']],
  [{ 'items.qty': { $elemMatch: { $gt: 8 } } }, ['a7']],
  [{ 'items.sku': { $nin: ['a', 'b'] } }, ['a3', 'a5', 'a6']],
  [{ 'meta.tags': 'home' }, ['a8']],
  // $prefix: case-sensitive, literal, strings only, elements of arrays too
  [{ name: { $prefix: 'Al' } }, ['a1']],
  [{ name: { $prefix: 'al' } }, ['a2']],
  [{ name: { $prefix: 'G' } }, ['a5']],
  [{ name: { $prefix: '' } }, but('a8')],
  [{ name: { $prefix: '4' } }, []],
  [{ tags: { $prefix: 'ho' } }, ['a1', 'a2', 'a4']],
  [{ tags: { $prefix: '100%' } }, ['a7']],
  [{ tags: { $prefix: '100_' } }, []],
  [{ code: { $prefix: 'a%' } }, ['a7']],
  [{ code: { $prefix: 'a_' } }, []],
  [{ id: { $prefix: 'a' } }, ALL],
  [{ id: { $prefix: 'a7' } }, ['a7']],
  // $icontains: a substring under case folding, literal
  [{ name: { $icontains: 'ALP' } }, ['a1', 'a2', 'a3']],
  [{ name: { $icontains: 'delta' } }, ['a5']],
  [{ name: { $icontains: 'σας' } }, ['a6']],
  [{ name: { $icontains: 'ISTANBUL' } }, ['a7']],
  [{ name: { $icontains: 'strasse' } }, []],
  [{ name: { $icontains: '%' } }, []],
  [{ tags: { $icontains: 'HOME' } }, ['a1', 'a2', 'a4', 'a7']],
  [{ tags: { $icontains: '%_' } }, ['a7']],
  [{ code: { $icontains: 'B_C' } }, ['a7']],
  [{ id: { $icontains: 'A8' } }, ['a8']],
  // combined
  [{ $or: [{ tags: { $size: 0 } }, { 'items.sku': 'c' }] }, ['a3', 'a5']],
  [{ tags: 'home', name: { $icontains: 'a' } }, ['a1', 'a2', 'a4']],
  [{ id: { $all: ['a1'] } }, ['a1']],
];

forEachStore('documents: arrays, $prefix and $icontains', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(() => api.post('/items/bulk', { documents: FIXTURE }, 201));

  const list = (filter: unknown, query: Record<string, string | number> = {}) =>
    api.request('GET', '/items/docs', { query: { filter: typeof filter === 'string' ? filter : JSON.stringify(filter), sortBy: 'id', limit: 100, ...query } });

  test('every operator selects exactly the expected documents, in order', async () => {
    for (const [filter, expected] of CASES) {
      const r = await list(filter);
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

  test('sorting keeps the §1 order while the filter opens arrays', async () => {
    const byName = (await list({ tags: 'home' }, { sortBy: 'name' })).json as Page;
    assert.deepEqual(
      byName.documents.map((d) => d.id),
      ['a1', 'a4', 'a2'],
    );
    const byS = (await list({ s: { $exists: true } }, { sortBy: 's', sortOrder: 'desc' })).json as Page;
    // arrays are objects-and-arrays (last), tied, then by id in the same direction
    assert.deepEqual(
      byS.documents.map((d) => d.id),
      ['a7', 'a5', 'a3', 'a1', 'a4', 'a2', 'a8'],
    );
  });

  test('bad operands → 400 invalid_filter', async () => {
    const bad: unknown[] = [
      { tags: ['a'] },
      { tags: { $eq: ['a'] } },
      { tags: { $ne: { a: 1 } } },
      { tags: { $in: [['a']] } },
      { tags: { $all: 'x' } },
      { tags: { $all: [['x']] } },
      { tags: { $all: [{}] } },
      { tags: { $size: -1 } },
      { tags: { $size: 1.5 } },
      { tags: { $size: '1' } },
      { tags: { $size: null } },
      { tags: { $elemMatch: 'x' } },
      { tags: { $elemMatch: {} } },
      { tags: { $elemMatch: [] } },
      { tags: { $elemMatch: { $gt: 1, a: 1 } } },
      { tags: { $elemMatch: { $regex: 'x' } } },
      { items: { $elemMatch: { 'a..b': 1 } } },
      { items: { $elemMatch: { sku: ['a'] } } },
      { name: { $prefix: 1 } },
      { name: { $prefix: null } },
      { name: { $prefix: ['a'] } },
      { name: { $icontains: {} } },
      { name: { $icontains: true } },
      { name: { $prefix: 'nul\u0000' } },
      { id: { $size: 'x' } },
      { id: { $prefix: 2 } },
    ];
    // $elemMatch nests as deeply as $and/$or may (8)
    bad.push(Array.from({ length: 12 }).reduce<unknown>((f) => ({ $elemMatch: f }), { $gt: 1 }));
    bad[bad.length - 1] = { tags: bad[bad.length - 1] };
    for (const filter of bad) assertError(await list(filter), 400, 'invalid_filter', JSON.stringify(filter));
    const nested = Array.from({ length: 3 }).reduce<unknown>((f) => ({ $elemMatch: f }), { $gt: 1 });
    assert.equal((await list({ tags: nested })).status, 200);
  });

  test('keys a field path could not name are refused in writes', async () => {
    for (const body of [{ 'a.b': 1 }, { $set: 1 }, { n: { 'x.y': 1 } }, { list: [{ $gt: 1 }] }]) {
      assertError(await api.request('POST', '/items/docs', { body }), 400, 'invalid_field_name', JSON.stringify(body));
    }
  });

  test('rules (§10): a $auth comparison matches a scalar only; $all is membership; lists and gets agree', async () => {
    await api.put('/rules', {
      rules: {
        notes: { read: { owner: { $auth: 'id' } }, create: true },
        boards: { read: { members: { $all: [{ $auth: 'id' }] } }, create: true },
      },
    });
    const ann = await newUser(t.server, t.db.publicKey, 'ann@arrays.test');
    const id = ann.user.id;
    await api.post(
      '/notes/bulk',
      {
        documents: [
          { id: 'n1', owner: id },
          { id: 'n2', owner: [id] },
          { id: 'n3', owner: [id, 'x'] },
          { id: 'n4', owner: 'x' },
        ],
      },
      201,
    );
    await api.post(
      '/boards/bulk',
      { documents: [{ id: 'b1', members: [id, 'x'] }, { id: 'b2', members: id }, { id: 'b3', members: ['x'] }, { id: 'b4' }] },
      201,
    );
    const as = apiClient(
      () => t.server,
      () => t.db.publicKey,
      () => ({ headers: { 'x-session-token': ann.session.token } }),
    );
    const ids = async (collection: string, filter?: unknown) =>
      (await as.get<Page>(`/${collection}/docs`, 200, { query: { sortBy: 'id', ...(filter ? { filter: JSON.stringify(filter) } : {}) } })).documents.map(
        (d) => d.id,
      );
    assert.deepEqual(await ids('notes'), ['n1']);
    assert.deepEqual(await ids('notes', { owner: id }), ['n1'], "the caller's own filter opens arrays, the rule does not");
    assert.deepEqual(await ids('boards'), ['b1', 'b2']);
    assert.deepEqual(await ids('boards', { members: 'x' }), ['b1']);
    await as.get('/notes/docs/n1', 200);
    assertError(await as.request('GET', '/notes/docs/n2'), 404, 'not_found');
    await as.get('/boards/docs/b1', 200);
    assertError(await as.request('GET', '/boards/docs/b3'), 404, 'not_found');
  });
});

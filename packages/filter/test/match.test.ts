import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, compareCodePoints, compareValues, matcher, matches, NEVER, parseFilter, parseSort } from '../src/index.js';
import { prng, randomDocument, randomFilter } from './random.js';

// The matcher by hand (the server's property test holds it to the list SQL of both stores on
// random documents and filters): the cases the server's own matcher was pinned with.

const T = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
const DOCS: Array<Record<string, unknown>> = [
  { id: 'f1', status: 'open', score: 5, author: { name: 'Ann' } },
  { id: 'f2', status: 'closed', score: 15, author: { name: 'Bob' } },
  { id: 'f3', status: 'open', score: 25, flag: true },
  { id: 'f4', status: 'draft' },
  { id: 'f5', status: null, score: '20' },
  { id: 'f6', score: null, flag: false },
  { id: 'f7', status: 'open', score: 10, author: { name: `O'Brien` } },
  { id: 'f8', status: 'x', score: 0, flag: 'true' },
  { id: 'f9', status: 'open', score: 7.5, tags: ['a', 'b'], meta: { n: 1 }, constructor: 'c', toString: { x: 1 } },
].map((d) => ({ ...d, ...T }));

const matching = (filter: Record<string, unknown>) => {
  const tree = parseFilter(filter);
  return DOCS.filter((d) => matches(tree, d)).map((d) => d.id);
};
const m = (filter: Record<string, unknown>) => matcher(parseFilter(filter));

const CASES: Array<[Record<string, unknown>, string[]]> = [
  [{}, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ status: 'open' }, ['f1', 'f3', 'f7', 'f9']],
  [{ status: { $eq: 'open' } }, ['f1', 'f3', 'f7', 'f9']],
  [{ status: { $ne: 'open' } }, ['f2', 'f4', 'f5', 'f6', 'f8']],
  [{ score: { $ne: null } }, ['f1', 'f2', 'f3', 'f5', 'f7', 'f8', 'f9']],
  [{ score: null }, ['f4', 'f6']],
  [{ score: { $gt: 10 } }, ['f2', 'f3']],
  [{ score: { $gte: 10 } }, ['f2', 'f3', 'f7']],
  [{ score: { $lt: 7.5 } }, ['f1', 'f8']],
  [{ score: { $gt: 5, $lt: 20 } }, ['f2', 'f7', 'f9']],
  [{ score: { $gte: '0' } }, ['f5']],
  [{ score: { $gte: null } }, ['f4', 'f6']],
  [{ score: { $gt: null } }, []],
  [{ score: { $in: [5, 25, '20'] } }, ['f1', 'f3', 'f5']],
  [{ score: { $in: [null] } }, ['f4', 'f6']],
  [{ score: { $in: [] } }, []],
  [{ score: { $nin: [5, 25] } }, ['f2', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $nin: [] } }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $exists: true } }, ['f1', 'f2', 'f3', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ score: { $exists: false } }, ['f4']],
  [{ 'author.name': { $gte: 'B' } }, ['f2', 'f7']],
  [{ 'author.name': null }, ['f3', 'f4', 'f5', 'f6', 'f8', 'f9']],
  [{ flag: true }, ['f3']],
  [{ flag: 'true' }, ['f8']],
  [{ flag: { $gt: false } }, ['f3']],
  [{ flag: { $lt: true } }, ['f6']],
  [{ $or: [{ status: 'closed' }, { flag: true }] }, ['f2', 'f3']],
  [{ status: 'open', $or: [{ score: 5 }, { score: 10 }] }, ['f1', 'f7']],
  [{ $and: [{ status: 'open' }, { score: { $gte: 10 } }] }, ['f3', 'f7']],
  // system fields are strings: null never equals them, they always exist
  [{ id: { $in: ['f1', 'f9', 'nope'] } }, ['f1', 'f9']],
  [{ id: { $gt: 'f7' } }, ['f8', 'f9']],
  [{ id: null }, []],
  [{ id: { $exists: false } }, []],
  [{ createdAt: { $gte: '2026' } }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  // arrays (§1.1): equality looks at the elements, $ne at none of them; a path crosses one level
  [{ tags: 'a' }, ['f9']],
  [{ tags: { $ne: 'a' } }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8']],
  [{ tags: { $all: ['a', 'b'] } }, ['f9']],
  [{ tags: { $all: ['a', 'c'] } }, []],
  [{ tags: { $all: [] } }, []],
  [{ status: { $all: ['open'] } }, ['f1', 'f3', 'f7', 'f9']],
  [{ tags: { $size: 2 } }, ['f9']],
  [{ tags: { $elemMatch: { $gt: 'a' } } }, ['f9']],
  [{ tags: { $elemMatch: { $gt: 'b' } } }, []],
  [{ tags: { $prefix: 'b' } }, ['f9']],
  [{ status: { $prefix: 'op' } }, ['f1', 'f3', 'f7', 'f9']],
  [{ 'author.name': { $icontains: "o'b" } }, ['f7']],
  [{ 'author.name': { $icontains: 'B' } }, ['f2', 'f7']],
  [{ id: { $prefix: 'f' } }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9']],
  [{ id: { $icontains: 'F9' } }, ['f9']],
  [{ tags: null }, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8']],
  [{ tags: { $exists: true } }, ['f9']],
  [{ 'tags.length': { $exists: true } }, []],
  [{ 'meta.n': 1 }, ['f9']],
  [{ meta: { $gt: 'a' } }, []],
  // field names are data, never the prototype's
  [{ constructor: 'c' }, ['f9']],
  [{ constructor: { $exists: true } }, ['f9']],
  [{ 'toString.x': 1 }, ['f9']],
  [{ hasOwnProperty: { $exists: true } }, []],
  [{ 'status.length': { $exists: true } }, []],
];

test('every operator selects exactly the documents the list SQL selects', () => {
  for (const [filter, expected] of CASES) assert.deepEqual(matching(filter), expected, JSON.stringify(filter));
});

test('strings order by code point, as SQLite bytes and PostgreSQL COLLATE "C" do (not by UTF-16 unit)', () => {
  // U+FFFD is one UTF-16 unit above the surrogates of U+1F600, but a lower code point.
  assert.ok('\uFFFD' > '😀', 'JavaScript compares UTF-16 units');
  assert.ok(compareCodePoints('\uFFFD', '😀') < 0);
  assert.ok(compareCodePoints('😀', '\uFFFD') > 0);
  assert.ok(compareCodePoints('a', 'ab') < 0);
  assert.equal(compareCodePoints('😀x', '😀x'), 0);
  const gt = m({ s: { $gt: '\uFFFD' } });
  assert.equal(gt({ s: '😀' }), true);
  assert.equal(gt({ s: '\uE000' }), false);
});

test('numbers compare numerically and only with numbers; -0 equals 0', () => {
  assert.equal(m({ n: 0 })({ n: -0 }), true);
  assert.equal(m({ n: { $lt: 10 } })({ n: 9.999 }), true);
  assert.equal(m({ n: { $lt: 10 } })({ n: '9' }), false);
  assert.equal(m({ n: { $gte: 2 } })({ n: true }), false);
});

test('$icontains folds case by Unicode simple case folding', () => {
  const has = (needle: string, s: string) => m({ s: { $icontains: needle } })({ s });
  assert.equal(has('S', 'ſ'), true, 'long s folds with s and S');
  assert.equal(has('σ', 'ΟΔΟΣ'), true);
  assert.equal(has('ς', 'Σ'), true);
  assert.equal(has('k', '\u212A'), true, 'the Kelvin sign is k');
  assert.equal(has('ss', 'ß'), false, 'no full folding: ß is not ss');
  assert.equal(has('', 'anything'), true);
  assert.equal(m({ s: { $icontains: 'a' } })({ s: 1 }), false, 'strings only');
});

test('a $auth operand compares with the value itself, never an array holding it (§10)', () => {
  const rule = parseFilter({ owner: { $auth: 'id' } }, { auth: () => 'u1' });
  assert.equal(matches(rule, { owner: 'u1' }), true);
  assert.equal(matches(rule, { owner: ['u1'] }), false);
  const member = parseFilter({ members: { $all: [{ $auth: 'id' }] } }, { auth: () => 'u1' });
  assert.equal(matches(member, { members: ['u0', 'u1'] }), true, 'membership is written with $all');
  const never = parseFilter({ owner: { $ne: { $auth: 'email' } } }, { auth: () => NEVER });
  assert.equal(matches(never, { owner: 'x' }), false, '$ne too matches nothing when the value is missing');
});

test('§1 sort order: missing/null < numbers < strings < booleans < objects and arrays; ties by id, same direction', () => {
  const docs = [
    { id: 'g', v: [1] },
    { id: 'f', v: { a: 1 } },
    { id: 'e', v: true },
    { id: 'd', v: false },
    { id: 'c', v: '😀' },
    { id: 'b', v: '\uFFFD' },
    { id: 'a', v: 10 },
    { id: 'h', v: 9 },
    { id: 'i', v: null },
    { id: 'j' },
  ];
  const asc = [...docs].sort((x, y) => compare(parseSort('v'), x, y)).map((d) => d.id);
  assert.deepEqual(asc, ['i', 'j', 'h', 'a', 'b', 'c', 'd', 'e', 'f', 'g']);
  const desc = [...docs].sort((x, y) => compare(parseSort('v', 'desc'), x, y)).map((d) => d.id);
  assert.deepEqual(desc, [...asc].reverse());
  assert.equal(compareValues([1], { a: 1 }), 0, 'objects and arrays tie');
  const byId = [{ id: 'b' }, { id: 'a' }].sort((x, y) => compare(parseSort('id'), x, y)).map((d) => d.id);
  assert.deepEqual(byId, ['a', 'b']);
});

test('random filters of the whole language parse, and match as their JSON text does', () => {
  const r = prng(1);
  const docs = Array.from({ length: 40 }, (_, i) => randomDocument(r, i));
  for (let i = 0; i < 300; i++) {
    const filter = randomFilter(r);
    const fromValue = parseFilter(filter);
    const fromText = parseFilter(JSON.stringify(filter));
    assert.deepEqual(fromValue, fromText);
    for (const d of docs) matches(fromValue, d);
  }
});

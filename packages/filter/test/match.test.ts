import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, compareCodePoints, compareValues, matcher, matches, NEVER, parseFilter, parseSort } from '../src/index.js';
import { DOCS, MATCH_CASES } from './match-cases.js';
import { prng, randomDocument, randomFilter } from './random.js';

// The matcher by hand (match-cases.ts; the server's property test holds it to the list SQL of
// both stores on random documents and filters).

const matching = (filter: Record<string, unknown>) => {
  const tree = parseFilter(filter);
  return DOCS.filter((d) => matches(tree, d)).map((d) => d.id);
};
const m = (filter: Record<string, unknown>) => matcher(parseFilter(filter));

test('every operator selects exactly the documents the list SQL selects', () => {
  for (const [filter, expected] of MATCH_CASES) assert.deepEqual(matching(filter), expected, JSON.stringify(filter));
});

test('strings order by code point, as SQLite bytes and PostgreSQL COLLATE "C" do (not by UTF-16 unit)', () => {
  // U+FFFD is one UTF-16 unit above the surrogates of U+1F600, but a lower code point.
  assert.ok('\uFFFD' > '😀', 'JavaScript compares UTF-16 units');
  assert.ok(compareCodePoints('\uFFFD', '😀') < 0);
  assert.ok(compareCodePoints('😀', '\uFFFD') > 0);
  assert.ok(compareCodePoints('a', 'ab') < 0);
  assert.equal(compareCodePoints('😀x', '😀x'), 0);
  assert.ok(compareCodePoints('Z', 'a') < 0);
  assert.ok(compareCodePoints('é', 'z') > 0);
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

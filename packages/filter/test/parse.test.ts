import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FilterError, filterPaths, NEVER, parseFilter, parseSort, type Filter } from '../src/index.js';

/**
 * Parsing: a filter is refused exactly as the server refused it before this package existed.
 * refusals.json was recorded from the server's own filter compiler (documents/query.ts of that
 * time): each filter with the `code: message` it answered, or null where it accepted it.
 */
const REFUSALS = JSON.parse(readFileSync(new URL('./refusals.json', import.meta.url), 'utf8')) as Array<{ filter: string; refusal: string | null }>;

const refusal = (input: unknown): string | null => {
  try {
    parseFilter(input);
    return null;
  } catch (e) {
    assert.ok(e instanceof FilterError, `a FilterError, got ${String(e)}`);
    return `${e.code}: ${e.message}`;
  }
};

test('every refusal has the server’s code and message, checked in the same order', () => {
  assert.ok(REFUSALS.length > 60);
  for (const { filter, refusal: expected } of REFUSALS) assert.equal(refusal(filter), expected, filter.slice(0, 100));
});

test('a parsed value (not a string: that is JSON text) is refused as its JSON text is', () => {
  for (const { filter } of REFUSALS.slice(1)) {
    let value: unknown;
    try {
      value = JSON.parse(filter);
    } catch {
      continue;
    }
    if (typeof value === 'string') continue; // a string is JSON text to parseFilter
    assert.equal(refusal(value), refusal(filter), filter.slice(0, 100));
  }
});

test('the tree: fields, system fields, implicit equality, operands', () => {
  const tree = parseFilter('{"status": "open", "id": {"$in": ["a"]}, "$or": [{"n.x": {"$gte": 2, "$exists": true}}]}');
  const expected: Filter = {
    kind: 'and',
    parts: [
      { kind: 'field', field: { path: ['status'] }, conditions: [{ op: '$eq', operand: { value: 'open', itself: false } }] },
      { kind: 'field', field: { system: 'id' }, conditions: [{ op: '$in', operands: [{ value: 'a', itself: false }] }] },
      {
        kind: 'or',
        parts: [
          {
            kind: 'and',
            parts: [
              {
                kind: 'field',
                field: { path: ['n', 'x'] },
                conditions: [
                  { op: '$gte', operand: { value: 2, itself: false } },
                  { op: '$exists', value: true },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
  assert.deepEqual(tree, expected);
  assert.deepEqual(filterPaths(tree), [['status'], ['n', 'x']]);
  assert.deepEqual(parseFilter({}), { kind: 'and', parts: [] });
});

test('field names of Object.prototype members are plain fields; inside $elemMatch, id is an element’s field', () => {
  for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
    assert.deepEqual(filterPaths(parseFilter(JSON.stringify({ [name]: 1 }))), [[name]]);
  }
  const tree = parseFilter({ items: { $elemMatch: { id: 'x' } } });
  assert.deepEqual(tree.kind === 'and' && tree.parts[0], {
    kind: 'field',
    field: { path: ['items'] },
    conditions: [
      {
        op: '$elemMatch',
        match: {
          form: 'fields',
          filter: { kind: 'and', parts: [{ kind: 'field', field: { path: ['id'] }, conditions: [{ op: '$eq', operand: { value: 'x', itself: false } }] }] },
        },
      },
    ],
  });
});

test('$auth operands: compared with the value itself, plain in $all; NEVER makes the clause false, or drops an $in item', () => {
  const auth = (field: unknown) => (field === 'id' ? 'u1' : NEVER);
  const conditionsOf = (rule: unknown) => {
    const t = parseFilter(rule, { auth });
    return t.kind === 'and' && t.parts[0].kind === 'field' ? t.parts[0].conditions : undefined;
  };
  assert.deepEqual(conditionsOf({ owner: { $auth: 'id' } }), [{ op: '$eq', operand: { value: 'u1', itself: true } }]);
  assert.deepEqual(conditionsOf({ owner: { $ne: { $auth: 'id' } } }), [{ op: '$ne', operand: { value: 'u1', itself: true } }]);
  assert.deepEqual(conditionsOf({ tags: { $all: [{ $auth: 'id' }] } }), [{ op: '$all', values: ['u1'] }]);
  assert.deepEqual(conditionsOf({ owner: { $in: [{ $auth: 'email' }, 'x'] } }), [{ op: '$in', operands: [{ value: 'x', itself: false }] }]);
  assert.deepEqual(conditionsOf({ owner: { $ne: { $auth: 'email' }, $bad: 1 } }), [{ op: '$in', operands: [] }], 'the whole clause, unchecked');
  assert.deepEqual(conditionsOf({ owner: { $nin: [{ $auth: 'email' }] } }), [{ op: '$in', operands: [] }]);
  // Without `auth`, $auth is no operator; where the language takes no operand it stays an object.
  assert.equal(refusal({ owner: { $auth: 'id' } }), 'invalid_filter: unknown operator $auth');
  assert.throws(() => parseFilter({ a: { $elemMatch: { $eq: { $auth: 'id' } } } }, { auth }), /objects and arrays are not comparable/);
});

test('a sort: the field and direction; a bad path is validation_failed naming /sortBy', () => {
  assert.deepEqual(parseSort(undefined), { field: { system: 'createdAt' }, desc: false });
  assert.deepEqual(parseSort('author.name', 'desc'), { field: { path: ['author', 'name'] }, desc: true });
  assert.deepEqual(parseSort('id'), { field: { system: 'id' }, desc: false });
  try {
    parseSort('a..b');
    assert.fail('accepted');
  } catch (e) {
    assert.ok(e instanceof FilterError);
    assert.equal(e.code, 'validation_failed');
    assert.equal(e.message, 'sortBy: "a..b" is not a field path (segments of [A-Za-z_][A-Za-z0-9_]* joined by dots)');
    assert.deepEqual(e.detail, { path: '/sortBy', message: '"a..b" is not a field path (segments of [A-Za-z_][A-Za-z0-9_]* joined by dots)' });
  }
});

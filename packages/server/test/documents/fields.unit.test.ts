import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFields, fieldNameProblem } from '../../src/documents/fields.ts';
import { ApiError } from '../../src/errors.ts';

/** What document writes may carry (src/documents/fields.ts, API.md §1). */

const refusal = (value: unknown): { code: string; path: string } => {
  try {
    checkFields(value);
  } catch (e) {
    assert.ok(e instanceof ApiError);
    return { code: e.code, path: e.details?.[0]?.path ?? '' };
  }
  assert.fail(`accepted ${JSON.stringify(value)}`);
};

test('ordinary documents pass, Object.prototype names and "$" or "." inside values included', () => {
  checkFields({ constructor: 1, toString: { valueOf: [1, 2] }, __defineGetter__: 'x', a$b: '$5.00', list: ['$x', 'a.b'], n: -0, big: 1.7976931348623157e308 });
  checkFields([]);
  checkFields('text');
});

test('__proto__, "." in a key and a leading "$" are refused at any depth, naming the path', () => {
  assert.deepEqual(refusal(JSON.parse('{"__proto__": 1}')), { code: 'invalid_field_name', path: '/__proto__' });
  assert.deepEqual(refusal({ a: { 'b.c': 1 } }), { code: 'invalid_field_name', path: '/a/b.c' });
  assert.deepEqual(refusal({ list: [0, { $set: 1 }] }), { code: 'invalid_field_name', path: '/list/1/$set' });
  assert.deepEqual(refusal({ 'x/y': { $: 1 } }), { code: 'invalid_field_name', path: '/x~1y/$' });
  assert.equal(fieldNameProblem('ok_name'), undefined);
  assert.match(String(fieldNameProblem('a.b')), /contains "\."/);
});

test('numbers that are not finite doubles are refused with validation_failed', () => {
  assert.deepEqual(refusal(JSON.parse('{"n": 1e400}')), { code: 'validation_failed', path: '/n' });
  assert.deepEqual(refusal({ a: [1, -Infinity] }), { code: 'validation_failed', path: '/a/1' });
  assert.deepEqual(refusal({ a: NaN }), { code: 'validation_failed', path: '/a' });
  checkFields(JSON.parse('{"tiny": 1e-400}')); // underflows to 0: a finite double
});

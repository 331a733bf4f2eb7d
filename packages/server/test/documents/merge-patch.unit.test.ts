import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePatch } from '../../src/json/merge-patch.ts';

/** JSON Merge Patch (src/json/merge-patch.ts), as PATCH /:collection/docs/:id and settings use it. */

test('RFC 7396 appendix A: every example', () => {
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, result] of cases) assert.deepEqual(mergePatch(target, patch), result, JSON.stringify([target, patch]));
});

test('inputs are not modified', () => {
  const target = { a: { b: 1 }, c: 2 };
  const patch = { a: { b: null, d: 3 }, c: null };
  const copy = structuredClone({ target, patch });
  assert.deepEqual(mergePatch(target, patch), { a: { d: 3 } });
  assert.deepEqual({ target, patch }, copy);
});

test('keys named like Object.prototype members are plain own properties', () => {
  assert.deepEqual(mergePatch({}, { constructor: { a: 1 } }), { constructor: { a: 1 } });
  assert.deepEqual(mergePatch({}, { toString: { x: 1 }, valueOf: 2 }), { toString: { x: 1 }, valueOf: 2 });
  assert.deepEqual(mergePatch({ constructor: { a: 1 } }, { constructor: { b: 2 } }), { constructor: { a: 1, b: 2 } });
  assert.deepEqual(mergePatch({ hasOwnProperty: 1 }, { hasOwnProperty: null }), {});
  assert.equal(JSON.stringify(mergePatch({}, { constructor: { a: 1 } })), '{"constructor":{"a":1}}');
});

test('a "__proto__" key (as JSON.parse makes it) stays data: no prototype is set or polluted', () => {
  const patch = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
  const out = mergePatch({}, patch) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.equal(Object.hasOwn(out, '__proto__'), true);
  assert.equal((out as { polluted?: unknown }).polluted, undefined);
  assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  assert.equal(JSON.stringify(out), '{"__proto__":{"polluted":true},"x":1}');
});

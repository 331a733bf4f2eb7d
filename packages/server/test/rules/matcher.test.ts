import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileMatcher } from '../../src/rules/matcher.ts';
import { ApiError } from '../../src/errors.ts';
import { DOCS, MATCH_CASES } from '../../../filter/test/match-cases.ts';

// The server's matcher is @svc/filter's behind the server's parse (parseChecked: the cost budget,
// ApiError). The operators are pinned by the package's table (packages/filter/test/match-cases.ts,
// where the string and number orders are tested too) and held to the list SQL of both stores on
// random documents and filters in property.test.ts; this checks the server's wrapper on that table
// and its refusals.

test("compileMatcher selects exactly the package's table", () => {
  for (const [filter, expected] of MATCH_CASES) {
    const m = compileMatcher(filter);
    assert.deepEqual(
      DOCS.filter(m).map((d) => d.id),
      expected,
      JSON.stringify(filter),
    );
  }
});

test('a filter a list would refuse throws the same 400 invalid_filter', () => {
  const bad: unknown[] = [
    { a: { $regex: 'x' } },
    { $where: '1' },
    { a: { $gt: 1, b: 2 } },
    { 'a..b': 1 },
    { a: { $in: 5 } },
    { a: { $exists: 1 } },
    { $and: [] },
    { $or: {} },
    { a: { $gt: {} } },
    { a: { b: 1 } },
    { a: [1, 2] },
    { a: { $auth: 'id' } },
    { a: 'nul\u0000' },
  ];
  for (const filter of bad) {
    assert.throws(
      () => compileMatcher(filter as Record<string, unknown>),
      (e: unknown) => e instanceof ApiError && e.code === 'invalid_filter',
      JSON.stringify(filter),
    );
  }
});

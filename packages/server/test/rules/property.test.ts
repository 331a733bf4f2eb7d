import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { compileMatcher } from '../../src/rules/matcher.ts';
import { matches, parseFilter } from '@svc/filter';
import { DOCUMENTS, prng, randomDocument, randomFilter } from '../../../filter/test/random.ts';

/**
 * With arrays, $all, $size, $elemMatch, paths crossing arrays, $prefix and
 * $icontains, the in-memory matcher agrees exactly with a list's filter SQL. Random
 * documents of mixed types (numbers, strings, booleans, null, nested objects, arrays, missing
 * fields) go in through the HTTP API; for each random filter over a small set of paths, values and
 * operators, the ids the matcher accepts must be the ids the list returns. Seeded, so a failure
 * reproduces: the seed and the filter are in the message (PROPERTY_SEED overrides the seed).
 * Both matchers are held to the SQL: the server's and the one of the language's own package
 * (@svc/filter, which the SDK's offline replica runs); the generator lives with that package.
 */

const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);
const FILTERS = 500;

forEachStore('rules matcher agrees with the list filter', (kind) => {
  const ctx = useServer(kind);
  let docs: Array<Record<string, unknown>>;

  before(async () => {
    const r = prng(SEED);
    const documents = Array.from({ length: DOCUMENTS }, (_, i) => randomDocument(r, i));
    const created = await request(ctx.server, 'POST', '/items/bulk', { key: ctx.db.secretKey, body: { documents } });
    assert.equal(created.status, 201, created.text);
    const all = await request(ctx.server, 'GET', '/items/docs', { key: ctx.db.secretKey, query: { limit: 1000 } });
    docs = (all.json as { documents: Array<Record<string, unknown>> }).documents;
    assert.equal(docs.length, DOCUMENTS);
  });

  test(`${FILTERS} random filters select the same ids in memory and in SQL (seed ${SEED})`, async () => {
    const r = prng(SEED + 1);
    let nonTrivial = 0;
    for (let i = 0; i < FILTERS; i++) {
      const filter = randomFilter(r);
      const res = await request(ctx.server, 'GET', '/items/docs', {
        key: ctx.db.secretKey,
        query: { filter: JSON.stringify(filter), limit: 1000, sortBy: 'id' },
      });
      assert.equal(res.status, 200, `${JSON.stringify(filter)}: ${res.text}`);
      const fromSql = (res.json as { documents: Array<{ id: string }> }).documents.map((d) => d.id);
      const inMemory = docs
        .filter(compileMatcher(filter))
        .map((d) => d.id as string)
        .sort();
      const tree = parseFilter(JSON.stringify(filter));
      const inPackage = docs
        .filter((d) => matches(tree, d))
        .map((d) => d.id as string)
        .sort();
      assert.deepEqual(inPackage, fromSql, `seed ${SEED}, filter #${i} ${JSON.stringify(filter)}: @svc/filter's matcher`);
      if (fromSql.length > 0 && fromSql.length < DOCUMENTS) nonTrivial++;
      if (JSON.stringify(fromSql) !== JSON.stringify(inMemory)) {
        const differ = [...fromSql.filter((id) => !inMemory.includes(id)), ...inMemory.filter((id) => !fromSql.includes(id))];
        const shown = docs.filter((d) => differ.includes(d.id as string)).slice(0, 5);
        assert.fail(
          `seed ${SEED}, filter #${i} ${JSON.stringify(filter)}\nSQL only: ${fromSql.filter((id) => !inMemory.includes(id))}\nmatcher only: ${inMemory.filter((id) => !fromSql.includes(id))}\ne.g. ${JSON.stringify(shown)}`,
        );
      }
    }
    // The generator must exercise the language, not produce all-or-nothing filters.
    assert.ok(nonTrivial > FILTERS / 4, `only ${nonTrivial} filters selected a proper subset`);
  });
});

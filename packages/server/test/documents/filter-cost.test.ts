import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer } from '../helpers/server.ts';
import { compileFilter, FILTER_COST_BUDGET } from '../../src/documents/query.ts';

/**
 * A filter's SQL is bounded by construction. A list operand is one JSON
 * parameter, and an operator's test is written at most twice whatever the depth of its path: a
 * 2 KB filter (a 16-segment path, `$in` of 900) was 8 MB of SQL (40 MB under `$elemMatch`) and
 * stalled SQLite's event loop; `$in` of 998-1000 values answered 500 on SQLite ("Expression tree
 * is too large"). Past the filter cost budget: 400 `invalid_filter`, naming it.
 */

const DEEP = Array.from({ length: 16 }, (_, i) => `s${i}`);
/** `{s0: {s1: … {s15: leaf}}}` */
const nest = (segments: string[], leaf: unknown): unknown => segments.reduceRight<unknown>((inner, s) => ({ [s]: inner }), leaf);
const VALUES = Array.from({ length: 900 }, (_, i) => i * 3);

type Page = { documents: Array<{ id: string }>; total: number };

forEachStore('filter cost', (kind) => {
  const t = useServer(kind);
  const list = (filter: unknown, key = t.db.publicKey) =>
    request(t.server, 'GET', '/deep/docs', { key, query: { filter: JSON.stringify(filter), sortBy: 'id', limit: 1000 } });
  const ids = async (filter: unknown) => {
    const r = await list(filter);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return (r.json as Page).documents.map((d) => d.id);
  };

  test("the issue's 2 KB filter compiles to a few KB of SQL, answers, and /health answers meanwhile", async () => {
    const documents = [
      { id: 'hit', ...(nest(DEEP, 27) as object) },
      { id: 'miss', ...(nest(DEEP, 28) as object) },
      // The path crosses an array at s3: the elements' values at the rest of the path count.
      { id: 'crossing', s0: { s1: { s2: [{ s3: 1 }, nest(DEEP.slice(3), 30)] } } },
      { id: 'element', ...(nest(DEEP, [5, 6]) as object) },
      { id: 'list', list: [{ x: 1 }, nest(DEEP, 33)] },
    ];
    const created = await request(t.server, 'POST', '/deep/bulk', { key: t.db.secretKey, body: { documents } });
    assert.equal(created.status, 201, created.text);

    const path = DEEP.join('.');
    const filter = { [path]: { $in: VALUES } };
    const elemMatch = { list: { $elemMatch: { [path]: { $in: VALUES } } } };
    const { json } = t.server.db.store.dialect;
    for (const f of [filter, elemMatch]) {
      const compiled = compileFilter(json, JSON.stringify(f));
      // 8 MB (40 MB with $elemMatch) before; now a few KB, whatever the list's length.
      assert.ok(compiled.sql.length < 16 * 1024, `${compiled.sql.length} bytes of SQL`);
      assert.ok(compiled.params.length <= 4, `${compiled.params.length} parameters`);
    }
    const [health, found, inElements] = await Promise.all([request(t.server, 'GET', '/health', { root: true }), ids(filter), ids(elemMatch)]);
    assert.equal(health.status, 200);
    assert.deepEqual(found, ['crossing', 'element', 'hit']);
    assert.deepEqual(inElements, ['list']);
    assert.deepEqual(await ids({ [path]: { $nin: VALUES } }), ['list', 'miss']);
    assert.deepEqual(await ids({ [path]: { $all: [5, 6] } }), ['element']);
  });

  test('$in, $nin and $all take 1,000 values (the limit) on both stores; 1,001 → 400', async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => `v${i}`);
    const docs = [
      { id: 'v998', tag: 'v998' },
      { id: 'other', tag: 'zz' },
    ];
    for (const d of docs) await request(t.server, 'POST', '/deep/docs', { key: t.db.secretKey, body: d });
    for (const n of [998, 999, 1000]) {
      const values = thousand.slice(0, n);
      assert.deepEqual(
        await ids({ tag: { $in: values } }),
        ['v998'].filter(() => n > 998),
        `$in of ${n}`,
      );
      assert.ok((await ids({ tag: { $nin: values } })).includes('other'), `$nin of ${n}`);
      assert.deepEqual(
        await ids({ id: { $in: values } }),
        ['v998'].filter(() => n > 998),
        `id $in of ${n}`,
      );
      assert.deepEqual(await ids({ tag: { $all: values } }), [], `$all of ${n}`);
      assert.deepEqual(await ids({ id: { $all: values } }), [], `id $all of ${n}`);
    }
    assert.deepEqual(await ids({ tag: { $all: Array.from({ length: 1000 }, () => 'v998') } }), ['v998']);
    const over = await list({ tag: { $in: [...thousand, 'x'] } });
    assert.equal(over.status, 400);
    assert.equal(errorCode(over), 'invalid_filter');
  });

  test('past the filter cost budget: 400 invalid_filter naming it, for lists and for rules', async () => {
    // 100 clauses on 16-segment paths: within every other limit, about 1,800 units.
    const costly = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [[...DEEP.slice(0, 15), `f${i}`].join('.'), { $in: [1, 2] }]));
    const r = await list(costly);
    assert.equal(r.status, 400, r.text.slice(0, 200));
    assert.equal(errorCode(r), 'invalid_filter');
    assert.match((r.json as { error: { message: string } }).error.message, new RegExp(`filter cost budget of ${FILTER_COST_BUDGET}`));
    const rules = await request(t.server, 'PUT', '/rules', { key: t.db.secretKey, body: { rules: { deep: { read: costly } } } });
    assert.equal(rules.status, 400);
    assert.equal(errorCode(rules), 'invalid_rules');
    assert.match(rules.text, /filter cost budget/);
    // Half of it is fine.
    const half = Object.fromEntries(Object.entries(costly).slice(0, 40));
    assert.equal((await list(half)).status, 200);
  });
});

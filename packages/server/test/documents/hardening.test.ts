import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer } from '../helpers/server.ts';

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number };

/** Names that a lookup in a plain object would find on Object.prototype. */
const BUILT_IN_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf'];

forEachStore('documents hardening', (kind) => {
  const t = useServer(kind);
  const list = async (collection: string, query: Record<string, string | number>) =>
    request(t.server, 'GET', `/${collection}/docs`, { key: t.db.secretKey, query });
  const ids = async (collection: string, query: Record<string, string | number>) => {
    const r = await list(collection, query);
    assert.equal(r.status, 200, `${JSON.stringify(query)} → ${r.text.slice(0, 200)}`);
    return (r.json as Page).documents.map((d) => d.id);
  };
  const count = async (collection: string) => ((await list(collection, { limit: 1000 })).json as Page).total;

  test('fields named like Object.prototype members sort and filter like any other field', async () => {
    // b and c hold every name (numbers in opposite orders), a holds none of them.
    const documents = [
      { id: 'a', other: 1 },
      { id: 'b', ...Object.fromEntries(BUILT_IN_NAMES.map((n) => [n, 2])) },
      { id: 'c', ...Object.fromEntries(BUILT_IN_NAMES.map((n) => [n, 1])) },
    ];
    const created = await request(t.server, 'POST', '/builtins/bulk', { key: t.db.secretKey, body: { documents } });
    assert.equal(created.status, 201, created.text);
    for (const name of BUILT_IN_NAMES) {
      assert.deepEqual(await ids('builtins', { sortBy: name }), ['a', 'c', 'b'], `sortBy=${name}`);
      assert.deepEqual(await ids('builtins', { sortBy: name, sortOrder: 'desc' }), ['b', 'c', 'a'], `sortBy=${name} desc`);
      assert.deepEqual(await ids('builtins', { sortBy: `${name}.inner` }), ['a', 'b', 'c'], `sortBy=${name}.inner: missing everywhere, ties by id`);
      const filtered = async (filter: unknown) => ids('builtins', { filter: JSON.stringify(filter), sortBy: 'id' });
      assert.deepEqual(await filtered({ [name]: { $exists: true } }), ['b', 'c'], `${name} $exists true`);
      assert.deepEqual(await filtered({ [name]: { $exists: false } }), ['a'], `${name} $exists false`);
      assert.deepEqual(await filtered({ [name]: 1 }), ['c'], `${name} = 1`);
      assert.deepEqual(await filtered({ [name]: { $gt: 1 } }), ['b'], `${name} > 1`);
      assert.deepEqual(await filtered({ [name]: null }), ['a'], `${name} null or missing`);
    }
    const one = await request(t.server, 'GET', '/builtins/docs/b', { key: t.db.secretKey });
    assert.equal((one.json as Doc).constructor, 2, 'read back as plain data');
    const patched = await request(t.server, 'PATCH', '/builtins/docs/a', { key: t.db.secretKey, body: { constructor: { x: 1 }, toString: 5 } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      { ...(patched.json as Doc), createdAt: undefined, updatedAt: undefined },
      { id: 'a', other: 1, constructor: { x: 1 }, toString: 5, createdAt: undefined, updatedAt: undefined },
    );
  });

  test('keys that a field path could not name → 400 invalid_field_name, at any depth, and nothing is written', async () => {
    const bad: string[] = [
      '{"__proto__": {"x": 1}}',
      '{"a": {"__proto__": 1}}',
      '{"a.b": 1}',
      '{"$set": 1}',
      '{"nested": {"deep": {"x.y": 1}}}',
      '{"list": [1, {"$k": 2}]}',
    ];
    await request(t.server, 'POST', '/names/docs', { key: t.db.secretKey, body: { id: 'keep', v: 1 } });
    for (const raw of bad) {
      const created = await request(t.server, 'POST', '/names/docs', { key: t.db.secretKey, raw });
      assert.equal(created.status, 400, raw);
      assert.equal(errorCode(created), 'invalid_field_name', raw);
      const bulk = await request(t.server, 'POST', '/names/bulk', { key: t.db.secretKey, raw: `{"documents": [{"ok": 1}, ${raw}]}` });
      assert.equal(errorCode(bulk), 'invalid_field_name', `bulk ${raw}`);
      const patched = await request(t.server, 'PATCH', '/names/docs/keep', { key: t.db.secretKey, raw });
      // API.md §1.2 (third version): a PATCH body whose keys all start with `$` is an update
      // document, so `{"$set": 1}` there is an operator with an operand of the wrong type.
      const patchCode = raw === '{"$set": 1}' ? 'invalid_update' : 'invalid_field_name';
      assert.equal(errorCode(patched), patchCode, `patch ${raw}`);
    }
    assert.equal(await count('names'), 1, 'nothing was written');
    const kept = await request(t.server, 'GET', '/names/docs/keep', { key: t.db.secretKey });
    assert.equal((kept.json as Doc).v, 1, 'the patched document is unchanged');
    // `$` and `.` elsewhere than where a path or a filter would read them are fine.
    const ok = await request(t.server, 'POST', '/names/docs', { key: t.db.secretKey, body: { a$b: 1, price: '$5.00', list: ['$x', 'a.b'] } });
    assert.equal(ok.status, 201, ok.text);
  });

  test('a number JSON cannot carry as a finite double → 400 validation_failed, never stored as null', async () => {
    await request(t.server, 'POST', '/numbers/docs', { key: t.db.secretKey, body: { id: 'n1', n: 1 } });
    for (const raw of ['{"n": 1e400}', '{"n": -1e400}', '{"a": {"b": [1, 2e308]}}']) {
      const created = await request(t.server, 'POST', '/numbers/docs', { key: t.db.secretKey, raw });
      assert.equal(created.status, 400, raw);
      assert.equal(errorCode(created), 'validation_failed', raw);
      const bulk = await request(t.server, 'POST', '/numbers/bulk', { key: t.db.secretKey, raw: `{"documents": [{}, ${raw}]}` });
      assert.equal(errorCode(bulk), 'validation_failed', `bulk ${raw}`);
      const patched = await request(t.server, 'PATCH', '/numbers/docs/n1', { key: t.db.secretKey, raw });
      assert.equal(errorCode(patched), 'validation_failed', `patch ${raw}`);
    }
    assert.equal(await count('numbers'), 1);
    assert.equal(((await request(t.server, 'GET', '/numbers/docs/n1', { key: t.db.secretKey })).json as Doc).n, 1);
    const big = await request(t.server, 'POST', '/numbers/docs', { key: t.db.secretKey, raw: '{"n": 1.7976931348623157e308}' });
    assert.equal(big.status, 201, 'the largest finite double is fine');
  });

  test('offset is bounded: above 10,000,000 → 400 validation_failed (1e20 included), 10,000,000 answers an empty page', async () => {
    for (const offset of ['1e20', '10000001', '9007199254740993']) {
      const r = await list('numbers', { offset });
      assert.equal(r.status, 400, `offset=${offset}: ${r.text.slice(0, 200)}`);
      assert.equal(errorCode(r), 'validation_failed', `offset=${offset}`);
    }
    const edge = await list('numbers', { offset: 10_000_000 });
    assert.equal(edge.status, 200);
    assert.deepEqual((edge.json as Page).documents, []);
  });

  test('a bulk naming one id twice → 409 naming that id; nothing written', async () => {
    const r = await request(t.server, 'POST', '/twice/bulk', {
      key: t.db.secretKey,
      body: { documents: [{ id: 'one' }, { id: 'dup' }, { x: 1 }, { id: 'dup' }] },
    });
    assert.equal(r.status, 409);
    assert.equal(errorCode(r), 'conflict');
    const message = (r.json as { error: { message: string } }).error.message;
    assert.match(message, /'dup'/);
    assert.doesNotMatch(message, /undefined/);
    assert.equal(await count('twice'), 0);
  });
});

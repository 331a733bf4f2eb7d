import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { compileFilter, orderBy, parseField } from '../../src/documents/query.ts';
import { ApiError } from '../../src/errors.ts';
import { sqliteJson } from '../../src/store/sqlite/json-sql.ts';
import { postgresJson } from '../../src/store/postgres/json-sql.ts';

/**
 * The filter compiler (documents/query.ts) on its own: compiled with the real SQLite spelling and
 * run against an in-memory SQLite table, so each case checks what the SQL selects, not its text.
 * The HTTP tests (filter.test.ts, sort.test.ts, hardening.test.ts) cover both stores end to end.
 */
const DOCS: Record<string, unknown> = {
  a: { n: 1, s: 'x', constructor: 5 },
  b: { n: 2, s: 'y', toString: null },
  c: { n: 'two', nested: { v: true } },
  d: {},
};

const db = new Database(':memory:');
db.exec('CREATE TABLE documents (id TEXT PRIMARY KEY, data TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)');
for (const [id, data] of Object.entries(DOCS))
  db.prepare('INSERT INTO documents VALUES (?, ?, ?, ?)').run(id, JSON.stringify(data), `2030-01-01T00:00:0${id.charCodeAt(0) - 97}.000Z`, 'u');

/** The ids a filter selects. */
function select(filter: unknown): string[] {
  const f = compileFilter(sqliteJson, JSON.stringify(filter));
  return (db.prepare(`SELECT id FROM documents WHERE ${f.sql} ORDER BY id`).all(...f.params) as Array<{ id: string }>).map((r) => r.id);
}

/** The code and message of the ApiError a filter is refused with. */
function refusal(raw: string): string {
  try {
    compileFilter(sqliteJson, raw);
  } catch (e) {
    assert.ok(e instanceof ApiError, `an ApiError, got ${String(e)}`);
    return `${e.code}: ${e.message}`;
  }
  assert.fail(`${raw} was accepted`);
}

describe('compileFilter', () => {
  test('operators select per §1', () => {
    assert.deepEqual(select({ n: 1 }), ['a']);
    assert.deepEqual(select({ n: { $gte: 1 } }), ['a', 'b'], 'numbers only: "two" is a string');
    assert.deepEqual(select({ n: { $ne: 1 } }), ['b', 'c', 'd'], '$ne matches a missing field');
    assert.deepEqual(select({ n: { $in: [2, 'two'] } }), ['b', 'c']);
    assert.deepEqual(select({ n: { $nin: [2, 'two'] } }), ['a', 'd']);
    assert.deepEqual(select({ s: null }), ['c', 'd'], 'null matches missing');
    assert.deepEqual(select({ n: { $gt: null } }), [], '$gt null matches nothing');
    assert.deepEqual(select({ 'nested.v': true }), ['c']);
    assert.deepEqual(select({ $or: [{ n: 1 }, { s: 'y' }] }), ['a', 'b']);
    assert.deepEqual(select({ $and: [{ n: { $gt: 0 } }, { n: { $lt: 2 } }] }), ['a']);
    assert.deepEqual(select({}), ['a', 'b', 'c', 'd']);
  });

  test('field names of Object.prototype members are plain fields, never system columns', () => {
    assert.deepEqual(select({ constructor: { $exists: true } }), ['a']);
    assert.deepEqual(select({ toString: { $exists: true } }), ['b'], 'present, null included');
    assert.deepEqual(select({ toString: { $exists: false } }), ['a', 'c', 'd']);
    assert.deepEqual(select({ valueOf: { $exists: true } }), []);
    assert.deepEqual(select({ constructor: 5 }), ['a']);
    assert.deepEqual(select({ __defineGetter__: null }), ['a', 'b', 'c', 'd']);
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      assert.deepEqual(compileFilter(sqliteJson, JSON.stringify({ [name]: 1 })).paths, [[name]]);
    }
  });

  test('system fields are columns compared as strings', () => {
    assert.deepEqual(select({ id: 'b' }), ['b']);
    assert.deepEqual(select({ id: { $gt: 'b' } }), ['c', 'd']);
    assert.deepEqual(select({ id: 3 }), [], 'ids are strings: a number matches nothing');
    assert.deepEqual(select({ createdAt: { $lt: '2030-01-01T00:00:01.000Z' } }), ['a']);
    assert.deepEqual(compileFilter(sqliteJson, '{"id": "a"}').paths, [], 'no index is asked for a column');
  });

  test('bad filters are refused with 400 invalid_filter', () => {
    const cases = [
      'not json',
      '[]',
      '1',
      '{"n": {"$regex": "a"}}',
      '{"$where": "1"}',
      '{"n": {"$gt": {"a": 1}}}',
      '{"n": {"$gt": [1]}}',
      '{"n": {"$in": 1}}',
      '{"n": {"$exists": 1}}',
      '{"$and": []}',
      '{"$or": {}}',
      '{"a..b": 1}',
      '{"1a": 1}',
      '{"a-b": 1}',
      '{"n": 1e400}',
      `{"n": {"$in": [${Array.from({ length: 1001 }, () => 1).join(',')}]}}`,
      JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, i]))),
      '{"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"$and": [{"n": 1}]}]}]}]}]}]}]}]}]}',
      '{"s": "\\u0000"}',
    ];
    for (const raw of cases) assert.match(refusal(raw), /^invalid_filter: /, raw.slice(0, 60));
  });

  test('PostgreSQL spelling: the same paths and a list bound as JSON', () => {
    const f = compileFilter(postgresJson, '{"toString": 1, "a.b": {"$in": ["x", "y"]}}');
    assert.deepEqual(f.paths, [['toString'], ['a', 'b']]);
    // A list is one JSON parameter per way it can match: the value itself and the values reached
    // through the array the path crosses (one test for both), an array's element (jsonb containment).
    assert.deepEqual(f.params, [1, '1', '["x","y"]', '["x","y"]', '["x","y"]']);
    assert.doesNotMatch(f.sql, /'x'|'y'/, 'values never appear in the SQL text');
  });
});

describe('parseField and orderBy', () => {
  const bad = (m: string) => new ApiError('validation_failed', m);
  test('system fields map to columns; every other valid name is a path, Object.prototype names included', () => {
    assert.deepEqual(parseField('createdAt', bad), { column: 'created_at' });
    assert.deepEqual(parseField('id', bad), { column: 'id' });
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', '__proto__']) {
      assert.deepEqual(parseField(name, bad), { path: [name] }, name);
    }
    assert.deepEqual(parseField('author.name', bad), { path: ['author', 'name'] });
    assert.throws(
      () => parseField('a;drop', bad),
      (e: unknown) => e instanceof ApiError && e.code === 'validation_failed',
    );
  });

  test('ties break by id in the same direction', () => {
    assert.equal(orderBy(sqliteJson, { column: 'created_at' }, true), 'created_at DESC, id DESC');
    assert.equal(orderBy(sqliteJson, { column: 'id' }, false), 'id');
    assert.match(orderBy(sqliteJson, { path: ['constructor'] }, false), /'\$\.constructor'.*, id$/);
  });
});

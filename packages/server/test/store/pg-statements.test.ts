import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PgStatements, toPgPlaceholders, withLiterals } from '../../src/store/postgres/statements.ts';

test('? placeholders become $n, except inside quoted literals and identifiers', () => {
  assert.equal(toPgPlaceholders(`SELECT ? , '?', "a?" FROM t WHERE a = ? AND b = '??'`), `SELECT $1 , '?', "a?" FROM t WHERE a = $2 AND b = '??'`);
});

test('a statement is named after its third use, by each store on its own', () => {
  const a = new PgStatements();
  const b = new PgStatements();
  const text = a.text('SELECT * FROM t WHERE id = ?');
  assert.equal(text, 'SELECT * FROM t WHERE id = $1');
  assert.equal(a.name(text, 1), undefined);
  assert.equal(a.name(text, 1), undefined);
  const named = a.name(text, 1);
  assert.match(named ?? '', /^svc_\d+$/);
  assert.equal(a.name(text, 1), named, 'the same name from then on');
  assert.equal(b.name(text, 1), undefined, 'another store counts its own uses');
  assert.equal(a.name('SELECT 1', 40), undefined, 'statements with many parameters stay unnamed');
});

test('parameters written in as literals, quotes and backslashes escaped, for the simple-query protocol', () => {
  assert.equal(
    withLiterals(`SELECT ?, '?', ?, ?, ?, ? FROM t WHERE a = ?`, ["it's", -1.5, 12n, true, null, 'a\\b']),
    `SELECT 'it''s', '?', (-1.5), 12, TRUE, NULL FROM t WHERE a =  E'a\\\\b'`,
  );
  assert.throws(() => withLiterals('SELECT ?', [Number.NaN]), RangeError);
});

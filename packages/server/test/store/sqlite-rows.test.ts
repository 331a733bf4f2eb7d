import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';

// The SQLite store reads rows raw and builds their objects itself (sqlite-store.ts rowShape): the
// objects must be those better-sqlite3 built.
test('SQLite rows: objects as better-sqlite3 built them, whatever the column names', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-rows-'));
  const store = new SqliteStore(join(dir, 'rows.db'));
  try {
    await store.run('CREATE TABLE t (a INTEGER, "b c" TEXT, "x""y" TEXT)');
    await store.run('INSERT INTO t VALUES (1, ?, ?), (2, NULL, ?)', ['one', 'q', 'r']);
    assert.deepEqual(await store.all('SELECT a, "b c", "x""y" FROM t ORDER BY a'), [
      { a: 1, 'b c': 'one', 'x"y': 'q' },
      { a: 2, 'b c': null, 'x"y': 'r' },
    ]);
    assert.deepEqual(await store.get('SELECT a FROM t WHERE a = ?', [2]), { a: 2 });
    assert.equal(await store.get('SELECT a FROM t WHERE a = ?', [3]), undefined);
    assert.deepEqual(await store.all('SELECT a FROM t WHERE a > 5'), []);
    // A repeated name keeps its last value.
    assert.deepEqual(await store.get('SELECT 1 AS n, 2 AS n'), { n: 2 });
    // A __proto__ column never sets the prototype (better-sqlite3 builds that row, as before).
    const odd = await store.get<Record<string, unknown>>('SELECT 7 AS a, 8 AS __proto__');
    assert.equal(Object.getPrototypeOf(odd), Object.prototype);
    assert.equal(odd?.a, 7);
    // A statement re-prepared after a schema change: the new columns show.
    assert.deepEqual(await store.get('SELECT * FROM t WHERE a = 1'), { a: 1, 'b c': 'one', 'x"y': 'q' });
    await store.run("ALTER TABLE t ADD COLUMN d TEXT DEFAULT 'new'");
    assert.deepEqual(await store.get('SELECT * FROM t WHERE a = 1'), { a: 1, 'b c': 'one', 'x"y': 'q', d: 'new' });
    // RETURNING reads rows from a write.
    assert.deepEqual(await store.transaction((tx) => tx.get('DELETE FROM t WHERE a = 2 RETURNING a, d')), { a: 2, d: 'new' });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

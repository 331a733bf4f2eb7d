import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.ts';

// WAL checkpoints run in a worker thread shortly after commits (store/sqlite/checkpointer.ts), not
// in the writer's COMMIT: the writes' pages reach the database file, every committed row stays
// readable, and closing the store still ends with the WAL folded into the file.
test('SQLite: a worker copies committed WAL pages into the database file; nothing committed is lost', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));
  const path = join(dir, 'ckpt.db');
  const store = new SqliteStore(path);
  try {
    await store.run('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const body = 'x'.repeat(3000); // about one page a row
    for (let batch = 0; batch < 30; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.transaction(async (tx) => {
            await tx.run('INSERT INTO t (id, body) VALUES (?, ?)', [batch * 20 + i + 1, body]);
          }),
        ),
      );
    }
    // ~600 pages: fewer than the 1,000 at which the writer's own COMMIT used to checkpoint, so only
    // the worker's checkpoint, within a fraction of a second of the last commit, moves them.
    const other = new Database(path, { readonly: true });
    try {
      let copied = false;
      for (let i = 0; i < 50 && !copied; i++) {
        await new Promise((r) => setTimeout(r, 100));
        copied = statSync(path).size > 600 * 4096;
      }
      assert.ok(copied, `the database file holds ${statSync(path).size} bytes: no checkpoint copied the WAL into it`);
      assert.equal((other.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 600);
    } finally {
      other.close();
    }
  } finally {
    await store.close();
  }
  // The writer's connection closed last: SQLite folded the WAL into the file and removed it.
  assert.equal(existsSync(`${path}-wal`), false, 'the WAL file is gone after close');
  const reopened = new Database(path, { readonly: true });
  try {
    assert.equal((reopened.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 600);
  } finally {
    reopened.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * `tx.afterCommit(fn)` on both stores: callbacks run once the transaction committed, never for a
 * rolled-back one, and on SQLite's group commit never for a transaction whose savepoint rolled
 * back while its neighbours in the same COMMIT went through.
 */
forEachStore('transaction afterCommit', (kind) => {
  let db: TestStore;
  before(async () => {
    db = await openTestStore(kind);
    const now = new Date().toISOString();
    await db.store.run("INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES ('d1', 'd', '{}', ?, ?)", [now, now]);
  });
  after(() => db.drop());

  /** Inserts a marker row (an operator: a table with no foreign keys) inside a transaction. */
  const mark = (id: string) => `INSERT INTO operators (id, email, password_hash, created_at) VALUES ('${id}', '${id}@x', 'h', 'now')`;
  const exists = async (id: string) => (await db.store.get('SELECT id FROM operators WHERE id = ?', [id])) !== undefined;

  test('callbacks run in order after COMMIT, before transaction() resolves; a read they start sees the committed row', async () => {
    const calls: string[] = [];
    let seen: Promise<unknown> | undefined;
    const value = await db.store.transaction(async (tx) => {
      await tx.run(mark('a1'));
      tx.afterCommit(() => {
        calls.push('first');
        // Another connection (SQLite: the reader; PostgreSQL: the pool) sees only committed data.
        seen = db.store.get('SELECT id FROM operators WHERE id = ?', ['a1']);
      });
      tx.afterCommit(() => calls.push('second'));
      assert.deepEqual(calls, [], 'nothing runs while the transaction is open');
      return 42;
    });
    assert.equal(value, 42);
    assert.deepEqual(calls, ['first', 'second']);
    assert.deepEqual(await seen, { id: 'a1' });
  });

  test('a transaction that throws runs no callback and leaves no row', async () => {
    let ran = false;
    await assert.rejects(
      db.store.transaction(async (tx) => {
        await tx.run(mark('b1'));
        tx.afterCommit(() => {
          ran = true;
        });
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(ran, false);
    assert.equal(await exists('b1'), false);
  });

  test('transactions started together (one SQLite group commit): only the rolled-back one loses its callbacks', async () => {
    const ran: string[] = [];
    const run = (id: string, fail: boolean) =>
      db.store.transaction(async (tx) => {
        await tx.run(mark(id));
        tx.afterCommit(() => ran.push(id));
        if (fail) throw new Error(`fail ${id}`);
        return id;
      });
    const results = await Promise.allSettled([run('c1', false), run('c2', true), run('c3', false)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(ran.sort(), ['c1', 'c3']);
    assert.deepEqual([await exists('c1'), await exists('c2'), await exists('c3')], [true, false, true]);
  });

  test('a callback that throws neither undoes the commit nor stops the callbacks after it', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      let later = false;
      const value = await db.store.transaction(async (tx) => {
        await tx.run(mark('d1'));
        tx.afterCommit(() => {
          throw new Error('callback bug');
        });
        tx.afterCommit(() => {
          later = true;
        });
        return 'ok';
      });
      assert.equal(value, 'ok');
      assert.equal(later, true);
      assert.equal(await exists('d1'), true);
      await new Promise((r) => setImmediate(r)); // 'warning' is emitted on the next tick
      assert.ok(
        warnings.some((w) => w.message === 'callback bug'),
        'reported as a process warning',
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';
import { appendChanges, changeGroup } from '../../src/changes/append.ts';
import { lastChangeId, readChanges } from '../../src/changes/read.ts';
import type { NewChange } from '../../src/changes/events.ts';
import type { Transaction } from '../../src/store/store.ts';
import { GROUP_TIME_BUDGET_MS } from '../../src/store/postgres/group-commit.ts';

const now = '2030-01-01T00:00:00.000Z';
const created = (n: string): NewChange => ({ collection: 'notes', type: 'document.created', document: { id: n }, previous: null, timestamp: now });

/**
 * Store.transaction with a commit group (store.ts CommitGroup; PostgreSQL: store/postgres/
 * group-commit.ts; SQLite groups every transaction of a turn anyway), as the documents service
 * uses it: writes of one database asked for together share one transaction and one COMMIT, a
 * failing one rolls back alone, and a COMMIT that fails fails them all.
 */
forEachStore('group commit', (kind) => {
  let db: TestStore;
  let databaseId: string;
  let n = 0;

  before(async () => {
    db = await openTestStore(kind);
    // A row that only commits if its reference exists at COMMIT: makes a COMMIT fail on demand.
    await db.store.run('CREATE TABLE commit_probe (ref TEXT REFERENCES databases(id) DEFERRABLE INITIALLY DEFERRED)');
  });
  after(() => db.drop());

  /** A fresh database (its counter at 0) for each test. */
  async function newDatabase(): Promise<string> {
    const id = `d${(n += 1)}`;
    await db.store.run('INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, id, '{}', now, now]);
    return id;
  }

  /** A write of the database's group that appends one event named `name`, then does `then`. */
  const write = (name: string, then: (tx: Transaction) => Promise<void> = async () => undefined, calls?: Map<string, number>) =>
    db.store.transaction(
      async (tx) => {
        calls?.set(name, (calls.get(name) ?? 0) + 1);
        const [event] = await appendChanges(tx, db.store.dialect, databaseId, [created(name)]);
        await then(tx);
        return event.id;
      },
      changeGroup(databaseId, db.store.dialect),
    );

  const count = async () =>
    Number((await db.store.get<{ count: number }>("SELECT count FROM collections WHERE database_id = ? AND name = 'notes'", [databaseId]))?.count ?? 0);
  const logged = async () => (await readChanges(db.store, db.store.dialect, databaseId, '0')).map((e) => [e.id, e.document.id]);

  test('writes asked for together get ids in the order they were asked, gap-free; the counter and count follow', async () => {
    databaseId = await newDatabase();
    const ids = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => write(name)));
    assert.deepEqual(ids, ['1', '2', '3', '4', '5']);
    assert.deepEqual(await logged(), [
      ['1', 'a'],
      ['2', 'b'],
      ['3', 'c'],
      ['4', 'd'],
      ['5', 'e'],
    ]);
    assert.equal(await lastChangeId(db.store, databaseId), 5n);
    assert.equal(await count(), 5);
    assert.deepEqual(await Promise.all(['f', 'g'].map((name) => write(name))), ['6', '7'], 'the next group goes on from the counter');
  });

  test('writes to a database deleted meanwhile fail, and leave no event behind', async () => {
    databaseId = await newDatabase();
    assert.equal(await write('a'), '1');
    await db.store.run('DELETE FROM databases WHERE id = ?', [databaseId]);
    const outcomes = await Promise.allSettled(['b', 'c'].map((name) => write(name)));
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
    const left = await db.store.get<{ n: number | string }>('SELECT count(*) AS n FROM events WHERE database_id = ?', [databaseId]);
    assert.equal(Number(left?.n), 0, "the database's events went with it, and none was written after");
  });

  if (kind === 'postgres') {
    test('PostgreSQL: writes asked for together run in one transaction', async () => {
      databaseId = await newDatabase();
      const xids = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() =>
          db.store.transaction(
            async (tx) => (await tx.get<{ x: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS x'))!.x,
            changeGroup(databaseId, db.store.dialect),
          ),
        ),
      );
      // One, unless the machine is so slow that a write outlasts the group's time budget.
      assert.ok(new Set(xids).size < xids.length, `shared transaction ids: ${xids.join(', ')}`);
    });
  }

  if (kind === 'postgres') {
    test('PostgreSQL: a group past its time budget commits the writes it ran; the rest go first in the next one, ids still in order', async () => {
      databaseId = await newDatabase();
      const slow = (i: number) =>
        db.store.transaction(
          async (tx) => {
            await tx.get(`SELECT pg_sleep(${(GROUP_TIME_BUDGET_MS * 0.6) / 1000})`);
            const [event] = await appendChanges(tx, db.store.dialect, databaseId, [created(`s${i}`)]);
            return [(await tx.get<{ x: string }>('SELECT CAST(pg_current_xact_id() AS TEXT) AS x'))!.x, event.id];
          },
          changeGroup(databaseId, db.store.dialect),
        );
      const results = await Promise.all([0, 1, 2, 3].map(slow));
      assert.deepEqual(
        results.map(([, id]) => id),
        ['1', '2', '3', '4'],
      );
      const xids = results.map(([x]) => x);
      assert.ok(new Set(xids).size >= 2, `more than one transaction: ${xids.join(', ')}`);
      assert.deepEqual(
        xids,
        [...xids].sort((a, b) => Number(a) - Number(b)),
        'later writes in later transactions',
      );
    });
  }

  test('writes asked for while a group runs form the next one, which goes on from its counter; all answered in id order', async () => {
    databaseId = await newDatabase();
    const announced: string[] = [];
    const answered: string[] = [];
    // Slow enough that the second wave arrives while the first group runs (PostgreSQL: and its BEGIN
    // and lock are sent before the first group's COMMIT, group-commit.ts).
    const slowWrite = (name: string) =>
      db.store
        .transaction(
          async (tx) => {
            if (kind === 'postgres') await tx.get('SELECT pg_sleep(0.01)');
            const [event] = await appendChanges(tx, db.store.dialect, databaseId, [created(name)]);
            tx.afterCommit(() => announced.push(event.id));
            return event.id;
          },
          changeGroup(databaseId, db.store.dialect),
        )
        .then((id) => {
          answered.push(id);
          return id;
        });
    const first = ['a', 'b', 'c'].map(slowWrite);
    await new Promise((r) => setTimeout(r, 5));
    const second = ['d', 'e', 'f'].map(slowWrite);
    await new Promise((r) => setTimeout(r, 15));
    const third = ['g', 'h'].map(slowWrite);
    const ids = await Promise.all([...first, ...second, ...third]);
    assert.deepEqual(ids, ['1', '2', '3', '4', '5', '6', '7', '8']);
    assert.deepEqual(announced, ids, 'afterCommit callbacks in id order');
    assert.deepEqual(answered, ids, 'answers in id order');
    assert.deepEqual(
      (await logged()).map(([id]) => id),
      ids,
    );
    assert.equal(await lastChangeId(db.store, databaseId), 8n);
    assert.equal(await count(), 8);
  });

  test('a write that fails rolls back alone, whatever it did first; the others commit, their ids gap-free', async () => {
    databaseId = await newDatabase();
    const committed: string[] = [];
    const calls = new Map<string, number>();
    const marker = (tx: Transaction, name: string) => tx.run('INSERT INTO commit_probe (ref) VALUES (?)', [`${databaseId}:${name}`]);
    const outcomes = await Promise.allSettled([
      write('ok1', async (tx) => tx.afterCommit(() => committed.push('ok1')), calls),
      // Fails after appending its event (as a bulk whose second chunk conflicts does after its first).
      write(
        'fails-late',
        async (tx) => {
          tx.afterCommit(() => committed.push('fails-late'));
          throw new Error('late');
        },
        calls,
      ),
      write('ok2', async (tx) => tx.afterCommit(() => committed.push('ok2')), calls),
      // Fails after writing a row of its own (which must go too: the probe would fail the COMMIT).
      write(
        'fails-wrote',
        async (tx) => {
          await marker(tx, 'fails-wrote');
          throw new Error('wrote');
        },
        calls,
      ),
      // Fails on a statement PostgreSQL rejects (the shared transaction is aborted until rolled back).
      write(
        'fails-sql',
        async (tx) => {
          await tx.run('INSERT INTO no_such_table VALUES (1)');
        },
        calls,
      ),
      // Fails before any statement.
      db.store.transaction(
        async () => {
          throw new Error('early');
        },
        changeGroup(databaseId, db.store.dialect),
      ),
      write('ok3', async (tx) => tx.afterCommit(() => committed.push('ok3')), calls),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled'],
    );
    const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as Error).message] : []));
    assert.deepEqual(
      reasons.map((m) => (/no_such_table/.test(m) ? 'sql' : m)),
      ['late', 'wrote', 'sql', 'early'],
      'each failure gets its own error',
    );
    assert.deepEqual(
      outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])),
      ['1', '2', '3'],
    );
    assert.deepEqual(await logged(), [
      ['1', 'ok1'],
      ['2', 'ok2'],
      ['3', 'ok3'],
    ]);
    assert.deepEqual(committed, ['ok1', 'ok2', 'ok3'], 'afterCommit only for the writes that committed, in order');
    assert.equal(await lastChangeId(db.store, databaseId), 3n);
    assert.equal(await count(), 3);
    assert.equal((await db.store.get<{ n: number }>('SELECT count(*) AS n FROM commit_probe'))!.n, 0);
    if (kind === 'postgres') {
      // A failure that left rows or an aborted transaction behind made the group run again,
      // each write in a savepoint; each write ran at most twice.
      assert.ok(
        [...calls.values()].every((c) => c <= 2),
        JSON.stringify([...calls]),
      );
    }
  });

  if (kind === 'postgres') {
    test('PostgreSQL: a write that fails having changed no row costs the others no second run', async () => {
      databaseId = await newDatabase();
      const calls = new Map<string, number>();
      const outcomes = await Promise.allSettled([
        write('ok1', undefined, calls),
        db.store.transaction(
          async (tx) => {
            await tx.get('SELECT id FROM databases WHERE id = ? FOR UPDATE', [databaseId]);
            await tx.run('UPDATE databases SET name = name WHERE id = ?', ['no such database']);
            throw new Error('not found');
          },
          changeGroup(databaseId, db.store.dialect),
        ),
        write('ok2', undefined, calls),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      );
      assert.deepEqual(
        [...calls],
        [
          ['ok1', 1],
          ['ok2', 1],
        ],
      );
    });
  }

  test('a COMMIT that fails fails every write of the group: none is answered as committed', async () => {
    databaseId = await newDatabase();
    const committed: string[] = [];
    const outcomes = await Promise.allSettled([
      write('a', async (tx) => tx.afterCommit(() => committed.push('a'))),
      // Valid until COMMIT, where its deferred reference is checked and fails.
      write('b', async (tx) => {
        await tx.run('INSERT INTO commit_probe (ref) VALUES (?)', ['no such database']);
      }),
      write('c', async (tx) => tx.afterCommit(() => committed.push('c'))),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const o of outcomes) assert.match(String((o as PromiseRejectedResult).reason), /foreign key/i);
    assert.deepEqual(committed, []);
    assert.deepEqual(await logged(), []);
    assert.equal(await lastChangeId(db.store, databaseId), 0n);
    assert.equal(await count(), 0);
    assert.deepEqual(await Promise.all(['d', 'e'].map((name) => write(name))), ['1', '2'], 'the ids of the failed group are handed out again');
  });

  test('a transaction of no group asked for among writes of a group finds the counter and count they moved, and the writes after it go on from its id', async () => {
    databaseId = await newDatabase();
    // On SQLite all five run in one batch: the group's writes before the lone one must have ended
    // their group (moved the counter) before it runs, and the writes after it begin the group anew.
    const lone = () =>
      db.store.transaction(async (tx) => {
        const seen = await tx.get<{ last: string }>('SELECT CAST(last_event_id AS TEXT) AS last FROM databases WHERE id = ?', [databaseId]);
        const counted = await tx.get<{ count: number }>("SELECT count FROM collections WHERE database_id = ? AND name = 'notes'", [databaseId]);
        const [event] = await appendChanges(tx, db.store.dialect, databaseId, [created('lone')]);
        return { seen: seen?.last, counted: Number(counted?.count ?? 0), id: event.id };
      });
    const [a, b, l, c, d] = await Promise.all([write('a'), write('b'), lone(), write('c'), write('d')]);
    const ids = [a, b, l.id, c, d];
    assert.deepEqual(
      [...ids].sort((x, y) => Number(x) - Number(y)),
      ['1', '2', '3', '4', '5'],
      'gap-free, each id once',
    );
    if (kind === 'sqlite') {
      assert.deepEqual([a, b, l.id, c, d], ['1', '2', '3', '4', '5'], 'in the order asked (one writer)');
      assert.deepEqual([l.seen, l.counted], ['2', 2], 'the lone transaction saw what the writes before it appended');
    }
    assert.equal(await lastChangeId(db.store, databaseId), 5n);
    assert.equal(await count(), 5);
  });

  test('a write of a group that fails after appending gives back its ids and its count; the lone transaction after it finds neither', async () => {
    databaseId = await newDatabase();
    const lone = () =>
      db.store.transaction(async (tx) => {
        const [event] = await appendChanges(tx, db.store.dialect, databaseId, [created('lone')]);
        return event.id;
      });
    const outcomes = await Promise.allSettled([
      write('a'),
      write('x', async () => {
        throw new Error('undone');
      }),
      lone(),
      write('b'),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    const rows = await logged();
    assert.deepEqual(
      rows.map(([id]) => id),
      ['1', '2', '3'],
      'gap-free',
    );
    assert.deepEqual(rows.map(([, name]) => name).sort(), ['a', 'b', 'lone']);
    assert.equal(await lastChangeId(db.store, databaseId), 3n);
    assert.equal(await count(), 3);
  });

  test('a lone write that fails rolls back; the next one gets its id', async () => {
    databaseId = await newDatabase();
    await assert.rejects(
      write('x', async () => {
        throw new Error('alone');
      }),
      /alone/,
    );
    assert.equal(await write('y'), '1');
    assert.deepEqual(await logged(), [['1', 'y']]);
  });
});

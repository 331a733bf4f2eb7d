import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.ts';
import { shareable } from '../../src/store/postgres/shared-reads.ts';
import { eventually } from '../helpers/eventually.ts';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * Identical reads on PostgreSQL's pool (store/postgres/shared-reads.ts): one asked for while the
 * same statement runs waits, with any others asked for meanwhile, for one run sent after them;
 * it never takes the answer of a run sent before it (a write committed before it asked would be
 * missing). A gate makes "while it runs" certain: the read calls `gate()`, which waits for an
 * advisory lock the test holds, after the statement's snapshot is taken.
 */
describe('identical reads share a run on PostgreSQL', async () => {
  const missing = await missingServices({ postgres: true });
  if (missing) {
    test('shared reads', { skip: missing }, () => undefined);
    return;
  }
  let db: TestStore;
  let store: PostgresStore;
  let holder: pg.Client;
  const READ = 'SELECT v, gate() AS g FROM shared_probe WHERE id = ?';

  before(async () => {
    db = await postgresTestStore();
    store = db.store as PostgresStore;
    await store.run('CREATE TABLE shared_probe (id int PRIMARY KEY, v text)');
    await store.run("INSERT INTO shared_probe VALUES (1, 'old')");
    // Waits (inside the statement, after its snapshot) while the test holds lock 7001.
    await store.run('CREATE FUNCTION gate() RETURNS int LANGUAGE sql AS $$ SELECT 1 FROM (SELECT pg_advisory_xact_lock_shared(7001)) AS held $$');
    holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
  });
  after(async () => {
    await holder.end();
    await db.drop();
  });

  const hold = () => holder.query('SELECT pg_advisory_lock(7001)');
  const release = () => holder.query('SELECT pg_advisory_unlock(7001)');
  /** Until `n` statements wait at the gate. */
  const waitingAtGate = (n: number) =>
    eventually(async () => {
      const r = await holder.query(
        "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 7001 AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      );
      assert.equal(r.rows[0].n, n);
    });

  test('reads asked for while the same statement runs share one run after it', async () => {
    const before = { ...store.sharedReads.tally };
    await hold();
    const first = store.get<{ v: string }>(READ, [1]);
    await waitingAtGate(1);
    const later = Array.from({ length: 8 }, () => store.get<{ v: string }>(READ, [1]));
    await release();
    const answers = await Promise.all([first, ...later]);
    assert.deepEqual(
      answers.map((a) => a?.v),
      Array(9).fill('old'),
    );
    assert.equal(store.sharedReads.tally.runs - before.runs, 2, 'the first run, and one for the eight asked while it ran');
    assert.equal(store.sharedReads.tally.joined - before.joined, 7);
  });

  test('a read never takes the answer of a run sent before it: a write committed before it asked is in its answer', async () => {
    await hold();
    const first = store.get<{ v: string }>(READ, [1]);
    await waitingAtGate(1);
    // Committed while the first read runs, with its snapshot already taken.
    await store.run("UPDATE shared_probe SET v = 'new' WHERE id = 1");
    const second = store.get<{ v: string }>(READ, [1]);
    await release();
    assert.equal((await first)?.v, 'old');
    assert.equal((await second)?.v, 'new');
    await store.run("UPDATE shared_probe SET v = 'old' WHERE id = 1");
  });

  test('each read that joined gets rows of its own', async () => {
    await hold();
    const first = store.all<{ v: string }>(READ, [1]);
    await waitingAtGate(1);
    const [a, b] = [store.all<{ v: string }>(READ, [1]), store.all<{ v: string }>(READ, [1])];
    await release();
    await first;
    const [rowsA, rowsB] = await Promise.all([a, b]);
    rowsA[0].v = 'changed by its caller';
    rowsA.pop();
    assert.deepEqual(
      rowsB.map((r) => r.v),
      ['old'],
    );
  });

  test('a run that fails fails the reads that joined it, and the next read runs anew', async () => {
    // Divides by the row's value once the gate opens (CASE: not before): 0 fails, 4 answers.
    const dividing = 'SELECT CASE WHEN gate() = 1 THEN 8 / v::int END AS x FROM shared_probe WHERE id = ?';
    await store.run("INSERT INTO shared_probe VALUES (3, '0')");
    await hold();
    const first = store.get(dividing, [3]);
    await waitingAtGate(1);
    const joined = [store.get(dividing, [3]), store.get(dividing, [3])];
    await release();
    for (const r of [first, ...joined]) await assert.rejects(r, /division by zero/);
    await store.run("UPDATE shared_probe SET v = '4' WHERE id = 3");
    assert.equal((await store.get<{ x: number }>(dividing, [3]))?.x, 2);
  });

  test('different parameters are different statements', async () => {
    await store.run("INSERT INTO shared_probe VALUES (2, 'two')");
    await hold();
    const first = store.get<{ v: string }>(READ, [1]);
    await waitingAtGate(1);
    const other = store.get<{ v: string }>(READ, [2]);
    await waitingAtGate(2);
    await release();
    assert.equal((await first)?.v, 'old');
    assert.equal((await other)?.v, 'two');
  });
});

describe('which statements may share a run', () => {
  test('reads only', () => {
    assert.equal(shareable('SELECT id FROM documents WHERE id = ?'), true);
    assert.equal(shareable('  select count(*) FROM documents'), true);
    for (const acting of [
      'INSERT INTO t VALUES (1)',
      'UPDATE t SET v = 1',
      'WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x',
      'SELECT * FROM databases WHERE id = ? FOR UPDATE',
      'SELECT * FROM databases WHERE id = ? for share',
      'SELECT pg_advisory_lock(?)',
      'SELECT pg_notify(?, ?)',
      "SELECT nextval('s')",
    ])
      assert.equal(shareable(acting), false, acting);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PgStatements } from '../../src/store/postgres/statements.ts';
import { BeginningQueryable, commitWith, PgQueryable } from '../../src/store/postgres/queryable.ts';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';

/**
 * The group commit's messages on PostgreSQL (store/postgres/queryable.ts): the statements asked for
 * together at a transaction's start go with BEGIN, and the group's last statement goes with COMMIT
 * once it is prepared on the connection; either way each statement means what it would alone.
 */
describe('statements sent together on PostgreSQL', async () => {
  const missing = await missingServices({ postgres: true });
  if (missing) {
    test('PostgreSQL messages', { skip: missing }, () => undefined);
    return;
  }
  let db: TestStore;
  let client: pg.Client;
  let other: pg.Client;
  /** Messages the client sent (each `query` call is one). */
  let sent: string[] = [];

  before(async () => {
    db = await postgresTestStore();
    client = new pg.Client({ connectionString: db.url });
    other = new pg.Client({ connectionString: db.url });
    await client.connect();
    await other.connect();
    await client.query('CREATE TABLE probe (id int PRIMARY KEY, v text)');
    // A row that only commits if its reference exists at COMMIT: makes a COMMIT fail on demand.
    await client.query('CREATE TABLE deferred_probe (ref int REFERENCES probe(id) DEFERRABLE INITIALLY DEFERRED)');
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const q = args[0] as string | { text: string };
      sent.push(typeof q === 'string' ? q : q.text);
      return query(...args);
    };
  });
  after(async () => {
    await client.end();
    await other.end();
    await db.drop();
  });

  const count = async (sql: string) => Number((await other.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`)).rows[0].n);

  test('statements asked for together at the start go with BEGIN in one message, each with its result; a later one goes alone', async () => {
    await client.query('INSERT INTO probe VALUES (1, $1)', ["it's"]);
    sent = [];
    const statements = new PgStatements();
    const q = new BeginningQueryable(client, statements);
    const [a, b] = await Promise.all([
      q.get<{ v: string }>('SELECT v FROM probe WHERE id = ? FOR UPDATE', [1]),
      q.all<{ n: number }>('SELECT CAST(? AS int) AS n', [2]),
    ]);
    await q.begun();
    const c = await q.get<{ n: number }>('SELECT CAST(? AS int) AS n', [3]);
    await client.query('COMMIT');
    assert.equal(a?.v, "it's");
    assert.deepEqual(b, [{ n: 2 }]);
    assert.equal(c?.n, 3);
    assert.equal(sent.length, 3, 'BEGIN with both statements, the later one, COMMIT');
    assert.equal(sent[0], 'BEGIN; SELECT v FROM probe WHERE id = (1) FOR UPDATE; SELECT CAST((2) AS int) AS n');
  });

  test('a read sent after a lock in the same message sees what committed while the lock was waited for', async () => {
    await client.query('DELETE FROM probe');
    await client.query('INSERT INTO probe VALUES (1, $1)', ['a']);
    await other.query('BEGIN');
    await other.query('SELECT * FROM probe WHERE id = 1 FOR UPDATE');
    await other.query("INSERT INTO probe VALUES (2, 'b')");
    const q = new BeginningQueryable(client, new PgStatements());
    const both = Promise.all([q.get('SELECT id FROM probe WHERE id = ? FOR UPDATE', [1]), q.all<{ id: number }>('SELECT id FROM probe ORDER BY id')]);
    await new Promise((r) => setTimeout(r, 50)); // the lock is waited for
    await other.query('COMMIT');
    const [, rows] = await both.finally(() => client.query('COMMIT'));
    assert.deepEqual(
      rows.map((r) => r.id),
      [1, 2],
    );
  });

  test('the last statement goes with COMMIT in one message once prepared; a failing COMMIT fails and commits nothing', async () => {
    await client.query('DELETE FROM deferred_probe');
    await client.query('DELETE FROM probe');
    const statements = new PgStatements();
    const insert = 'INSERT INTO probe (id, v) VALUES (CAST(? AS int), ?)';
    const transaction = async (id: number, v: string, then?: string) => {
      await client.query('BEGIN');
      if (then) await client.query(then);
      await commitWith(client, statements, { sql: insert, params: [String(id), v] });
    };
    // Named after its third use (statements.ts), prepared by that use: from the fourth on, one message.
    for (const id of [1, 2, 3]) await transaction(id, `v${id}`);
    sent = [];
    await transaction(4, "it's \\ 4");
    assert.equal(sent.length, 2, 'BEGIN, then the statement with COMMIT');
    assert.match(sent[1], /^EXECUTE svc_\d+\('4', {1,2}E?'it''s \\{1,2} 4'\); COMMIT$/);
    assert.equal(await count('probe'), 4);
    assert.equal((await other.query('SELECT v FROM probe WHERE id = 4')).rows[0].v, "it's \\ 4");

    await assert.rejects(transaction(5, 'x', 'INSERT INTO deferred_probe VALUES (99)'), /foreign key/);
    await client.query('ROLLBACK'); // as the group's abort does; nothing open any more
    assert.equal(await count('probe WHERE id = 5'), 0, 'the COMMIT failed: nothing of it is there');

    await assert.rejects(transaction(1, 'dup'), /duplicate key/);
    await client.query('ROLLBACK');
    assert.equal((await other.query('SELECT v FROM probe WHERE id = 1')).rows[0].v, 'v1');

    // Nothing to write: COMMIT alone.
    await client.query('BEGIN');
    await new PgQueryable(client, statements).run("INSERT INTO probe VALUES (6, 'w')");
    await commitWith(client, statements, undefined);
    assert.equal(await count('probe WHERE id = 6'), 1);
  });
});

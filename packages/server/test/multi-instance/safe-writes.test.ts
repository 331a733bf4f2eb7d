import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, missingServices, openTestStore, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';

/** A database and its secret key on a running server process. */
async function newDatabase(server: ServerProcess): Promise<{ databaseId: string; key: string }> {
  const op = ((await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
  const created = await request(server, 'POST', '/admin/databases', { key: op, body: { name: 'safe' } });
  assert.equal(created.status, 201, created.text);
  const { database, key } = created.json as { database: { id: string }; key: { key: string } };
  return { databaseId: database.id, key: key.key };
}

/**
 * A server killed with SIGKILL right after COMMIT, before it answered: the
 * client's retry with the same Idempotency-Key, on the restarted server, is a replay of the
 * committed write, not a second write. The crash comes from the test-only switch
 * SVC_TEST_CRASH_AFTER_COMMIT_KEY (config.ts), which kills the process after the commit of the
 * write that carries that one key.
 */
forEachStore('idempotency across a crash after COMMIT', (kind) => {
  let db: TestStore;
  let server: ServerProcess | undefined;
  before(async () => {
    db = await openTestStore(kind);
    // The test process holds no connection to a SQLite file the server writes.
    if (kind === 'sqlite') await db.store.close();
  });
  after(async () => {
    await server?.kill('SIGTERM');
    if (kind === 'postgres') await db.drop();
  });

  test('killed after COMMIT before answering: the retry is a replay; the document exists once', async () => {
    const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_IP: '100000' };
    server = await startProcess({ ...env, SVC_TEST_CRASH_AFTER_COMMIT_KEY: 'crash-here' });
    const { key } = await newDatabase(server);
    const send = (s: ServerProcess) => request(s, 'POST', '/orders/docs', { key, body: { item: 'one' }, headers: { 'idempotency-key': 'crash-here' } });
    await assert.rejects(send(server), 'the connection drops: no answer');
    assert.equal(await server.kill(), null, 'the process died of SIGKILL');
    server = await startProcess(env);
    const retry = await send(server);
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    const list = await request(server, 'GET', '/orders/docs', { key });
    const { documents } = list.json as { documents: Array<{ id: string }> };
    assert.equal(documents.length, 1);
    assert.equal(documents[0].id, (retry.json as { id: string }).id);
    assert.equal(retry.headers.get('etag') !== null, true);
  });
});

/** $inc and If-Match hold across two server processes on one PostgreSQL database. */
describe('update operators on two instances (PostgreSQL)', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  before(async () => {
    db = await postgresTestStore();
    const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_IP: '100000' };
    [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
    ({ key } = await newDatabase(a));
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test('200 concurrent $inc, half through each instance, add exactly 200', async () => {
    const created = await request(a, 'POST', '/posts/docs', { key, body: { likes: 0 } });
    const { id } = created.json as { id: string };
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => request(i % 2 ? a : b, 'PATCH', `/posts/docs/${id}`, { key, body: { $inc: { likes: 1 } } })),
    );
    assert.deepEqual([...new Set(answers.map((r) => r.status))], [200]);
    const got = await request(b, 'GET', `/posts/docs/${id}`, { key });
    assert.equal((got.json as { likes: number }).likes, 200);
    // Every answer saw a distinct version: no two updates applied to the same one.
    assert.equal(new Set(answers.map((r) => r.headers.get('etag'))).size, 200);
  });

  test('the same If-Match sent to both instances: exactly one write wins', async () => {
    const created = await request(a, 'POST', '/posts/docs', { key, body: { title: 'v1' } });
    const { id } = created.json as { id: string };
    const tag = created.headers.get('etag')!;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(i % 2 ? a : b, 'PATCH', `/posts/docs/${id}`, { key, body: { title: `t${i}` }, headers: { 'if-match': tag } }),
      ),
    );
    assert.equal(answers.filter((r) => r.status === 200).length, 1);
    assert.equal(answers.filter((r) => r.status === 412).length, 19);
  });
});

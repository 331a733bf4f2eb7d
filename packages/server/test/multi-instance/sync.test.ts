import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { apiClient, type ApiClient } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { assertConverged, syncGet, TestCopy } from '../sync/sync-client.ts';

/**
 * Two server processes on one PostgreSQL sign checkpoints and cursors with the
 * key kept in the store (migration 14), so a client may page a snapshot and catch up through
 * either instance, with writes coming through the other.
 */
describe('sync across two instances on one PostgreSQL', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let on: (via: ServerProcess) => ApiClient;

  before(async () => {
    db = await postgresTestStore();
    [a, b] = await Promise.all([startProcess({ DATABASE_URL: db.url }), startProcess({ DATABASE_URL: db.url })]);
    const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
    const created = await request(a, 'POST', '/admin/databases', { key: op, body: { name: 'sync-two' } });
    assert.equal(created.status, 201, created.text);
    const { database, key } = created.json as { database: { id: string }; key: { key: string } };
    const pub = await request(a, 'POST', `/admin/databases/${database.id}/keys`, { key: op, body: { kind: 'public' } });
    const publicKey = (pub.json as { key: string }).key;
    const own = { $auth: 'id' };
    await apiClient(a, key.key).put('/rules', { rules: { todos: { read: { owner: own }, create: { owner: own }, update: { owner: own } } } });
    const ann = await newUser(b, publicKey, 'ann@sync-two.test');
    on = (via) => apiClient(via, publicKey, { headers: { 'x-session-token': ann.session.token } });
    for (let i = 0; i < 5; i++) await on(i % 2 ? a : b).post('/todos/docs', { owner: ann.user.id, i }, 201);
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test('a snapshot paged on A continues on B; a checkpoint of B catches up on A; writes through either converge', async () => {
    const first = await syncGet(on(a), 'todos', { limit: 2 });
    const second = await syncGet(on(b), 'todos', { limit: 2, cursor: first.nextCursor as string });
    assert.equal(second.checkpoint, first.checkpoint, 'the same checkpoint on both instances');
    assert.deepEqual(second.changes.length, 2);
    const copy = new TestCopy(on(b), 'todos');
    await copy.snapshot();
    const doc = [...copy.visible().keys()][0];
    await on(a).patch(`/todos/docs/${doc}`, { i: 'edited on A' }, 200);
    const answer = await syncGet(on(a), 'todos', { checkpoint: copy.checkpoint as string });
    assert.equal(answer.reset, false, 'the view is the same on both instances (the rules as A was sent them, as B read them back)');
    assert.deepEqual(
      answer.changes.map((c) => [c.op, c.id]),
      [['upsert', doc]],
    );
    await copy.catchUp();
    await assertConverged(copy, on(a), 'todos');
  });
});

import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { openWs } from '../helpers/ws.ts';
import { closeCode } from '../realtime/upgrade.ts';

/**
 * API.md §10 "Realtime" on several instances without Redis: what ends a grant on one instance
 * closes the sockets it granted on every other (the grant check reads the shared store; no bus).
 */
describe('two instances on one PostgreSQL, no Redis: ended grants close sockets everywhere', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let databaseId: string;

  const signIn = async (via: ServerProcess) => ((await request(via, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;

  before(async () => {
    db = await postgresTestStore();
    [a, b] = await Promise.all([startProcess({ DATABASE_URL: db.url }), startProcess({ DATABASE_URL: db.url })]);
    const created = await request(a, 'POST', '/admin/databases', { key: await signIn(a), body: { name: 'no-redis' } });
    assert.equal(created.status, 201, created.text);
    databaseId = (created.json as { database: { id: string } }).database.id;
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test("a key revoked on A: its socket on B is closed with 4401 and B opens no new one; another key's socket stays", async () => {
    const op = await signIn(a);
    const newKey = async () =>
      (await request(a, 'POST', `/admin/databases/${databaseId}/keys`, { key: op, body: { kind: 'secret' } })).json as { key: string; id: string };
    const [doomed, kept] = [await newKey(), await newKey()];
    const urlOf = async (key: string) => ((await request(b, 'POST', '/realtime/token', { key, body: { collections: ['x'] } })).json as { url: string }).url;
    const url = await urlOf(doomed.key);
    const socket = await openWs(url);
    const bystander = await openWs(await urlOf(kept.key));
    await Promise.all([socket.waitFor((m) => m.type === 'ready'), bystander.waitFor((m) => m.type === 'ready')]);
    assert.equal((await request(a, 'DELETE', `/admin/databases/${databaseId}/keys/${doomed.id}`, { key: op })).status, 204);
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
    assert.equal(bystander.ws.readyState, bystander.ws.OPEN);
    await bystander.close();
  });

  test('an operator signs out on A: the socket its session opened on B is closed with 4401', async () => {
    const session = await signIn(a);
    const t = await request(b, 'POST', '/realtime/token', { key: session, headers: { 'x-database-id': databaseId }, body: { collections: ['x'] } });
    assert.equal(t.status, 201, t.text);
    const socket = await openWs((t.json as { url: string }).url);
    await socket.waitFor((m) => m.type === 'ready');
    assert.equal((await request(a, 'POST', '/admin/sign-out', { key: session })).status, 204);
    assert.equal(await closeCode(socket.closed), 4401);
  });
});

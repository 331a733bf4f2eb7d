import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

type Page = { documents: Array<{ id: string; owner?: string }>; total: number };

/**
 * API.md §10 "Management": a rule change takes effect at once on the instance that took it and
 * on every other, with or without Redis. On PostgreSQL each instance keeps a database's rules in
 * memory (documents/rule-access.ts) until the store announces a change of its settings (migration
 * 11), and the route that changed them answers only once every instance has dropped them, so on
 * another instance the change applies to the very next request: asserted here without any wait,
 * on two real server processes sharing one PostgreSQL and no Redis, through each way of changing
 * them (PUT /v1/rules, the settings of PATCH /v1/admin/databases/:id, `svc rules set`).
 */
describe('two instances on one PostgreSQL, no Redis: a rule change applies at once on both', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  /** The database's secret key, on one instance. */
  let secretOn: (via: ServerProcess) => ApiClient;
  let ann: SignedIn;
  /** A public-key client on one instance acting for ann. */
  let annOn: (via: ServerProcess) => ApiClient;
  let publicKey: string;
  let databaseId: string;

  before(async () => {
    db = await postgresTestStore();
    [a, b] = await Promise.all([startProcess({ DATABASE_URL: db.url }), startProcess({ DATABASE_URL: db.url })]);
    const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
    const created = await request(a, 'POST', '/admin/databases', { key: op, body: { name: 'rules-change' } });
    assert.equal(created.status, 201, created.text);
    const { database, key } = created.json as { database: { id: string }; key: { key: string } };
    databaseId = database.id;
    const pub = await request(a, 'POST', `/admin/databases/${database.id}/keys`, { key: op, body: { kind: 'public' } });
    publicKey = (pub.json as { key: string }).key;
    secretOn = (via) => apiClient(via, key.key);
    ann = await newUser(b, publicKey, 'ann@instances.test');
    annOn = (via) => apiClient(via, publicKey, { headers: { 'x-session-token': ann.session.token } });
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test('rules set through A bind public keys on B from the next request, and so does every later change', async () => {
    const secretOnA = secretOn(a);
    await secretOnA.post(
      '/todos/bulk',
      {
        documents: [
          { owner: ann.user.id, t: 1 },
          { owner: 'someone else', t: 2 },
        ],
      },
      201,
    );
    const onB = annOn(b);
    // No rules yet: the default lets a public key read everything and write nothing.
    assert.equal((await onB.get<Page>('/todos/docs')).total, 2);
    assertError(await onB.request('POST', '/todos/docs', { body: { owner: ann.user.id } }), 403, 'read_only_key', 'no rules: no public writes');

    const own = { $auth: 'id' };
    await secretOnA.put('/rules', { rules: { todos: { read: { owner: own }, create: { owner: own } } } });
    const mine = await onB.get<Page>('/todos/docs');
    assert.deepEqual([mine.total, mine.documents.map((d) => d.owner)], [1, [ann.user.id]], 'B filters by the new read rule at once');
    await onB.post('/todos/docs', { owner: ann.user.id, t: 3 }, 201);

    await secretOnA.put('/rules', { rules: { todos: { read: false } } });
    assertError(await onB.request('GET', '/todos/docs'), 403, 'forbidden', 'read taken away on A: refused on B at once');
    assertError(await onB.request('POST', '/todos/docs', { body: { owner: ann.user.id } }), 403, 'read_only_key', 'create taken away');

    // And the other way round: a change through B, seen on A.
    await secretOn(b).put('/rules', { rules: { '*': { read: 'signedIn' } } });
    assert.equal((await annOn(a).get<Page>('/todos/docs')).total, 3);
    assertError(await apiClient(a, publicKey).request('GET', '/todos/docs'), 401, 'invalid_session', 'signedIn now, on A');

    // Through the settings of the management API (the dashboard's way), on A; seen on B.
    const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
    const patched = await request(a, 'PATCH', `/admin/databases/${databaseId}`, { key: op, body: { settings: { rules: { todos: { read: true } } } } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await apiClient(b, publicKey).get<Page>('/todos/docs')).total, 3, 'settings.rules through the admin API: B reads without a session at once');

    // Through the CLI, which writes the store directly and waits for every instance.
    const cli = spawnSync(process.execPath, [BIN, 'rules', 'set', '--database', databaseId], {
      input: JSON.stringify({ todos: { read: false } }),
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: 'utf8',
    });
    assert.equal(cli.status, 0, cli.stderr);
    assertError(await apiClient(a, publicKey).request('GET', '/todos/docs'), 403, 'forbidden', '`svc rules set`: refused on A at once');
    assertError(await apiClient(b, publicKey).request('GET', '/todos/docs'), 403, 'forbidden', '`svc rules set`: refused on B at once');
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { request, startServer, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { startProcess } from '../helpers/process.ts';
import { eventually } from '../helpers/eventually.ts';
import { createOperator } from '../../src/admin/operators.ts';
import { newSetupToken } from '../../src/admin/setup.ts';

const ADMIN = { email: 'first@svc.test', password: 'first-operator-pw' };

// Not `useServer()`: it makes an operator for its database, and these servers must have none yet.
forEachStore('first-run setup', (kind) => {
  let server: TestServer;
  const setupToken = newSetupToken();
  before(async () => {
    server = await startServer(kind, { setupToken });
  });
  after(() => server.close());
  /** No credential: the setup routes are open. */
  const open = apiClient(() => server);

  test('before any operator: GET /admin/setup → {needsSetup: true}, no token needed', async () => {
    assert.deepEqual(await open.get('/admin/setup'), { needsSetup: true });
  });

  test('a wrong, empty or prefix-only token → 401 invalid_token, and no operator is made', async () => {
    for (const t of ['', 'svc_setup_', setupToken.slice(0, -1), `${setupToken}x`, setupToken.toLowerCase()]) {
      assertError(await open.request('POST', '/admin/setup', { body: { setupToken: t, ...ADMIN } }), 401, 'invalid_token', `token ${JSON.stringify(t)}`);
    }
    await open.post('/admin/setup', { ...ADMIN }, 400); // no token at all
    assert.deepEqual(await open.get('/admin/setup'), { needsSetup: true });
  });

  test('the right token with a weak password → 400 weak_password, and the token still works after', async () => {
    assertError(await open.request('POST', '/admin/setup', { body: { setupToken, email: ADMIN.email, password: 'short' } }), 400, 'weak_password');
    assert.deepEqual(await open.get('/admin/setup'), { needsSetup: true });
  });

  test('the right token → 201 {token, operator}: signed in; then setup is closed for good (409), even with the token', async () => {
    const r = await open.request('POST', '/admin/setup', { body: { setupToken, ...ADMIN } });
    assert.equal(r.status, 201, r.text);
    const { token, operator } = r.json as { token: string; operator: { email: string } };
    assert.equal(operator.email, ADMIN.email);
    assert.ok(!/password|hash/i.test(r.text));
    await apiClient(server, token).get('/admin/me');
    await open.post('/admin/sign-in', ADMIN, 200); // the password works

    assert.deepEqual(await open.get('/admin/setup'), { needsSetup: false });
    assertError(
      await open.request('POST', '/admin/setup', { body: { setupToken, email: 'second@svc.test', password: 'second-operator-pw' } }),
      409,
      'conflict',
    );
    const wrong = await open.request('POST', '/admin/setup', {
      body: { setupToken: 'svc_setup_nope', email: 'third@svc.test', password: 'third-operator-pw' },
    });
    assert.equal(wrong.status, 401, 'a wrong token is still just wrong');
    const rows = await server.db.store.all<{ email: string }>('SELECT email FROM operators');
    assert.deepEqual(
      rows.map((o) => o.email),
      [ADMIN.email],
    );
  });

  test('concurrent setups with the right token: exactly one operator is made', async () => {
    const token = newSetupToken();
    const s = await startServer(kind, { setupToken: token });
    try {
      const answers = await Promise.all(
        [0, 1, 2, 3].map((i) => request(s, 'POST', '/admin/setup', { body: { setupToken: token, email: `op${i}@svc.test`, password: 'racing-password' } })),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409]);
      assert.equal((await s.db.store.all('SELECT id FROM operators')).length, 1);
    } finally {
      await s.close();
    }
  });

  test('an operator made another way (CLI, SVC_ADMIN_EMAIL) closes setup too', async () => {
    const token = newSetupToken();
    const s = await startServer(kind, { setupToken: token });
    try {
      await createOperator(s.db.store, 'cli@svc.test', 'cli-operator-pw');
      assert.deepEqual(await apiClient(s).get('/admin/setup'), { needsSetup: false });
      await apiClient(s).post('/admin/setup', { setupToken: token, ...ADMIN }, 409);
    } finally {
      await s.close();
    }
  });

  test('a real server process with no operator prints the token in its log; it sets the instance up once', async () => {
    const fresh = await openTestStore(kind);
    const proc = await startProcess({ DATABASE_URL: fresh.url, SVC_ADMIN_EMAIL: '', SVC_ADMIN_PASSWORD: '', LOG_LEVEL: 'info' });
    try {
      const printed = await eventually(
        () => {
          const found = /svc_setup_[A-Za-z0-9]{32}/.exec(proc.output())?.[0];
          assert.ok(found, `no setup token in the log:\n${proc.output()}`);
          return found;
        },
        { timeoutMs: 5000, intervalMs: 100, what: 'the setup token in the log' },
      );
      // Readable when stdout is a file: the token on a line of its own, not inside an escaped JSON string.
      assert.match(proc.output(), new RegExp(`^ *${printed}$`, 'm'));
      const listening = proc
        .output()
        .split('\n')
        .find((line) => line.includes('svc listening on'));
      assert.ok(listening?.includes(`dashboard ${proc.url}/`), `one line names the dashboard's address:\n${proc.output()}`);
      await apiClient(proc).post('/admin/setup', { setupToken: printed, ...ADMIN }, 201);
      await apiClient(proc).post('/admin/setup', { setupToken: printed, ...ADMIN }, 409);
    } finally {
      await proc.kill('SIGTERM');
      await fresh.drop();
    }
  });

  test('a server process started with an operator prints no setup token', async () => {
    const fresh = await openTestStore(kind);
    const proc = await startProcess({ DATABASE_URL: fresh.url, LOG_LEVEL: 'info' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!/svc_setup_/.test(proc.output()), proc.output());
      assert.deepEqual(await apiClient(proc).get('/admin/setup'), { needsSetup: false });
    } finally {
      await proc.kill('SIGTERM');
      await fresh.drop();
    }
  });
});

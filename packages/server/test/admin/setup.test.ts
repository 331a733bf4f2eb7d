import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore, type StoreKind, type TestStore } from '../helpers/stores.ts';
import { errorCode, freePort, request } from '../helpers/server.ts';
import { startProcess } from '../helpers/process.ts';
import { eventually } from '../helpers/eventually.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { localLimiter } from '../../src/infra/limiter/local.ts';
import { createOperator } from '../../src/admin/operators.ts';
import { newSetupToken } from '../../src/admin/setup.ts';

const ADMIN = { email: 'first@svc.test', password: 'first-operator-pw' };

/** A server that is not set up yet, on a fresh store, expecting `setupToken`. */
interface FreshServer { url: string; base: string; db: TestStore; close(): Promise<void> }

/**
 * Starts the app with a setup token and no operator. Not `startServer()`: its StartOptions have no
 * setup token (main.ts makes one), and `useServer()` makes an operator for its database.
 */
async function startFresh(kind: StoreKind, setupToken: string): Promise<FreshServer> {
  const db = await openTestStore(kind);
  const port = await freePort();
  const limiter = localLimiter();
  const config = loadConfig({ LOG_LEVEL: 'silent', PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_PER_IP: '1000000' });
  const app = await buildApp({ config, store: db.store, limiter, setupToken });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${port}`, base: `http://127.0.0.1:${port}/v1`, db,
    async close() {
      await app.close();
      await limiter.close();
      await db.drop();
    },
  };
}

forEachStore('first-run setup', (kind) => {
  let server: FreshServer;
  const setupToken = newSetupToken();
  before(async () => { server = await startFresh(kind, setupToken); });
  after(() => server.close());

  test('before any operator: GET /admin/setup → {needsSetup: true}, no token needed', async () => {
    const r = await request(server, 'GET', '/admin/setup');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { needsSetup: true });
  });

  test('a wrong, empty or prefix-only token → 401 invalid_token, and no operator is made', async () => {
    for (const t of ['', 'svc_setup_', setupToken.slice(0, -1), `${setupToken}x`, setupToken.toLowerCase()]) {
      const r = await request(server, 'POST', '/admin/setup', { body: { setupToken: t, ...ADMIN } });
      assert.equal(r.status, 401, `token ${JSON.stringify(t)}`);
      assert.equal(errorCode(r), 'invalid_token');
    }
    assert.equal((await request(server, 'POST', '/admin/setup', { body: { ...ADMIN } })).status, 400, 'no token at all');
    assert.deepEqual((await request(server, 'GET', '/admin/setup')).json, { needsSetup: true });
  });

  test('the right token with a weak password → 400 weak_password, and the token still works after', async () => {
    const r = await request(server, 'POST', '/admin/setup', { body: { setupToken, email: ADMIN.email, password: 'short' } });
    assert.equal(r.status, 400);
    assert.equal(errorCode(r), 'weak_password');
    assert.deepEqual((await request(server, 'GET', '/admin/setup')).json, { needsSetup: true });
  });

  test('the right token → 201 {token, operator}: signed in; then setup is closed for good (409), even with the token', async () => {
    const r = await request(server, 'POST', '/admin/setup', { body: { setupToken, ...ADMIN } });
    assert.equal(r.status, 201, r.text);
    const { token, operator } = r.json as { token: string; operator: { email: string } };
    assert.equal(operator.email, ADMIN.email);
    assert.ok(!/password|hash/i.test(r.text));
    const me = await request(server, 'GET', '/admin/me', { key: token });
    assert.equal(me.status, 200);
    assert.equal((await request(server, 'POST', '/admin/sign-in', { body: ADMIN })).status, 200, 'the password works');

    assert.deepEqual((await request(server, 'GET', '/admin/setup')).json, { needsSetup: false });
    const again = await request(server, 'POST', '/admin/setup', { body: { setupToken, email: 'second@svc.test', password: 'second-operator-pw' } });
    assert.equal(again.status, 409);
    assert.equal(errorCode(again), 'conflict');
    const wrong = await request(server, 'POST', '/admin/setup', { body: { setupToken: 'svc_setup_nope', email: 'third@svc.test', password: 'third-operator-pw' } });
    assert.equal(wrong.status, 401, 'a wrong token is still just wrong');
    const rows = await server.db.store.all<{ email: string }>('SELECT email FROM operators');
    assert.deepEqual(rows.map((o) => o.email), [ADMIN.email]);
  });

  test('concurrent setups with the right token: exactly one operator is made', async () => {
    const token = newSetupToken();
    const s = await startFresh(kind, token);
    try {
      const answers = await Promise.all([0, 1, 2, 3].map((i) => request(s, 'POST', '/admin/setup', { body: { setupToken: token, email: `op${i}@svc.test`, password: 'racing-password' } })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409, 409]);
      assert.equal((await s.db.store.all('SELECT id FROM operators')).length, 1);
    } finally {
      await s.close();
    }
  });

  test('an operator made another way (CLI, SVC_ADMIN_EMAIL) closes setup too', async () => {
    const token = newSetupToken();
    const s = await startFresh(kind, token);
    try {
      await createOperator(s.db.store, 'cli@svc.test', 'cli-operator-pw');
      assert.deepEqual((await request(s, 'GET', '/admin/setup')).json, { needsSetup: false });
      assert.equal((await request(s, 'POST', '/admin/setup', { body: { setupToken: token, ...ADMIN } })).status, 409);
    } finally {
      await s.close();
    }
  });

  test('a real server process with no operator prints the token in its log; it sets the instance up once', async () => {
    const fresh = await openTestStore(kind);
    const proc = await startProcess({ DATABASE_URL: fresh.url, SVC_ADMIN_EMAIL: '', SVC_ADMIN_PASSWORD: '', LOG_LEVEL: 'info' });
    try {
      const printed = await eventually(() => {
        const found = /svc_setup_[A-Za-z0-9]{32}/.exec(proc.output())?.[0];
        assert.ok(found, `no setup token in the log:\n${proc.output()}`);
        return found;
      }, { timeoutMs: 5000, intervalMs: 100, what: 'the setup token in the log' });
      const r = await request(proc, 'POST', '/admin/setup', { body: { setupToken: printed, ...ADMIN } });
      assert.equal(r.status, 201, r.text);
      assert.equal((await request(proc, 'POST', '/admin/setup', { body: { setupToken: printed, ...ADMIN } })).status, 409);
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
      assert.deepEqual((await request(proc, 'GET', '/admin/setup')).json, { needsSetup: false });
    } finally {
      await proc.kill('SIGTERM');
      await fresh.drop();
    }
  });
});

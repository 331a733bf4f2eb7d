import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { withSession, type SignedIn } from '../helpers/auth-client.ts';
import { eventually } from '../helpers/eventually.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const ROUNDS = 20;
const PASSWORD = 'correct horse battery';

/**
 * Each instance answers live keys and sessions from memory (infra/invalidation), yet what ends
 * one on A holds on B from the very next request. Every case runs ROUNDS times, right after B
 * used the credential (so B's cache holds it), to catch a race between the invalidation reaching
 * B and the request reaching B.
 */
describe('two instances on one PostgreSQL: revocations on A hold on B from the next request', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let databaseId: string;
  let secretKey: string;
  let opA: ApiClient;

  const signIn = async (via: ServerProcess) => (await apiClient(via).post<{ token: string }>('/admin/sign-in', OPERATOR, 200)).token;
  const newKey = () => opA.post<{ id: string; key: string }>(`/admin/databases/${databaseId}/keys`, { kind: 'secret' }, 201);
  /** Terminates every instance's LISTEN connection, as a network cut or a failover would. */
  const killListeners = () =>
    db.store.all("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'svc-invalidation%'");
  const listeners = async () =>
    (await db.store.all("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'svc-invalidation'")).length;

  before(async () => {
    db = await postgresTestStore();
    const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000' };
    [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
    opA = apiClient(a, await signIn(a));
    const created = await opA.post<{ database: { id: string }; key: { key: string } }>('/admin/databases', { name: 'cached' }, 201);
    databaseId = created.database.id;
    secretKey = created.key.key;
    await eventually(async () => (await listeners()) === 2, { what: 'both instances listening' });
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test('a key revoked on A is refused by B on the next request', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const { id, key } = await newKey();
      await apiClient(b, key).get('/cached/docs');
      await opA.delete(`/admin/databases/${databaseId}/keys/${id}`);
      assertError(await apiClient(b, key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `round ${i}`);
    }
  });

  test('a session signed out on A is refused by B on the next /auth/me; a password changed on A ends the other sessions on B', async () => {
    const key = secretKey;
    const me = (token: string) => apiClient(b, key).request('GET', '/auth/me', withSession(token));
    for (let i = 0; i < ROUNDS; i += 1) {
      const email = `two-${i}@example.com`;
      const { session } = await apiClient(a, key).post<SignedIn>('/auth/sign-up', { email, password: PASSWORD }, 201);
      await apiClient(b, key).get('/auth/me', 200, withSession(session.token));
      await apiClient(a, key).post('/auth/sign-out', undefined, 204, withSession(session.token));
      assertError(await me(session.token), 401, 'invalid_session', `round ${i}: signed out on A`);

      const kept = await apiClient(b, key).post<SignedIn>('/auth/sign-in', { email, password: PASSWORD }, 200);
      const other = await apiClient(b, key).post<SignedIn>('/auth/sign-in', { email, password: PASSWORD }, 200);
      await apiClient(b, key).get('/auth/me', 200, withSession(other.session.token));
      await apiClient(a, key).post('/auth/change-password', { currentPassword: PASSWORD, newPassword: `${PASSWORD} 2` }, 204, withSession(kept.session.token));
      assertError(await me(other.session.token), 401, 'invalid_session', `round ${i}: password changed on A`);
      await apiClient(b, key).get('/auth/me', 200, withSession(kept.session.token));
    }
  });

  test('an operator signed out on A is refused by B on the next request', async () => {
    for (let i = 0; i < 5; i += 1) {
      const onB = apiClient(b, await signIn(a));
      await onB.get('/admin/me');
      await onB.post('/admin/sign-out', undefined, 204);
      assertError(await onB.request('GET', '/admin/me'), 401, 'invalid_session', `round ${i}`);
    }
  });

  test('a key revoked by `svc key revoke` is refused by both instances on the next request', async () => {
    const { id, key } = await newKey();
    await apiClient(a, key).get('/cached/docs');
    await apiClient(b, key).get('/cached/docs');
    await run(process.execPath, [BIN, 'key', 'revoke', '--database', databaseId, '--key', id], { env: { ...process.env, DATABASE_URL: db.url } });
    for (const via of [a, b]) assertError(await apiClient(via, key).request('GET', '/cached/docs'), 401, 'invalid_api_key');
  });

  test('with the LISTEN connections killed, answers stay right: revoked keys refused, live ones served, caching resumes', async () => {
    const kept = await newKey();
    for (let i = 0; i < 10; i += 1) {
      await killListeners();
      const { id, key } = await newKey();
      await apiClient(b, key).get('/cached/docs');
      await opA.delete(`/admin/databases/${databaseId}/keys/${id}`);
      assertError(await apiClient(b, key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `round ${i}`);
      await apiClient(b, kept.key).get('/cached/docs');
      await apiClient(a, kept.key).get('/cached/docs');
    }
    await eventually(async () => (await listeners()) === 2, { what: 'both instances listening again' });
    for (let i = 0; i < 5; i += 1) {
      const { id, key } = await newKey();
      await apiClient(b, key).get('/cached/docs');
      await opA.delete(`/admin/databases/${databaseId}/keys/${id}`);
      assertError(await apiClient(b, key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `after reconnecting, round ${i}`);
    }
    // B answers from memory again: a revocation kept from the store's announcements goes unseen there.
    const { id, key } = await newKey();
    await apiClient(b, key).get('/cached/docs');
    await apiClient(b, key).get('/cached/docs');
    await db.store.transaction(async (tx) => {
      await tx.run('SET LOCAL session_replication_role = replica');
      await tx.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [new Date().toISOString(), id]);
    });
    await apiClient(b, key).get('/cached/docs');
    assert.match(a.output() + b.output(), /credential caches are off: the invalidation listener was lost/);
  });
});

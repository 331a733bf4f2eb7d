import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { eventually } from '../helpers/eventually.ts';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const ROUNDS = 20;

/**
 * Live keys and sessions may be answered from memory (PostgreSQL: infra/invalidation), yet
 * whatever ends them holds from the very next request: each case runs ROUNDS times, each time
 * right after the credential was used (so a cache would hold it).
 */
forEachStore('credential caches', (kind) => {
  const t = useServer(kind);
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const as = (key: string) => apiClient(() => t.server, key);
  const newKey = async (databaseId = t.db.databaseId) => op.post<{ id: string; key: string }>(`/admin/databases/${databaseId}/keys`, { kind: 'secret' }, 201);

  test('a revoked key is refused on the very next request; the other keys keep working', async () => {
    for (let i = 0; i < ROUNDS; i += 1) {
      const { id, key } = await newKey();
      await as(key).get('/cached/docs');
      await as(key).get('/cached/docs');
      await op.delete(`/admin/databases/${t.db.databaseId}/keys/${id}`);
      assertError(await as(key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `round ${i}`);
      await as(t.db.secretKey).get('/cached/docs');
    }
  });

  test('a key revoked by `svc key revoke` in another process is refused on the next request', async () => {
    for (let i = 0; i < 3; i += 1) {
      const { id, key } = await newKey();
      await as(key).get('/cached/docs');
      await run(process.execPath, [BIN, 'key', 'revoke', '--database', t.db.databaseId, '--key', id], {
        env: { ...process.env, DATABASE_URL: t.server.db.url },
      });
      assertError(await as(key).request('GET', '/cached/docs'), 401, 'invalid_api_key', `round ${i}`);
    }
  });

  test("a deleted database's keys and sessions are refused on the next request", async () => {
    const { database, key } = await op.post<{ database: { id: string }; key: { key: string } }>('/admin/databases', { name: 'doomed' }, 201);
    const user = await newUser(t.server, key.key, 'doomed@example.com');
    await as(key.key).get('/auth/me', 200, withSession(user.session.token));
    await op.delete(`/admin/databases/${database.id}`);
    assertError(await as(key.key).request('GET', '/cached/docs'), 401, 'invalid_api_key');
  });

  test('an ended session is refused on the next request: sign-out, another session changing the password, the operator signing the user out, deleting the user', async () => {
    const key = t.db.secretKey;
    const me = (token: string) => as(key).request('GET', '/auth/me', withSession(token));
    const signedIn = async (email: string): Promise<SignedIn> => {
      const r = await as(key).post<SignedIn>('/auth/sign-in', { email, password: 'correct horse battery' }, 200);
      await as(key).get('/auth/me', 200, withSession(r.session.token));
      return r;
    };
    const users = '/admin/databases/' + t.db.databaseId + '/users';
    for (let i = 0; i < ROUNDS; i += 1) {
      const email = `ended-${i}@example.com`;
      const user = await newUser(t.server, key, email);

      const a = await signedIn(email);
      await as(key).post('/auth/sign-out', undefined, 204, withSession(a.session.token));
      assertError(await me(a.session.token), 401, 'invalid_session', `round ${i}: signed out`);

      const b = await signedIn(email);
      const c = await signedIn(email);
      await as(key).post(
        '/auth/change-password',
        { currentPassword: 'correct horse battery', newPassword: 'correct horse battery 2' },
        204,
        withSession(c.session.token),
      );
      assertError(await me(b.session.token), 401, 'invalid_session', `round ${i}: another session changed the password`);
      await as(key).post(
        '/auth/change-password',
        { currentPassword: 'correct horse battery 2', newPassword: 'correct horse battery' },
        204,
        withSession(c.session.token),
      );

      const d = await signedIn(email);
      await op.post(`${users}/${user.user.id}/sign-out`, undefined, 200);
      assertError(await me(d.session.token), 401, 'invalid_session', `round ${i}: the operator signed the user out`);

      const e = await signedIn(email);
      await as(key).delete(`/auth/users/${user.user.id}`);
      assertError(await me(e.session.token), 401, 'invalid_session', `round ${i}: the user was deleted`);
    }
  });

  test('a profile change and a new password show on the next request made with another live session', async () => {
    const key = t.db.secretKey;
    const user = await newUser(t.server, key, 'profile@example.com');
    const other = await as(key).post<SignedIn>('/auth/sign-in', { email: 'profile@example.com', password: 'correct horse battery' }, 200);
    for (let i = 0; i < 5; i += 1) {
      await as(key).get('/auth/me', 200, withSession(other.session.token));
      await as(key).patch('/auth/me', { name: `name ${i}` }, 200, withSession(user.session.token));
      const seen = await as(key).get<{ user: { name: string } }>('/auth/me', 200, withSession(other.session.token));
      assert.equal(seen.user.name, `name ${i}`);
    }
    // The password check of change-password reads the user the session resolved to.
    await as(key).post(
      '/auth/change-password',
      { currentPassword: 'correct horse battery', newPassword: 'a new password 1' },
      204,
      withSession(user.session.token),
    );
    const wrong = await as(key).request('POST', '/auth/change-password', {
      body: { currentPassword: 'correct horse battery', newPassword: 'another one 22' },
      ...withSession(user.session.token),
    });
    assertError(wrong, 400, 'invalid_current_password');
  });

  test("an operator's ended session is refused on the next request", async () => {
    const anon = apiClient(() => t.server);
    for (let i = 0; i < 5; i += 1) {
      const { token } = await anon.post<{ token: string }>('/admin/sign-in', { email: 'operator@svc.test', password: 'operator-password-1' }, 200);
      const mine = apiClient(() => t.server, token);
      await mine.get('/admin/me');
      await mine.post('/admin/sign-out', undefined, 204);
      assertError(await mine.request('GET', '/admin/me'), 401, 'invalid_session', `round ${i}`);
    }
  });

  test(
    kind === 'postgres'
      ? 'PostgreSQL: a live key is answered from memory; a change made by hand in SQL is announced all the same'
      : 'SQLite: every request looks the key up, so a change made by hand in SQL holds on the next request',
    async () => {
      const { id, key } = await newKey();
      await as(key).get('/cached/docs');
      await as(key).get('/cached/docs');
      const revokeBySql = 'UPDATE api_keys SET revoked_at = ? WHERE id = ?';
      if (kind === 'postgres') {
        // With the store's announcements switched off for this one transaction, the revocation goes
        // unseen: proof that the key was not looked up again.
        await t.server.db.store.transaction(async (tx) => {
          await tx.run('SET LOCAL session_replication_role = replica');
          await tx.run(revokeBySql, [new Date().toISOString(), id]);
        });
        await as(key).get('/cached/docs');
        await t.server.db.store.run('UPDATE api_keys SET revoked_at = NULL WHERE id = ?', [id]);
        await t.server.db.store.run(revokeBySql, [new Date().toISOString(), id]);
        // A hand-made change reaches the cache through NOTIFY, without a route's barrier: soon, not at once.
        await eventually(async () => assertError(await as(key).request('GET', '/cached/docs'), 401, 'invalid_api_key'), { what: 'the revocation made in SQL' });
      } else {
        await t.server.db.store.run(revokeBySql, [new Date().toISOString(), id]);
        assertError(await as(key).request('GET', '/cached/docs'), 401, 'invalid_api_key');
      }
    },
  );
});

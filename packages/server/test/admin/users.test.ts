import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer, type TestDatabase } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, newUser } from '../helpers/auth-client.ts';

/**
 * The dashboard's extras on an end user (operator only): its live sessions and providers, and
 * "sign out everywhere". Listing, changing and deleting users is §2.1's /auth/users
 * (test/auth/users-admin.test.ts), which the dashboard calls with the operator token.
 */
forEachStore('end-user management (dashboard extras)', (kind) => {
  const t = useServer(kind);
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  /** The database's users routes. */
  const users = (path = '') => `/admin/databases/${t.db.databaseId}/users${path}`;
  let other: TestDatabase;

  before(async () => {
    other = await t.server.createDatabase('other-db');
  });

  test('API keys → 403; no token → 401; a user of an unknown database → 404', async () => {
    const anyUser = await newUser(t.server, t.db.publicKey, 'keys@example.com');
    const paths: Array<[string, string]> = [
      ['GET', users(`/${anyUser.user.id}`)],
      ['POST', users(`/${anyUser.user.id}/sign-out`)],
    ];
    for (const [method, path] of paths) {
      assert.equal((await request(t.server, method, path, { key: t.db.secretKey })).status, 403, `${method} ${path} with a key`);
      assert.equal((await request(t.server, method, path)).status, 401, `${method} ${path} without a token`);
    }
    assert.equal(errorCode(await op.request('GET', `/admin/databases/nope/users/${anyUser.user.id}`)), 'not_found');
    assert.equal(errorCode(await op.request('POST', `/admin/databases/${other.databaseId}/users/${anyUser.user.id}/sign-out`)), 'not_found');
    assert.equal((await auth.me(t.server, t.db.publicKey, anyUser.session.token)).status, 200, 'the refused sign-out ended nothing');
  });

  test('get: the user, its live sessions and providers; a user of another database → 404', async () => {
    const signedIn = await newUser(t.server, t.db.secretKey, 'frank@example.com');
    await auth.signIn(t.server, t.db.secretKey, 'frank@example.com', 'correct horse battery');
    assert.deepEqual(await op.get(users(`/${signedIn.user.id}`)), { user: signedIn.user, activeSessions: 2, providers: [] });
    await op.get(`/admin/databases/${other.databaseId}/users/${signedIn.user.id}`, 404);
    await op.get(users('/missing'), 404);
  });

  test('sign out everywhere: every session of that user ends, other users keep theirs', async () => {
    const { secretKey } = t.db;
    const a = await newUser(t.server, secretKey, 'gina@example.com');
    const b = await auth.signIn(t.server, secretKey, 'gina@example.com', 'correct horse battery');
    const bystander = await newUser(t.server, secretKey, 'hank@example.com');
    const tokens = [a.session.token, (b.json as { session: { token: string } }).session.token];
    for (const token of tokens) assert.equal((await auth.me(t.server, secretKey, token)).status, 200);

    assert.deepEqual(await op.post(users(`/${a.user.id}/sign-out`), undefined, 200), { endedSessions: 2 });
    for (const token of tokens) assert.equal(errorCode(await auth.me(t.server, secretKey, token)), 'invalid_session');
    assert.equal((await auth.me(t.server, secretKey, bystander.session.token)).status, 200);
    assert.deepEqual(await op.post(users(`/${a.user.id}/sign-out`), undefined, 200), { endedSessions: 0 });
    assert.equal((await auth.signIn(t.server, secretKey, 'gina@example.com', 'correct horse battery')).status, 200, 'the account itself stays');
  });
});

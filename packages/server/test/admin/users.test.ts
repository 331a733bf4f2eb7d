import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer, type TestDatabase } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, newUser } from '../helpers/auth-client.ts';

type User = { id: string; email: string; name: string | null; emailVerified: boolean; createdAt: string };
type Page = { users: User[]; total: number; limit: number; offset: number };

forEachStore('end-user management', (kind) => {
  const t = useServer(kind);
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  /** The database's users routes. */
  const users = (path = '') => `/admin/databases/${t.db.databaseId}/users${path}`;
  let other: TestDatabase;
  const emails = ['ann@example.com', 'bob@example.com', 'carol@sample.org', 'dan_1@example.com', 'eve%x@sample.org'];

  before(async () => {
    other = await t.server.createDatabase('other-db');
    for (const e of emails) await newUser(t.server, t.db.publicKey, e);
    await newUser(t.server, other.secretKey, 'ann@example.com');
  });

  const list = (query: Record<string, string | number> = {}, id = t.db.databaseId) => op.get<Page>(`/admin/databases/${id}/users`, 200, { query });

  test('list: newest first, paged, only this database, never a password hash', async () => {
    const all = await list();
    assert.equal(all.total, 5);
    assert.deepEqual(
      all.users.map((u) => u.email),
      [...emails].reverse(),
    );
    const page = await list({ limit: 2, offset: 2 });
    assert.deepEqual(
      page.users.map((u) => u.email),
      [emails[2], emails[1]],
    );
    assert.deepEqual([page.total, page.limit, page.offset], [5, 2, 2]);
    assert.equal((await list({}, other.databaseId)).total, 1);
    const raw = await op.request('GET', users());
    assert.ok(!/password|argon2|hash/i.test(raw.text));
  });

  test('search by part of the e-mail, case-insensitive; % and _ match only themselves', async () => {
    assert.deepEqual((await list({ search: 'SAMPLE.org' })).users.map((u) => u.email).sort(), ['carol@sample.org', 'eve%x@sample.org']);
    assert.deepEqual(
      (await list({ search: ' bob@' })).users.map((u) => u.email),
      ['bob@example.com'],
    );
    assert.deepEqual(
      (await list({ search: '%' })).users.map((u) => u.email),
      ['eve%x@sample.org'],
    );
    assert.deepEqual(
      (await list({ search: '_' })).users.map((u) => u.email),
      ['dan_1@example.com'],
    );
    assert.deepEqual(await list({ search: 'nobody' }), { users: [], total: 0, limit: 20, offset: 0 });
    assert.equal((await list({ search: 'example', limit: 1 })).total, 3);
  });

  test('bad paging → 400; unknown database → 404; API keys → 403; no token → 401', async () => {
    for (const query of [{ limit: 0 }, { limit: 1001 }, { offset: -1 }, { limit: 'x' }, { other: 1 }] as Array<Record<string, string | number>>) {
      assert.equal((await op.request('GET', users(), { query })).status, 400, JSON.stringify(query));
    }
    assert.equal(errorCode(await op.request('GET', '/admin/databases/nope/users')), 'not_found');
    const anyUser = (await list()).users[0];
    const paths: Array<[string, string]> = [
      ['GET', users()],
      ['GET', users(`/${anyUser.id}`)],
      ['DELETE', users(`/${anyUser.id}`)],
      ['POST', users(`/${anyUser.id}/sign-out`)],
    ];
    for (const [method, path] of paths) {
      assert.equal((await request(t.server, method, path, { key: t.db.secretKey })).status, 403, `${method} ${path} with a key`);
      assert.equal((await request(t.server, method, path)).status, 401, `${method} ${path} without a token`);
    }
    assert.equal((await list()).total, 5, 'nothing was deleted');
  });

  test('get: the user, its live sessions and providers; a user of another database → 404', async () => {
    const signedIn = await newUser(t.server, t.db.secretKey, 'frank@example.com');
    await auth.signIn(t.server, t.db.secretKey, 'frank@example.com', 'correct horse battery');
    assert.deepEqual(await op.get(users(`/${signedIn.user.id}`)), { user: signedIn.user, activeSessions: 2, providers: [] });
    const theirs = (await list({}, other.databaseId)).users[0];
    await op.get(users(`/${theirs.id}`), 404);
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

  test('delete: the user, its sessions; the e-mail can sign up again as a new account; the other database is untouched', async () => {
    const { secretKey } = t.db;
    const u = await newUser(t.server, secretKey, 'ivy@example.com');
    await op.delete(users(`/${u.user.id}`), 204);
    assert.equal(errorCode(await auth.me(t.server, secretKey, u.session.token)), 'invalid_session');
    assert.equal((await auth.signIn(t.server, secretKey, 'ivy@example.com', 'correct horse battery')).status, 401);
    await op.delete(users(`/${u.user.id}`), 404);
    const again = await newUser(t.server, secretKey, 'ivy@example.com');
    assert.notEqual(again.user.id, u.user.id);
    assert.equal((await list({ search: 'ann@' }, other.databaseId)).total, 1);
    const sessions = await t.server.db.store.all('SELECT token_hash FROM user_sessions WHERE user_id = ?', [u.user.id]);
    assert.equal(sessions.length, 0);
  });
});

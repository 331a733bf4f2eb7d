import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';
import { auth, newUser } from '../helpers/auth-client.ts';

type User = { id: string; email: string; name: string | null; emailVerified: boolean; createdAt: string };
type Page = { users: User[]; total: number; limit: number; offset: number };

forEachStore('end-user management', (kind) => {
  let server: TestServer;
  let op: string;
  let db: Awaited<ReturnType<TestServer['createDatabase']>>;
  let other: Awaited<ReturnType<TestServer['createDatabase']>>;
  const emails = ['ann@example.com', 'bob@example.com', 'carol@sample.org', 'dan_1@example.com', 'eve%x@sample.org'];

  before(async () => {
    server = await startServer(kind);
    op = await server.operatorToken();
    db = await server.createDatabase('users-db');
    other = await server.createDatabase('other-db');
    for (const e of emails) await newUser(server, db.publicKey, e);
    await newUser(server, other.secretKey, 'ann@example.com');
  });
  after(() => server.close());

  const list = async (query: Record<string, string | number> = {}, id = db.databaseId) => {
    const r = await request(server, 'GET', `/admin/databases/${id}/users`, { key: op, query });
    assert.equal(r.status, 200, r.text);
    return r.json as Page;
  };

  test('list: newest first, paged, only this database, never a password hash', async () => {
    const all = await list();
    assert.equal(all.total, 5);
    assert.deepEqual(all.users.map((u) => u.email), [...emails].reverse());
    const page = await list({ limit: 2, offset: 2 });
    assert.deepEqual(page.users.map((u) => u.email), [emails[2], emails[1]]);
    assert.deepEqual([page.total, page.limit, page.offset], [5, 2, 2]);
    assert.equal((await list({}, other.databaseId)).total, 1);
    const raw = await request(server, 'GET', `/admin/databases/${db.databaseId}/users`, { key: op });
    assert.ok(!/password|argon2|hash/i.test(raw.text));
  });

  test('search by part of the e-mail, case-insensitive; % and _ match only themselves', async () => {
    assert.deepEqual((await list({ search: 'SAMPLE.org' })).users.map((u) => u.email).sort(), ['carol@sample.org', 'eve%x@sample.org']);
    assert.deepEqual((await list({ search: ' bob@' })).users.map((u) => u.email), ['bob@example.com']);
    assert.deepEqual((await list({ search: '%' })).users.map((u) => u.email), ['eve%x@sample.org']);
    assert.deepEqual((await list({ search: '_' })).users.map((u) => u.email), ['dan_1@example.com']);
    assert.deepEqual(await list({ search: 'nobody' }), { users: [], total: 0, limit: 20, offset: 0 });
    assert.equal((await list({ search: 'example', limit: 1 })).total, 3);
  });

  test('bad paging → 400; unknown database → 404; API keys → 403; no token → 401', async () => {
    for (const query of [{ limit: 0 }, { limit: 1001 }, { offset: -1 }, { limit: 'x' }, { other: 1 }] as Array<Record<string, string | number>>) {
      const r = await request(server, 'GET', `/admin/databases/${db.databaseId}/users`, { key: op, query });
      assert.equal(r.status, 400, JSON.stringify(query));
    }
    assert.equal(errorCode(await request(server, 'GET', '/admin/databases/nope/users', { key: op })), 'not_found');
    const anyUser = (await list()).users[0];
    const paths: Array<[string, string]> = [
      ['GET', `/admin/databases/${db.databaseId}/users`], ['GET', `/admin/databases/${db.databaseId}/users/${anyUser.id}`],
      ['DELETE', `/admin/databases/${db.databaseId}/users/${anyUser.id}`], ['POST', `/admin/databases/${db.databaseId}/users/${anyUser.id}/sign-out`],
    ];
    for (const [method, path] of paths) {
      assert.equal((await request(server, method, path, { key: db.secretKey })).status, 403, `${method} ${path} with a key`);
      assert.equal((await request(server, method, path)).status, 401, `${method} ${path} without a token`);
    }
    assert.equal((await list()).total, 5, 'nothing was deleted');
  });

  test('get: the user, its live sessions and providers; a user of another database → 404', async () => {
    const signedIn = await newUser(server, db.secretKey, 'frank@example.com');
    await auth.signIn(server, db.secretKey, 'frank@example.com', 'correct horse battery');
    const r = await request(server, 'GET', `/admin/databases/${db.databaseId}/users/${signedIn.user.id}`, { key: op });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { user: signedIn.user, activeSessions: 2, providers: [] });
    const theirs = (await list({}, other.databaseId)).users[0];
    assert.equal((await request(server, 'GET', `/admin/databases/${db.databaseId}/users/${theirs.id}`, { key: op })).status, 404);
    assert.equal((await request(server, 'GET', `/admin/databases/${db.databaseId}/users/missing`, { key: op })).status, 404);
  });

  test('sign out everywhere: every session of that user ends, other users keep theirs', async () => {
    const a = await newUser(server, db.secretKey, 'gina@example.com');
    const b = await auth.signIn(server, db.secretKey, 'gina@example.com', 'correct horse battery');
    const bystander = await newUser(server, db.secretKey, 'hank@example.com');
    const tokens = [a.session.token, (b.json as { session: { token: string } }).session.token];
    for (const t of tokens) assert.equal((await auth.me(server, db.secretKey, t)).status, 200);

    const r = await request(server, 'POST', `/admin/databases/${db.databaseId}/users/${a.user.id}/sign-out`, { key: op });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { endedSessions: 2 });
    for (const t of tokens) assert.equal(errorCode(await auth.me(server, db.secretKey, t)), 'invalid_session');
    assert.equal((await auth.me(server, db.secretKey, bystander.session.token)).status, 200);
    assert.deepEqual((await request(server, 'POST', `/admin/databases/${db.databaseId}/users/${a.user.id}/sign-out`, { key: op })).json, { endedSessions: 0 });
    assert.equal((await auth.signIn(server, db.secretKey, 'gina@example.com', 'correct horse battery')).status, 200, 'the account itself stays');
  });

  test('delete: the user, its sessions; the e-mail can sign up again as a new account; the other database is untouched', async () => {
    const u = await newUser(server, db.secretKey, 'ivy@example.com');
    const r = await request(server, 'DELETE', `/admin/databases/${db.databaseId}/users/${u.user.id}`, { key: op });
    assert.equal(r.status, 204);
    assert.equal(errorCode(await auth.me(server, db.secretKey, u.session.token)), 'invalid_session');
    assert.equal((await auth.signIn(server, db.secretKey, 'ivy@example.com', 'correct horse battery')).status, 401);
    assert.equal((await request(server, 'DELETE', `/admin/databases/${db.databaseId}/users/${u.user.id}`, { key: op })).status, 404);
    const again = await newUser(server, db.secretKey, 'ivy@example.com');
    assert.notEqual(again.user.id, u.user.id);
    assert.equal((await list({ search: 'ann@' }, other.databaseId)).total, 1);
    const sessions = await server.db.store.all('SELECT token_hash FROM user_sessions WHERE user_id = ?', [u.user.id]);
    assert.equal(sessions.length, 0);
  });
});

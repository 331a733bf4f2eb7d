import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { openWs } from '../helpers/ws.ts';
import { eventually } from '../helpers/eventually.ts';
import { closeCode } from '../realtime/upgrade.ts';
import { tokenUrl, watch } from '../realtime/watch.ts';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://localhost:5173/magic';

/** A user as §2.1 shows it. */
interface User {
  id: string;
  email: string;
  name: string | null;
  avatar: string | null;
  emailVerified: boolean;
  appMetadata: Record<string, unknown>;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * API.md §2.1: the app's backend manages its users under /auth/users with its secret key (or an
 * operator token with X-Database-Id); `appMetadata` and `disabled` on every user.
 */
forEachStore('auth: users managed by the app (/auth/users)', (kind) => {
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
  });
  const t = useServer(kind, () => ({ env: { SMTP_URL: sink.url, EMAIL_FROM: 'svc <auth@svc.test>' } }));
  after(() => sink.close());
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const operator = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
    () => ({ headers: { 'x-database-id': t.db.databaseId } }),
  );
  const signUp = (email: string) => newUser(t.server, t.db.publicKey, email, PASSWORD);
  const me = (token: string) => pub.request('GET', '/auth/me', withSession(token));

  test('every user answer carries appMetadata {} and disabled false: sign-up, sign-in, /auth/me, refresh', async () => {
    const up = await signUp('shape@example.com');
    assert.deepEqual(up.user.appMetadata, {});
    assert.equal(up.user.disabled, false);
    const inn = await pub.post<SignedIn & { user: User }>('/auth/sign-in', { email: 'shape@example.com', password: PASSWORD }, 200);
    const mine = await pub.get<{ user: User }>('/auth/me', 200, withSession(inn.session.token));
    const refreshed = await pub.post<{ user: User }>('/auth/refresh', undefined, 200, withSession(inn.session.token));
    for (const user of [inn.user, mine.user, refreshed.user]) {
      assert.deepEqual(user.appMetadata, {});
      assert.equal(user.disabled, false);
    }
    assert.deepEqual(Object.keys(mine.user).sort(), ['appMetadata', 'avatar', 'createdAt', 'disabled', 'email', 'emailVerified', 'id', 'name', 'updatedAt']);
  });

  test('GET /auth/users pages oldest first with a total; `email` keeps a lower-cased prefix, LIKE characters literal', async () => {
    const other = await t.server.createDatabase('other');
    await newUser(t.server, other.publicKey, 'list-a1@example.com', PASSWORD); // another database: never listed
    const made: string[] = [];
    for (const email of ['list-a1@example.com', 'list-a2@example.com', 'list-b1@example.com', 'list_c@example.com', 'listxc@example.com']) {
      made.push((await signUp(email)).user.id);
    }
    const all = await secret.get<{ users: User[]; total: number }>('/auth/users?limit=1000');
    const listed = all.users.map((u) => u.id).filter((id) => made.includes(id));
    assert.deepEqual(listed, made, 'oldest first');
    assert.equal(all.total, all.users.length);
    const page = await secret.get<{ users: User[]; total: number }>('/auth/users', 200, { query: { email: 'LIST-', limit: 2, offset: 1 } });
    assert.equal(page.total, 3);
    assert.deepEqual(
      page.users.map((u) => u.email),
      ['list-a2@example.com', 'list-b1@example.com'],
    );
    const prefixA = await secret.get<{ users: User[]; total: number }>('/auth/users', 200, { query: { email: '  List-A' } });
    assert.deepEqual(
      prefixA.users.map((u) => u.email),
      ['list-a1@example.com', 'list-a2@example.com'],
    );
    const underscore = await secret.get<{ users: User[]; total: number }>('/auth/users', 200, { query: { email: 'list_' } });
    assert.deepEqual(
      underscore.users.map((u) => u.email),
      ['list_c@example.com'],
      '_ is a character, not a wildcard',
    );
    const none = await secret.get<{ users: User[]; total: number }>('/auth/users', 200, { query: { email: 'example.com' } });
    assert.deepEqual(none, { users: [], total: 0 }, 'a prefix, not a substring');
    const beyond = await secret.get<{ users: User[]; total: number }>('/auth/users', 200, { query: { email: 'list-', offset: 10 } });
    assert.deepEqual(beyond, { users: [], total: 3 });
    assertError(await secret.request('GET', '/auth/users', { query: { limit: 0 } }), 400, 'validation_failed');
    assertError(await secret.request('GET', '/auth/users', { query: { limit: 1001 } }), 400, 'validation_failed');
    assertError(await secret.request('GET', '/auth/users', { query: { offset: -1 } }), 400, 'validation_failed');
    assertError(await secret.request('GET', '/auth/users', { query: { search: 'x' } }), 400, 'validation_failed');
  });

  test('a public key is refused on every /auth/users route (403 read_only_key); no key 401; an operator with X-Database-Id acts as the secret key', async () => {
    const u = await signUp('keys@example.com');
    const path = `/auth/users/${u.user.id}`;
    assertError(await pub.request('GET', '/auth/users'), 403, 'read_only_key');
    assertError(await pub.request('GET', path), 403, 'read_only_key');
    assertError(await pub.request('PATCH', path, { body: { name: 'x' } }), 403, 'read_only_key');
    assertError(await pub.request('DELETE', path), 403, 'read_only_key');
    assertError(await apiClient(() => t.server).request('GET', '/auth/users'), 401, 'missing_api_key');
    assert.equal((await secret.get<{ user: User }>(path)).user.name, null, 'untouched by the refused PATCH');
    const viaOperator = await operator.get<{ users: User[] }>('/auth/users', 200, { query: { email: 'keys@' } });
    assert.deepEqual(
      viaOperator.users.map((u) => u.id),
      [u.user.id],
    );
    const patched = await operator.patch<{ user: User }>(path, { name: 'By the operator' });
    assert.equal(patched.user.name, 'By the operator');
    const operatorWithout = apiClient(
      () => t.server,
      () => t.server.operatorToken(),
    );
    assertError(await operatorWithout.request('GET', '/auth/users'), 403, 'forbidden');
  });

  test('GET /auth/users/:id: the user; an unknown id, or a user of another database, is 404 not_found', async () => {
    const u = await signUp('get@example.com');
    const got = await secret.get<{ user: User }>(`/auth/users/${u.user.id}`);
    assert.deepEqual(got.user, { ...u.user, appMetadata: {}, disabled: false, mfa: false }); // mfa: API.md §2.2
    assertError(await secret.request('GET', '/auth/users/no-such-user'), 404, 'not_found');
    const other = await t.server.createDatabase('other-get');
    assertError(await apiClient(() => t.server, other.secretKey).request('GET', `/auth/users/${u.user.id}`), 404, 'not_found');
    assertError(await secret.request('PATCH', '/auth/users/no-such-user', { body: { name: 'x' } }), 404, 'not_found');
    assertError(await secret.request('DELETE', '/auth/users/no-such-user'), 404, 'not_found');
  });

  test('PATCH /auth/users/:id changes name, avatar, emailVerified, appMetadata (replaced whole) and disabled; the user sees them in /auth/me', async () => {
    const u = await signUp('patch@example.com');
    const path = `/auth/users/${u.user.id}`;
    const a = await secret.patch<{ user: User }>(path, { name: 'Ann', avatar: 'https://img.example.com/ann.png' });
    assert.equal(a.user.name, 'Ann');
    assert.equal(a.user.avatar, 'https://img.example.com/ann.png');
    assert.ok(a.user.updatedAt >= u.user.updatedAt);
    const b = await secret.patch<{ user: User }>(path, { emailVerified: true, appMetadata: { role: 'editor', team: { id: 't1', seats: 3 }, tags: ['a'] } });
    assert.equal(b.user.emailVerified, true);
    assert.deepEqual(b.user.appMetadata, { role: 'editor', team: { id: 't1', seats: 3 }, tags: ['a'] });
    assert.equal(b.user.name, 'Ann', 'fields not sent stay');
    const c = await secret.patch<{ user: User }>(path, { appMetadata: { plan: 'pro' } });
    assert.deepEqual(c.user.appMetadata, { plan: 'pro' }, 'replaced whole, not merged');
    const mine = await pub.get<{ user: User }>('/auth/me', 200, withSession(u.session.token));
    assert.deepEqual(mine.user, c.user, 'the user reads what the backend set, at once');
    const d = await secret.patch<{ user: User }>(path, { name: null, avatar: null, emailVerified: false, appMetadata: {} });
    assert.deepEqual([d.user.name, d.user.avatar, d.user.emailVerified, d.user.appMetadata], [null, null, false, {}]);
    const same = await secret.patch<{ user: User }>(path, {});
    assert.deepEqual(same.user, d.user, 'an empty patch changes nothing');
    assert.deepEqual((await secret.get<{ user: User }>(path)).user, { ...d.user, mfa: false });
  });

  test('PATCH /auth/users/:id refuses bad input with 400 (413 past 16 KiB of appMetadata) and writes nothing', async () => {
    const u = await signUp('bad-patch@example.com');
    const path = `/auth/users/${u.user.id}`;
    await secret.patch(path, { name: 'Kept', appMetadata: { kept: true } });
    // Bodies as JSON text: a `__proto__` key cannot be written in an object literal.
    const bad: Array<[string | object, number, string]> = [
      [{ name: 'x', avatar: 'javascript:alert(1)' }, 400, 'validation_failed'],
      [{ name: 'x', appMetadata: [] }, 400, 'validation_failed'],
      [{ name: 'x', appMetadata: null }, 400, 'validation_failed'],
      [{ name: 'x', appMetadata: 'admin' }, 400, 'validation_failed'],
      [{ name: 'x', disabled: 'yes' }, 400, 'validation_failed'],
      [{ name: 'x', emailVerified: 1 }, 400, 'validation_failed'],
      [{ name: 'x', email: 'new@example.com' }, 400, 'validation_failed'],
      [{ name: 'x', password: 'new password 1' }, 400, 'validation_failed'],
      ['{"name": "x", "appMetadata": {"__proto__": {"role": "admin"}}}', 400, 'invalid_field_name'],
      [{ name: 'x', appMetadata: { big: 'x'.repeat(16 * 1024) } }, 413, 'payload_too_large'],
    ];
    for (const [body, status, code] of bad) {
      const raw = typeof body === 'string' ? body : JSON.stringify(body);
      assertError(await secret.request('PATCH', path, { raw }), status, code, raw.slice(0, 80));
    }
    const after = (await secret.get<{ user: User }>(path)).user;
    assert.equal(after.name, 'Kept');
    assert.deepEqual(after.appMetadata, { kept: true });
    const justUnder = { big: 'x'.repeat(16 * 1024 - 20) };
    assert.deepEqual((await secret.patch<{ user: User }>(path, { appMetadata: justUnder })).user.appMetadata, justUnder, '16 KiB fits');
  });

  test('the user cannot change appMetadata, disabled or emailVerified through PATCH /auth/me (400, nothing written)', async () => {
    const u = await signUp('self@example.com');
    await secret.patch(`/auth/users/${u.user.id}`, { appMetadata: { role: 'reader' } });
    for (const body of [{ appMetadata: { role: 'admin' } }, { name: 'Me', appMetadata: { role: 'admin' } }, { disabled: true }, { emailVerified: true }]) {
      assertError(await pub.request('PATCH', '/auth/me', { body, ...withSession(u.session.token) }), 400, 'validation_failed', JSON.stringify(body));
    }
    const mine = (await pub.get<{ user: User }>('/auth/me', 200, withSession(u.session.token))).user;
    assert.deepEqual([mine.name, mine.appMetadata, mine.disabled, mine.emailVerified], [null, { role: 'reader' }, false, false]);
    assert.equal((await pub.patch<{ user: User }>('/auth/me', { name: 'Me' }, 200, withSession(u.session.token))).user.name, 'Me');
  });

  test('disabled: its sessions end at once, its open socket closes with 4401, sign-in is refused on every path; enabled again, it signs in', async () => {
    const email = 'disabled@example.com';
    const u = await signUp(email);
    const second = await pub.post<SignedIn>('/auth/sign-in', { email, password: PASSWORD }, 200);
    const url = await tokenUrl(t.server, t.db.publicKey, ['notes'], u.session.token);
    const socket = await watch(url);
    const bystander = await signUp('bystander@example.com');
    const bystanderSocket = await watch(await tokenUrl(t.server, t.db.publicKey, ['notes'], bystander.session.token));
    // A magic link asked for before the account is disabled.
    await pub.post('/auth/magic-link', { email, redirectUrl: REDIRECT }, 202);
    const magic = linkIn(await sink.next(email)).searchParams.get('token')!;

    const off = await secret.patch<{ user: User }>(`/auth/users/${u.user.id}`, { disabled: true });
    assert.equal(off.user.disabled, true);
    assertError(await me(u.session.token), 401, 'invalid_session', 'the first session');
    assertError(await me(second.session.token), 401, 'invalid_session', 'the second session');
    assertError(await pub.request('POST', '/auth/refresh', withSession(second.session.token)), 401, 'invalid_session');
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
    assertError(await pub.request('POST', '/realtime/token', { body: { collections: ['notes'] }, ...withSession(u.session.token) }), 401, 'invalid_session');

    const wrong = await pub.request('POST', '/auth/sign-in', { body: { email, password: 'not the password' } });
    const right = await pub.request('POST', '/auth/sign-in', { body: { email, password: PASSWORD } });
    assertError(right, 401, 'invalid_credentials', 'the right password');
    assertError(wrong, 401, 'invalid_credentials');
    assert.equal((right.json as any).error.message, (wrong.json as any).error.message, 'the same answer as a wrong password');
    assertError(await pub.request('POST', '/auth/magic-link/verify', { body: { email, token: magic } }), 401, 'invalid_credentials', 'a magic link');
    assert.equal(bystanderSocket.ws.readyState, bystanderSocket.ws.OPEN, "another user's socket stays");
    await me(bystander.session.token).then((r) => assert.equal(r.status, 200));

    const on = await secret.patch<{ user: User }>(`/auth/users/${u.user.id}`, { disabled: false });
    assert.equal(on.user.disabled, false);
    assertError(await me(u.session.token), 401, 'invalid_session', 'ended sessions stay ended');
    const again = await pub.post<SignedIn>('/auth/sign-in', { email, password: PASSWORD }, 200);
    assert.equal((await me(again.session.token)).status, 200);
    const back = await pub.post<SignedIn>('/auth/magic-link/verify', { email, token: magic }, 200);
    assert.equal(back.user.id, u.user.id, 'the refused link was not used up');
    await bystanderSocket.close();
  });

  test('a session that outlived the disabling (one racing it could) resolves to nobody: /auth/me, documents, realtime tokens and sockets', async () => {
    const u = await signUp('outlived@example.com');
    assert.equal((await me(u.session.token)).status, 200); // cached where sessions are cached
    const socket = await watch(await tokenUrl(t.server, t.db.publicKey, ['notes'], u.session.token));
    // The flag alone, as a sign-in racing PATCH {disabled: true} would leave it: the session row stays.
    await t.server.db.store.run('UPDATE users SET disabled = 1 WHERE id = ?', [u.user.id]);
    await eventually(async () => (await me(u.session.token)).status === 401);
    assertError(await me(u.session.token), 401, 'invalid_session');
    await secret.put('/rules', { rules: { mine: { read: 'signedIn' } } });
    assertError(await pub.request('GET', '/mine/docs', withSession(u.session.token)), 401, 'invalid_session');
    assertError(await pub.request('POST', '/realtime/token', { body: { collections: ['mine'] }, ...withSession(u.session.token) }), 401, 'invalid_session');
    await secret.put('/rules', { rules: { '*': { read: true } } });
    assert.equal(await closeCode(socket.closed), 4401, 'its socket closes too');
  });

  test('DELETE /auth/users/:id: 204; the account, its sessions, socket and unused links are gone, its documents stay; the e-mail can sign up again', async () => {
    const email = 'deleted@example.com';
    const u = await signUp(email);
    const doc = await secret.post<{ id: string }>('/notes/docs', { owner: u.user.id, text: 'mine' }, 201);
    const url = await tokenUrl(t.server, t.db.publicKey, ['notes'], u.session.token);
    const socket = await watch(url);
    await pub.post('/auth/magic-link', { email, redirectUrl: REDIRECT }, 202);
    const magic = linkIn(await sink.next(email)).searchParams.get('token')!;

    await secret.delete(`/auth/users/${u.user.id}`, 204);
    assertError(await secret.request('GET', `/auth/users/${u.user.id}`), 404, 'not_found');
    assertError(await secret.request('DELETE', `/auth/users/${u.user.id}`), 404, 'not_found', 'deleting twice');
    assertError(await me(u.session.token), 401, 'invalid_session');
    assert.equal(await closeCode(socket.closed), 4401);
    await assert.rejects(openWs(url), { statusCode: 401 });
    assertError(await pub.request('POST', '/auth/magic-link/verify', { body: { email, token: magic } }), 401, 'invalid_token', 'its unused magic link');
    assert.equal((await secret.get<{ text: string }>(`/notes/docs/${doc.id}`)).text, 'mine');
    assertError(await pub.request('POST', '/auth/sign-in', { body: { email, password: PASSWORD } }), 401, 'invalid_credentials');
    const anew = await signUp(email);
    assert.notEqual(anew.user.id, u.user.id);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { auth, newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { purgeExpired } from '../../src/auth/cleanup.ts';

const DAY = 24 * 3600 * 1000;
const PASSWORD = 'correct horse battery';

forEachStore('auth: passwords and sessions', (kind) => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
  const t = useServer(kind, { clock, databaseName: 'Password App' });
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );

  test('sign-up answers 201 {user, session}, trims and lower-cases the e-mail, and never shows a hash', async () => {
    const r = await auth.signUp(t.server, t.db.publicKey, { email: '  Ada@Example.COM ', password: PASSWORD, name: 'Ada' });
    assert.equal(r.status, 201, r.text);
    const body = r.json as SignedIn;
    assert.deepEqual(Object.keys(body).sort(), ['session', 'user']);
    assert.deepEqual(Object.keys(body.user).sort(), ['appMetadata', 'avatar', 'createdAt', 'disabled', 'email', 'emailVerified', 'id', 'name', 'updatedAt']);
    assert.deepEqual([body.user.appMetadata, body.user.disabled], [{}, false]);
    assert.equal(body.user.email, 'ada@example.com');
    assert.equal(body.user.name, 'Ada');
    assert.equal(body.user.avatar, null);
    assert.equal(body.user.emailVerified, false);
    assert.match(body.user.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.keys(body.session).sort(), ['expiresAt', 'token']);
    assert.ok(Buffer.from(body.session.token, 'base64url').length >= 32, 'at least 32 random bytes');
    assert.equal(body.session.expiresAt, new Date(clock.now() + 30 * DAY).toISOString());
    const stored = await t.server.db.store.all<{ token_hash: string }>('SELECT token_hash FROM user_sessions');
    assert.ok(
      stored.every((s) => s.token_hash !== body.session.token && /^[0-9a-f]{64}$/.test(s.token_hash)),
      'only SHA-256 of tokens is stored',
    );
    assert.deepEqual(await secret.get('/auth/me', 200, withSession(body.session.token)), { user: body.user });
  });

  test('sign-up: 8..256 characters else 400 weak_password; taken e-mail → 409 conflict; bad input → 400', async () => {
    for (const password of ['short12', 'x'.repeat(257), '']) {
      const r = await auth.signUp(t.server, t.db.secretKey, { email: 'weak@example.com', password });
      assertError(r, 400, 'weak_password');
    }
    assert.equal((await auth.signUp(t.server, t.db.secretKey, { email: 'eight@example.com', password: '12345678' })).status, 201);
    assert.equal((await auth.signUp(t.server, t.db.secretKey, { email: 'long@example.com', password: 'y'.repeat(256) })).status, 201);
    const taken = await auth.signUp(t.server, t.db.secretKey, { email: ' EIGHT@example.com', password: 'another password' });
    assertError(taken, 409, 'conflict');
    const noAt = await auth.signUp(t.server, t.db.secretKey, { email: 'not-an-email', password: PASSWORD });
    assert.equal(errorCode(noAt), 'validation_failed');
    const missing = await auth.signUp(t.server, t.db.secretKey, { email: 'm@example.com' });
    assert.equal(errorCode(missing), 'validation_failed');
    const noType = await secret.request('POST', '/auth/sign-up', { raw: '{}', contentType: null });
    assert.equal(noType.status, 415);
    const badJson = await secret.request('POST', '/auth/sign-up', { raw: '{"email":' });
    assert.equal(errorCode(badJson), 'invalid_json');
    assert.equal(
      errorCode(await apiClient(t.server).request('POST', '/auth/sign-up', { body: { email: 'k@example.com', password: PASSWORD } })),
      'missing_api_key',
    );
  });

  test('sign-in: 200 with a new session; wrong password and unknown e-mail → the same 401 in about the same time', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'grace@example.com');
    const ok = await auth.signIn(t.server, t.db.publicKey, ' Grace@Example.com ', PASSWORD);
    assert.equal(ok.status, 200);
    const body = ok.json as SignedIn;
    assert.equal(body.user.id, u.user.id);
    assert.notEqual(body.session.token, u.session.token);

    const time = async (email: string) => {
      const started = process.hrtime.bigint();
      const r = await auth.signIn(t.server, t.db.secretKey, email, 'wrong password!');
      return { r, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    // Interleaved, so load on the machine hits both kinds alike; medians of 5.
    const wrong: Awaited<ReturnType<typeof time>>[] = [];
    const unknown: Awaited<ReturnType<typeof time>>[] = [];
    for (let i = 0; i < 5; i += 1) {
      wrong.push(await time('grace@example.com'));
      unknown.push(await time(`nobody${i}@example.com`));
    }
    for (const { r } of [...wrong, ...unknown]) {
      assert.equal(r.status, 401);
      assert.deepEqual(r.json, wrong[0].r.json);
      assert.equal(errorCode(r), 'invalid_credentials');
    }
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[2];
    assert.ok(median(unknown) > median(wrong) * 0.5, `unknown e-mail ${median(unknown)} ms vs wrong password ${median(wrong)} ms: both hash`);
  });

  test('GET /auth/me: missing, unknown or malformed session → 401 invalid_session', async () => {
    assert.equal(errorCode(await secret.request('GET', '/auth/me')), 'invalid_session');
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, 'not-a-session')), 'invalid_session');
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, 'x'.repeat(2000))), 'invalid_session');
    const u = await newUser(t.server, t.db.secretKey, 'me@example.com');
    const noKey = await apiClient(t.server).request('GET', '/auth/me', withSession(u.session.token));
    assert.equal(errorCode(noKey), 'missing_api_key');
  });

  test('PATCH /auth/me changes name and avatar only; avatar must be http(s); other fields → 400', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'patch@example.com');
    const session = withSession(u.session.token);
    clock.advance(1000);
    const { user } = await pub.patch<{ user: SignedIn['user'] }>('/auth/me', { name: 'Pat', avatar: 'https://cdn.example.com/p.png' }, 200, session);
    assert.equal(user.name, 'Pat');
    assert.equal(user.avatar, 'https://cdn.example.com/p.png');
    assert.ok(user.updatedAt > u.user.updatedAt);
    const merged = (await pub.patch<{ user: SignedIn['user'] }>('/auth/me', { avatar: null }, 200, { ...session, contentType: 'application/merge-patch+json' }))
      .user;
    assert.equal(merged.avatar, null);
    assert.equal(merged.name, 'Pat');
    for (const body of [
      { avatar: 'javascript:alert(1)' },
      { avatar: 'not a url' },
      { email: 'other@example.com' },
      { emailVerified: true },
      { name: 'x', password: 'p' },
    ]) {
      assertError(await pub.request('PATCH', '/auth/me', { ...session, body }), 400, 'validation_failed', JSON.stringify(body));
    }
    assert.equal(errorCode(await pub.request('PATCH', '/auth/me', { body: { name: 'x' } })), 'invalid_session');
    assert.equal((await secret.get<{ user: SignedIn['user'] }>('/auth/me', 200, session)).user.email, 'patch@example.com');
  });

  test('sessions expire after 30 days; refresh keeps the token and moves expiresAt to now + 30 days', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'slide@example.com');
    clock.advance(20 * DAY);
    const r = await auth.post(t.server, t.db.secretKey, '/auth/refresh', u.session.token);
    assert.equal(r.status, 200, r.text);
    const body = r.json as SignedIn;
    assert.equal(body.session.token, u.session.token);
    assert.equal(body.session.expiresAt, new Date(clock.now() + 30 * DAY).toISOString());
    assert.equal(body.user.id, u.user.id);
    clock.advance(20 * DAY); // 40 days after sign-up, 20 after refresh
    assert.equal((await auth.me(t.server, t.db.secretKey, u.session.token)).status, 200);
    const other = await newUser(t.server, t.db.secretKey, 'expire@example.com');
    clock.advance(30 * DAY + 1);
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, other.session.token)), 'invalid_session');
    assert.equal(errorCode(await auth.post(t.server, t.db.secretKey, '/auth/refresh', other.session.token)), 'invalid_session');
    assert.equal(errorCode(await auth.post(t.server, t.db.secretKey, '/auth/refresh', undefined)), 'invalid_session');
    const count = async () =>
      Number(
        (await t.server.db.store.get<{ n: number }>('SELECT count(*) AS n FROM user_sessions WHERE expires_at < ?', [new Date(clock.now()).toISOString()]))!.n,
      );
    assert.ok((await count()) > 0);
    assert.ok((await purgeExpired(t.server.db.store, clock)) > 0);
    assert.equal(await count(), 0, 'expired sessions are purged');
    const live = await newUser(t.server, t.db.secretKey, 'live@example.com');
    await purgeExpired(t.server.db.store, clock);
    assert.equal((await auth.me(t.server, t.db.secretKey, live.session.token)).status, 200, 'live ones stay');
  });

  test('sign-out ends that session only: 204, then 401', async () => {
    await newUser(t.server, t.db.secretKey, 'out@example.com');
    const a = (await auth.signIn(t.server, t.db.secretKey, 'out@example.com', PASSWORD)).json as SignedIn;
    const b = (await auth.signIn(t.server, t.db.secretKey, 'out@example.com', PASSWORD)).json as SignedIn;
    const r = await auth.post(t.server, t.db.publicKey, '/auth/sign-out', a.session.token);
    assert.equal(r.status, 204);
    assert.equal(r.text, '');
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, a.session.token)), 'invalid_session');
    assert.equal(errorCode(await auth.post(t.server, t.db.publicKey, '/auth/sign-out', a.session.token)), 'invalid_session');
    assert.equal((await auth.me(t.server, t.db.secretKey, b.session.token)).status, 200);
  });

  test('change-password: 400 invalid_current_password / weak_password; success ends every other session', async () => {
    const a = await newUser(t.server, t.db.secretKey, 'change@example.com');
    const b = (await auth.signIn(t.server, t.db.secretKey, 'change@example.com', PASSWORD)).json as SignedIn;
    const wrong = await auth.post(t.server, t.db.secretKey, '/auth/change-password', a.session.token, {
      currentPassword: 'not it at all',
      newPassword: 'a new password',
    });
    assertError(wrong, 400, 'invalid_current_password');
    const weak = await auth.post(t.server, t.db.secretKey, '/auth/change-password', a.session.token, { currentPassword: PASSWORD, newPassword: 'short' });
    assert.equal(errorCode(weak), 'weak_password');
    const none = await auth.post(t.server, t.db.secretKey, '/auth/change-password', undefined, { currentPassword: PASSWORD, newPassword: 'a new password' });
    assert.equal(errorCode(none), 'invalid_session');
    const ok = await auth.post(t.server, t.db.publicKey, '/auth/change-password', a.session.token, {
      currentPassword: PASSWORD,
      newPassword: 'a new password',
    });
    assert.equal(ok.status, 204, ok.text);
    assert.equal((await auth.me(t.server, t.db.secretKey, a.session.token)).status, 200, 'the session that changed it stays');
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, b.session.token)), 'invalid_session', 'every other session ends');
    assert.equal(errorCode(await auth.signIn(t.server, t.db.secretKey, 'change@example.com', PASSWORD)), 'invalid_credentials');
    assert.equal((await auth.signIn(t.server, t.db.secretKey, 'change@example.com', 'a new password')).status, 200);
  });

  test('accounts belong to the database of the key: same e-mail, two accounts; sessions do not cross', async () => {
    const other = await t.server.createDatabase('Other App');
    const one = await newUser(t.server, t.db.secretKey, 'twin@example.com', 'password in one');
    const two = await newUser(t.server, other.publicKey, 'twin@example.com', 'password in two');
    assert.notEqual(one.user.id, two.user.id);
    assert.equal(errorCode(await auth.me(t.server, other.secretKey, one.session.token)), 'invalid_session');
    assert.equal(errorCode(await auth.signIn(t.server, other.secretKey, 'twin@example.com', 'password in one')), 'invalid_credentials');
    assert.equal((await auth.signIn(t.server, other.secretKey, 'twin@example.com', 'password in two')).status, 200);
    // An operator token with X-Database-Id acts as that database.
    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.get('/auth/me', 200, { headers: { 'x-database-id': other.databaseId, 'x-session-token': two.session.token } });
  });

  test('the /auth routes are in /v1/openapi.json', async () => {
    const paths = Object.keys((await apiClient(t.server).get<{ paths: Record<string, unknown> }>('/openapi.json')).paths);
    for (const p of [
      '/v1/auth/sign-up',
      '/v1/auth/sign-in',
      '/v1/auth/sign-out',
      '/v1/auth/me',
      '/v1/auth/refresh',
      '/v1/auth/change-password',
      '/v1/auth/forgot-password',
      '/v1/auth/reset-password',
      '/v1/auth/magic-link',
      '/v1/auth/magic-link/verify',
      '/v1/auth/oauth/{provider}',
      '/v1/auth/oauth/{provider}/callback',
    ]) {
      assert.ok(paths.includes(p), `${p} in ${paths.join(', ')}`);
    }
  });
});

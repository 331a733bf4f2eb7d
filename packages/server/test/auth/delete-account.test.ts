import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { forEachStore } from '../helpers/stores.ts';
import { useServer, type Response } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { auth, newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { startFakeGoogle } from '../helpers/oauth-providers.ts';
import { oauthBrowser } from '../helpers/oauth-browser.ts';
import { openWs } from '../helpers/ws.ts';

const REDIRECT = 'http://localhost:5173/auth/callback';
const PASSWORD = 'correct horse battery';

/** A client address nobody used yet (counters of earlier runs cannot interfere). */
const freshIp = () => `10.${[...randomBytes(3)].join('.')}`;

/**
 * API.md §2.1 `DELETE /auth/me`: the signed-in user deletes the account with its sessions,
 * realtime tokens (their sockets close with 4401) and identities; documents stay. A password
 * account re-enters its password, under the per-account limit of failed attempts (per account
 * and client IP; the client IP comes from X-Forwarded-For with TRUST_PROXY=true).
 */
forEachStore('auth: an end user deletes the account (DELETE /auth/me)', (kind) => {
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  before(async () => {
    google = await startFakeGoogle();
  });
  const t = useServer(kind, () => ({ env: { ...google.env, TRUST_PROXY: 'true', REALTIME_GRANT_CHECK_MS: '200' } }));
  after(() => google.close());
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  before(async () => {
    const oauth = { google: { clientId: 'google-client-id', clientSecret: 'google-client-secret' } };
    await apiClient(t.server, () => t.server.operatorToken()).patch(`/admin/databases/${t.db.databaseId}`, { settings: { oauth } });
  });

  /** DELETE /auth/me as `token`, with a body (undefined: none at all) from `ip`. */
  const deleteMe = (token: string | undefined, body?: Record<string, unknown>, ip = freshIp()): Promise<Response> =>
    pub.request('DELETE', '/auth/me', { body, headers: { ...(token === undefined ? {} : { 'x-session-token': token }), 'x-forwarded-for': ip } });
  const signIn = (email: string, password: string, ip = freshIp()) =>
    pub.request('POST', '/auth/sign-in', { body: { email, password }, headers: { 'x-forwarded-for': ip } });
  const rows = async (table: string, userId: string) => (await t.server.db.store.all(`SELECT 1 FROM ${table} WHERE user_id = ?`, [userId])).length;

  test('a password account: 204 with its password; every session, the account and the e-mail go; its documents stay', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'leaving@example.com');
    const other = (await signIn('leaving@example.com', PASSWORD)).json as SignedIn;
    const doc = await apiClient(t.server, t.db.secretKey).post<{ id: string }>('/notes/docs', { owner: u.user.id, text: 'kept' }, 201);

    const r = await deleteMe(u.session.token, { password: PASSWORD });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.text, '');
    for (const token of [u.session.token, other.session.token]) assertError(await auth.me(t.server, t.db.publicKey, token), 401, 'invalid_session');
    assertError(await signIn('leaving@example.com', PASSWORD), 401, 'invalid_credentials', 'the account is gone');
    assert.equal((await t.server.db.store.all('SELECT 1 FROM users WHERE id = ?', [u.user.id])).length, 0);
    assert.equal(await rows('user_sessions', u.user.id), 0);
    const kept = await apiClient(t.server, t.db.secretKey).get<{ text: string; owner: string }>(`/notes/docs/${doc.id}`);
    assert.deepEqual([kept.text, kept.owner], ['kept', u.user.id], 'documents stay');
    const again = await newUser(t.server, t.db.publicKey, 'leaving@example.com');
    assert.notEqual(again.user.id, u.user.id, 'the e-mail can sign up again, as a new account');
  });

  test('a password account: a wrong or missing password → 400 invalid_current_password, and nothing is deleted', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'careful@example.com');
    assertError(await deleteMe(u.session.token, { password: 'not my password' }), 400, 'invalid_current_password', 'wrong');
    assertError(await deleteMe(u.session.token, {}), 400, 'invalid_current_password', 'missing');
    assertError(await deleteMe(u.session.token), 400, 'invalid_current_password', 'no body at all');
    assertError(await deleteMe(u.session.token, { password: 42 }), 400, 'validation_failed', 'not a string');
    assert.equal((await auth.me(t.server, t.db.publicKey, u.session.token)).status, 200, 'still there');
    assertError(await deleteMe(undefined, { password: PASSWORD }), 401, 'invalid_session', 'no session');
    assertError(await deleteMe('made-up-session', { password: PASSWORD }), 401, 'invalid_session');
    const otherDb = await t.server.createDatabase();
    const elsewhere = await pub.request('DELETE', '/auth/me', {
      key: otherDb.publicKey,
      body: { password: PASSWORD },
      headers: { 'x-session-token': u.session.token },
    });
    assertError(elsewhere, 401, 'invalid_session', "another database's key");
    assert.equal((await signIn('careful@example.com', PASSWORD)).status, 200);
  });

  test('the per-account limit: 10 wrong passwords from one IP, then 429 there even with the right one (shared with sign-in); another IP deletes', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'guessed@example.com');
    const [thief, owner] = [freshIp(), freshIp()];
    for (let i = 0; i < 10; i += 1)
      assertError(await deleteMe(u.session.token, { password: `guess ${i}` }, thief), 400, 'invalid_current_password', `guess ${i + 1}`);
    for (const r of [await deleteMe(u.session.token, { password: PASSWORD }, thief), await signIn('guessed@example.com', PASSWORD, thief)]) {
      assertError(r, 429, 'rate_limited');
      const retryAfter = (r.json as { retryAfter: number }).retryAfter;
      assert.ok(retryAfter > 0 && retryAfter <= 15 * 60, String(retryAfter));
      assert.equal(r.headers.get('retry-after'), String(retryAfter));
    }
    assert.equal((await auth.me(t.server, t.db.publicKey, u.session.token)).status, 200, 'the limit deleted nothing');
    assert.equal((await deleteMe(u.session.token, { password: PASSWORD }, owner)).status, 204, 'another IP is not affected');
  });

  test("the user's realtime sockets close with 4401 and their tokens open no new socket", async () => {
    const u = await newUser(t.server, t.db.publicKey, 'watching@example.com');
    const second = (await signIn('watching@example.com', PASSWORD)).json as SignedIn;
    const urls = [];
    for (const token of [u.session.token, second.session.token]) {
      urls.push((await pub.post<{ url: string }>('/realtime/token', { collections: ['notes'] }, 201, withSession(token))).url);
    }
    const sockets = await Promise.all(urls.map((url) => openWs(url)));
    const bystander = await newUser(t.server, t.db.publicKey, 'bystander@example.com');
    const { url: bystanderUrl } = await pub.post<{ url: string }>('/realtime/token', { collections: ['notes'] }, 201, withSession(bystander.session.token));
    const staying = await openWs(bystanderUrl);

    assert.equal((await deleteMe(u.session.token, { password: PASSWORD })).status, 204);
    for (const socket of sockets) assert.equal((await socket.closed).code, 4401);
    for (const url of urls) await assert.rejects(openWs(url), (e: { statusCode?: number }) => e.statusCode === 401);
    staying.ws.send(JSON.stringify({ type: 'ping' }));
    await staying.waitFor((m) => m.type === 'pong');
    assert.equal(staying.ws.readyState, staying.ws.OPEN, "another user's socket stays open");
    await staying.close();
  });

  test('a password-less account (OAuth) deletes with no password; its identity goes, and the next sign-in makes a new account', async () => {
    google.state.user = { sub: 'g-leaver', email: 'oauth-leaver@example.com', email_verified: true };
    const signInWithGoogle = async () => {
      const browser = oauthBrowser(t.server, t.server.url);
      let hop = await browser.hop(`${t.server.base}/auth/oauth/google?${new URLSearchParams({ key: t.db.publicKey, redirectUrl: REDIRECT })}`);
      for (let i = 0; i < 2; i += 1) hop = await browser.hop(hop.location!);
      const token = new URL(hop.location!).searchParams.get('token');
      assert.ok(token, hop.location!);
      return { token, user: (await pub.get<{ user: SignedIn['user'] }>('/auth/me', 200, withSession(token))).user };
    };
    const first = await signInWithGoogle();
    assert.equal(await rows('user_identities', first.user.id), 1);
    const r = await deleteMe(first.token);
    assert.equal(r.status, 204, r.text);
    assert.equal(await rows('user_identities', first.user.id), 0, 'the identity went with the account');
    assertError(await auth.me(t.server, t.db.publicKey, first.token), 401, 'invalid_session');
    const next = await signInWithGoogle();
    assert.notEqual(next.user.id, first.user.id, 'a new account');
    assert.equal((await deleteMe(next.token, { password: 'ignored without a password' })).status, 204, 'a password sent anyway is ignored');
  });
});

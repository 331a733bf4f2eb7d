import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { auth, newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { ManualClock } from '../../src/infra/clock.ts';

const HOUR = 3_600_000;
const REDIRECT = 'http://localhost:5173/verified';
const PASSWORD = 'correct horse battery';
type User = SignedIn['user'];

/**
 * API.md §2.1 e-mail verification over a real SMTP server and real HTTP: `POST /auth/verify-email`
 * (with a session, or session-less with an e-mail and enumeration-safe) and
 * `POST /auth/verify-email/confirm`.
 */
forEachStore('auth: e-mail verification links', (kind) => {
  let sink: SmtpSink;
  const clock = new ManualClock(Date.parse('2026-05-01T08:00:00.000Z'));
  before(async () => {
    sink = await startSmtpSink();
  });
  const t = useServer(kind, () => ({ clock, databaseName: 'Verify App', env: { SMTP_URL: sink.url, EMAIL_FROM: 'Verify App <auth@svc.test>' } }));
  after(() => sink.close());
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );

  /** POST /auth/verify-email with a session token (or none) and a body. */
  const ask = (body: Record<string, unknown>, token?: string, key = t.db.publicKey) =>
    pub.request('POST', '/auth/verify-email', { key, body, headers: token === undefined ? {} : { 'x-session-token': token } });
  /** POST /auth/verify-email/confirm; with the accounts' password unless told otherwise (undefined: none sent). */
  const confirm = (email: string, token: string, key = t.db.publicKey, password: string | undefined = PASSWORD) =>
    pub.request('POST', '/auth/verify-email/confirm', { key, body: { email, token, ...(password === undefined ? {} : { password }) } });
  /** The token of the next verification mail to `email`. */
  const tokenMailedTo = async (email: string) => linkIn(await sink.next(email)).searchParams.get('token')!;
  /**
   * Asserts that nothing was mailed to `email` after asking for it: a mail asked for afterwards
   * (to a sentinel account) arrives first, and the background work runs in the order it was asked.
   */
  const assertNothingMailedTo = async (email: string) => {
    const sentinel = `sentinel-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await newUser(t.server, t.db.publicKey, sentinel);
    await pub.post('/auth/verify-email', { email: sentinel, redirectUrl: REDIRECT }, 202);
    await sink.next(sentinel);
    assert.equal(sink.count(email), 0, `no mail to ${email}`);
    const tokens = await t.server.db.store.all('SELECT token_hash FROM auth_tokens WHERE email = ?', [email]);
    assert.equal(tokens.length, 0, `no link token for ${email}`);
  };

  test('with a session: 202 {}, a mail that says what it is for, a hashed 24-hour link; confirm sets emailVerified and keeps password and sessions', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'Signed.In@Example.com');
    assert.equal(u.user.emailVerified, false);
    const r = await ask({ redirectUrl: REDIRECT }, u.session.token);
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.json, {});
    const mail = await sink.next('signed.in@example.com');
    assert.match(mail.subject ?? '', /Confirm your e-mail address for Verify App/);
    assert.match(mail.text ?? '', /Confirm that signed\.in@example\.com is the e-mail address of your Verify App account/);
    assert.match(mail.text ?? '', /expires in 24 hours/);
    assert.equal(mail.from?.value[0].address, 'auth@svc.test');
    const link = linkIn(mail);
    assert.equal(`${link.origin}${link.pathname}`, REDIRECT);
    assert.equal(link.searchParams.get('email'), 'signed.in@example.com');
    const token = link.searchParams.get('token')!;
    assert.ok(Buffer.from(token, 'base64url').length >= 32, 'at least 32 random bytes');
    assert.ok(typeof mail.html === 'string' && mail.html.includes(token), 'an HTML body with the same link');
    const rows = await t.server.db.store.all<{ token_hash: string; purpose: string }>('SELECT token_hash, purpose FROM auth_tokens WHERE email = ?', [
      'signed.in@example.com',
    ]);
    assert.deepEqual(
      rows.map((row) => row.purpose),
      ['verify'],
    );
    assert.notEqual(rows[0].token_hash, token, 'only the hash is stored');

    const ok = await confirm('SIGNED.IN@example.com', token);
    assert.equal(ok.status, 200, ok.text);
    const { user } = ok.json as { user: User };
    assert.equal(user.id, u.user.id);
    assert.equal(user.emailVerified, true);
    assert.ok(!('session' in (ok.json as object)), 'no session in the answer');
    const me = await pub.get<{ user: User }>('/auth/me', 200, withSession(u.session.token));
    assert.equal(me.user.emailVerified, true, 'the session is unchanged and sees the verified e-mail');
    assert.equal((await auth.signIn(t.server, t.db.publicKey, 'signed.in@example.com', PASSWORD)).status, 200, 'unlike a magic link, the password stays');
  });

  test("a password account confirms only with its password: a stranger's pre-registration is not verified by the owner's click", async () => {
    // A stranger registers someone else's address with a password of their choosing and asks for the link.
    const stranger = await newUser(t.server, t.db.publicKey, 'owner@example.com', 'the stranger password');
    await pub.post('/auth/verify-email', { redirectUrl: REDIRECT }, 202, withSession(stranger.session.token));
    const token = await tokenMailedTo('owner@example.com');
    // The owner follows the link: the app confirms without the password, which the owner does not know.
    assertError(await confirm('owner@example.com', token, t.db.publicKey, undefined), 400, 'invalid_current_password', 'no password');
    assertError(await confirm('owner@example.com', token, t.db.publicKey, PASSWORD), 400, 'invalid_current_password', 'a wrong password');
    const row = await t.server.db.store.get<{ email_verified: number | boolean }>('SELECT email_verified FROM users WHERE id = ?', [stranger.user.id]);
    assert.equal(Number(row?.email_verified), 0, 'nothing verified');
    const me = await pub.get<{ user: User }>('/auth/me', 200, withSession(stranger.session.token));
    assert.equal(me.user.emailVerified, false);
    // The token stays usable until it expires: whoever chose the password confirms with it.
    const ok = await confirm('owner@example.com', token, t.db.publicKey, 'the stranger password');
    assert.equal(ok.status, 200, ok.text);
    assert.equal((ok.json as { user: User }).user.emailVerified, true);
  });

  test('a password-less account (magic link) confirms without a password', async () => {
    await pub.post('/auth/magic-link', { email: 'nopass@example.com', redirectUrl: REDIRECT }, 202);
    const magic = linkIn(await sink.next('nopass@example.com')).searchParams.get('token')!;
    const signedIn = await pub.post<SignedIn>('/auth/magic-link/verify', { email: 'nopass@example.com', token: magic }, 200);
    // A magic link verifies the address by itself; mark it unverified again to ask for a verification link.
    await t.server.db.store.run('UPDATE users SET email_verified = 0 WHERE id = ?', [signedIn.user.id]);
    await pub.post('/auth/verify-email', { redirectUrl: REDIRECT }, 202, withSession(signedIn.session.token));
    const token = await tokenMailedTo('nopass@example.com');
    const ok = await confirm('nopass@example.com', token, t.db.publicKey, undefined);
    assert.equal(ok.status, 200, ok.text);
    assert.equal((ok.json as { user: User }).user.emailVerified, true);
  });

  test('a verification token works once', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'twice@example.com');
    await pub.post('/auth/verify-email', { redirectUrl: REDIRECT }, 202, withSession(u.session.token));
    const token = await tokenMailedTo('twice@example.com');
    assert.equal((await confirm('twice@example.com', token)).status, 200);
    assertError(await confirm('twice@example.com', token), 401, 'invalid_token', 'the second use');
  });

  test('a verification link of one database is refused on another, and still works on its own', async () => {
    const other = await t.server.createDatabase('Other App');
    const here = await newUser(t.server, t.db.publicKey, 'two-dbs@example.com');
    const there = await newUser(t.server, other.publicKey, 'two-dbs@example.com');
    await pub.post('/auth/verify-email', { redirectUrl: REDIRECT }, 202, withSession(here.session.token));
    const token = await tokenMailedTo('two-dbs@example.com');
    assertError(await confirm('two-dbs@example.com', token, other.publicKey), 401, 'invalid_token', "the other database's key");
    const thereNow = await apiClient(t.server, other.publicKey).get<{ user: User }>('/auth/me', 200, withSession(there.session.token));
    assert.equal(thereNow.user.emailVerified, false, "the other database's account is untouched");
    assert.equal(((await confirm('two-dbs@example.com', token)).json as { user: User }).user.emailVerified, true, 'its own database takes it');
  });

  test('a token is bound to its e-mail and its purpose: another e-mail, a made-up token or a magic-link token is refused', async () => {
    await newUser(t.server, t.db.publicKey, 'bound@example.com');
    await pub.post('/auth/verify-email', { email: 'bound@example.com', redirectUrl: REDIRECT }, 202);
    const token = await tokenMailedTo('bound@example.com');
    assertError(await confirm('someone-else@example.com', token), 401, 'invalid_token', 'another e-mail');
    assertError(await confirm('bound@example.com', 'made-up-token'), 401, 'invalid_token', 'a made-up token');
    await pub.post('/auth/magic-link', { email: 'bound@example.com', redirectUrl: REDIRECT }, 202);
    const magic = linkIn(await sink.next('bound@example.com')).searchParams.get('token')!;
    assertError(await confirm('bound@example.com', magic), 401, 'invalid_token', 'a magic-link token');
    assert.equal((await confirm('bound@example.com', token)).status, 200, 'the right one still works');
  });

  test('a verification link works for 24 hours', async () => {
    await newUser(t.server, t.db.publicKey, 'slow@example.com');
    await newUser(t.server, t.db.publicKey, 'slower@example.com');
    await pub.post('/auth/verify-email', { email: 'slow@example.com', redirectUrl: REDIRECT }, 202);
    await pub.post('/auth/verify-email', { email: 'slower@example.com', redirectUrl: REDIRECT }, 202);
    const [slow, slower] = [await tokenMailedTo('slow@example.com'), await tokenMailedTo('slower@example.com')];
    clock.advance(24 * HOUR - 60_000);
    assert.equal((await confirm('slow@example.com', slow)).status, 200, 'a minute before the 24 hours end');
    clock.advance(2 * 60_000);
    assertError(await confirm('slower@example.com', slower), 401, 'invalid_token', 'after 24 hours');
  });

  test('without a session: 202 {} for every e-mail, but a mail only to an existing, unverified account', async () => {
    await newUser(t.server, t.db.publicKey, 'unverified@example.com');
    const verified = await newUser(t.server, t.db.publicKey, 'verified@example.com');
    await t.server.db.store.run('UPDATE users SET email_verified = 1 WHERE id = ?', [verified.user.id]);
    const answers = [];
    for (const email of ['nobody@example.com', 'Verified@Example.com', ' Unverified@example.com ']) {
      const r = await ask({ email, redirectUrl: REDIRECT });
      answers.push({ status: r.status, text: r.text, type: r.headers.get('content-type') });
    }
    assert.deepEqual(answers[0], { status: 202, text: '{}', type: answers[0].type });
    assert.deepEqual(answers[1], answers[0], 'a verified account answers the same as an unknown e-mail');
    assert.deepEqual(answers[2], answers[0], 'and an unverified one too');
    const token = await tokenMailedTo('unverified@example.com');
    assert.equal((await confirm('unverified@example.com', token)).status, 200);
    await assertNothingMailedTo('nobody@example.com');
    await assertNothingMailedTo('verified@example.com');
  });

  test('with a session of a verified account nothing is mailed; a session wins over an e-mail in the body', async () => {
    const done = await newUser(t.server, t.db.publicKey, 'already@example.com');
    await t.server.db.store.run('UPDATE users SET email_verified = 1 WHERE id = ?', [done.user.id]);
    assert.equal((await ask({ redirectUrl: REDIRECT }, done.session.token)).status, 202);
    await assertNothingMailedTo('already@example.com');
    await newUser(t.server, t.db.publicKey, 'bystander@example.com');
    const asker = await newUser(t.server, t.db.publicKey, 'asker@example.com');
    assert.equal((await ask({ email: 'bystander@example.com', redirectUrl: REDIRECT }, asker.session.token)).status, 202);
    assert.ok(await sink.next('asker@example.com'), "the session's own address gets the link");
    await assertNothingMailedTo('bystander@example.com');
  });

  test('errors: a bad session 401, no session and no e-mail 400, a disallowed or missing redirect URL 400 before anything is mailed', async () => {
    assertError(await ask({ redirectUrl: REDIRECT }, 'not-a-session'), 401, 'invalid_session');
    assertError(await ask({ redirectUrl: REDIRECT }), 400, 'validation_failed', 'neither session nor e-mail');
    assertError(await ask({ email: 'not an address', redirectUrl: REDIRECT }), 400, 'validation_failed');
    await newUser(t.server, t.db.publicKey, 'redirects@example.com');
    assertError(await ask({ email: 'redirects@example.com', redirectUrl: 'https://evil.example.com/x' }), 400, 'redirect_url_not_allowed');
    assertError(await ask({ email: 'redirects@example.com' }), 400, 'redirect_url_not_allowed', 'no redirectUrl and no siteUrl');
    await assertNothingMailedTo('redirects@example.com');
    assertError(await confirm('redirects@example.com', ''), 401, 'invalid_token');
    assert.equal(errorCode(await pub.request('POST', '/auth/verify-email/confirm', { body: { email: 'redirects@example.com' } })), 'validation_failed');

    const app = await t.server.createDatabase('Site App');
    await op.patch(`/admin/databases/${app.databaseId}`, {
      settings: { redirectUrls: ['https://app.example.com/auth'], siteUrl: 'https://app.example.com/welcome' },
    });
    await newUser(t.server, app.publicKey, 'site@example.com');
    assert.equal((await ask({ email: 'site@example.com' }, undefined, app.publicKey)).status, 202);
    const link = linkIn(await sink.next('site@example.com'));
    assert.equal(`${link.origin}${link.pathname}`, 'https://app.example.com/welcome', 'the siteUrl setting when no redirectUrl is given');
    assertError(await ask({ email: 'site@example.com', redirectUrl: REDIRECT }, undefined, app.publicKey), 400, 'redirect_url_not_allowed');
    assert.equal((await ask({ email: 'site@example.com', redirectUrl: 'https://app.example.com/auth/verified' }, undefined, app.publicKey)).status, 202);
    assert.equal(new URL(linkIn(await sink.next('site@example.com'))).pathname, '/auth/verified');
  });

  test('limited per e-mail like the other links (5 per 15 minutes): past it, still 202 {}, but no mail', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'flood@example.com');
    for (let i = 0; i < 3; i += 1) assert.equal((await ask({ email: 'flood@example.com', redirectUrl: REDIRECT })).status, 202);
    for (let i = 0; i < 2; i += 1) assert.equal((await ask({ redirectUrl: REDIRECT }, u.session.token)).status, 202);
    const over = await ask({ email: 'FLOOD@example.com', redirectUrl: REDIRECT });
    assert.equal(over.status, 202);
    assert.deepEqual(over.json, {});
    await eventually(() => assert.equal(sink.count('flood@example.com'), 5), { what: 'the 5 mails within the limit' });
    const sentinel = 'flood-sentinel@example.com';
    await newUser(t.server, t.db.publicKey, sentinel);
    await ask({ email: sentinel, redirectUrl: REDIRECT });
    await sink.next(sentinel);
    assert.equal(sink.count('flood@example.com'), 5, 'the sixth request mailed nothing');
  });
});

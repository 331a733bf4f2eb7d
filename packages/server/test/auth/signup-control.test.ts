import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer, type TestDatabase } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { auth, newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { startFakeGoogle } from '../helpers/oauth-providers.ts';
import { oauthBrowser } from '../helpers/oauth-browser.ts';

const REDIRECT = 'http://localhost:5173/auth/callback';
const PASSWORD = 'correct horse battery';
const GOOGLE = { clientId: 'google-client-id', clientSecret: 'google-client-secret' };
type User = SignedIn['user'];

/**
 * API.md §2.1 database settings `auth: { allowSignUp, requireEmailVerification }`: sign-up turned
 * off on every path that could create an account (sign-up, magic link, OAuth), and sign-up that
 * requires a verified e-mail. Real HTTP, a real SMTP sink and a real OAuth server (oauth2-mock-server).
 */
forEachStore('auth: sign-up control (settings.auth)', (kind) => {
  let sink: SmtpSink;
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  before(async () => {
    sink = await startSmtpSink();
    google = await startFakeGoogle();
  });
  const t = useServer(kind, () => ({ databaseName: 'Closed App', env: { SMTP_URL: sink.url, ...google.env } }));
  after(async () => {
    await sink.close();
    await google.close();
  });
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  type Settings = { auth: { allowSignUp: boolean; requireEmailVerification: boolean }; redirectUrls: string[] };
  const patchSettings = async (db: TestDatabase, settings: Record<string, unknown>) =>
    (await op.patch<{ database: { settings: Settings } }>(`/admin/databases/${db.databaseId}`, { settings })).database.settings;
  /** A new database with these auth settings and Google configured. */
  const databaseWith = async (authSettings: Record<string, boolean>) => {
    const db = await t.server.createDatabase();
    await patchSettings(db, { auth: authSettings, oauth: { google: GOOGLE } });
    return db;
  };
  const accounts = async (db: TestDatabase, email: string) =>
    (await t.server.db.store.all('SELECT id FROM users WHERE database_id = ? AND email = ?', [db.databaseId, email])).length;
  /** Asserts that nothing went to `email`: a mail asked for afterwards to `sentinel` (an existing account of `db`) arrives first. */
  const assertNothingMailedTo = async (db: TestDatabase, email: string, sentinel: string) => {
    await apiClient(t.server, db.publicKey).post('/auth/forgot-password', { email: sentinel, redirectUrl: REDIRECT }, 202);
    await sink.next(sentinel);
    assert.equal(sink.count(email), 0, `no mail to ${email}`);
  };
  /** A whole Google sign-in in a fresh browser; the `?token=` or `?error=` it ends with. */
  const googleSignIn = async (db: TestDatabase) => {
    const browser = oauthBrowser(t.server, t.server.url);
    let hop = await browser.hop(`${t.server.base}/auth/oauth/google?${new URLSearchParams({ key: db.publicKey, redirectUrl: REDIRECT })}`);
    assert.equal(hop.status, 302, hop.text);
    for (let i = 0; i < 2; i += 1) hop = await browser.hop(hop.location!);
    assert.equal(hop.status, 302, hop.text);
    const final = new URL(hop.location!);
    assert.equal(`${final.origin}${final.pathname}`, REDIRECT);
    return { token: final.searchParams.get('token'), error: final.searchParams.get('error') };
  };

  test('settings.auth: defaults shown, merged by PATCH, validated', async () => {
    const db = await t.server.createDatabase();
    const shown = await op.get<{ database: { settings: Settings } }>(`/admin/databases/${db.databaseId}`);
    assert.deepEqual(shown.database.settings.auth, { allowSignUp: true, requireEmailVerification: false });
    assert.deepEqual((await patchSettings(db, { auth: { allowSignUp: false } })).auth, { allowSignUp: false, requireEmailVerification: false });
    const both = await patchSettings(db, { auth: { requireEmailVerification: true }, redirectUrls: ['https://app.example.com/'] });
    assert.deepEqual(both.auth, { allowSignUp: false, requireEmailVerification: true }, 'a merge patch keeps the other field');
    assert.deepEqual(both.redirectUrls, ['https://app.example.com/']);
    for (const bad of [{ allowSignUp: 'no' }, { requireEmailVerification: 1 }, { allowSignUps: false }, 'off']) {
      const r = await op.request('PATCH', `/admin/databases/${db.databaseId}`, { body: { settings: { auth: bad } } });
      assertError(r, 400, 'validation_failed', JSON.stringify(bad));
    }
    assert.deepEqual((await patchSettings(db, { auth: null })).auth, { allowSignUp: true, requireEmailVerification: false }, 'null: the defaults again');
  });

  test('allowSignUp false: sign-up → 403 signup_disabled (also for a taken e-mail), nothing made; existing accounts sign in', async () => {
    const db = await t.server.createDatabase();
    await newUser(t.server, db.publicKey, 'member@example.com');
    await patchSettings(db, { auth: { allowSignUp: false } });
    const pub = apiClient(t.server, db.publicKey);
    assertError(await pub.request('POST', '/auth/sign-up', { body: { email: 'new@example.com', password: PASSWORD } }), 403, 'signup_disabled');
    assert.equal(await accounts(db, 'new@example.com'), 0);
    assertError(
      await pub.request('POST', '/auth/sign-up', { body: { email: 'member@example.com', password: PASSWORD } }),
      403,
      'signup_disabled',
      'a taken e-mail answers the same (no 409)',
    );
    assertError(
      await apiClient(t.server, db.secretKey).request('POST', '/auth/sign-up', { body: { email: 'n2@example.com', password: PASSWORD } }),
      403,
      'signup_disabled',
      'the secret key too',
    );
    assert.equal((await auth.signIn(t.server, db.publicKey, 'member@example.com', PASSWORD)).status, 200);
    await patchSettings(db, { auth: { allowSignUp: true } });
    assert.equal((await pub.request('POST', '/auth/sign-up', { body: { email: 'new@example.com', password: PASSWORD } })).status, 201, 'on again');
  });

  test('allowSignUp false: a magic link for an unknown e-mail → 202 {}, no mail, no account; a member still gets one', async () => {
    const db = await databaseWith({ allowSignUp: false });
    const pub = apiClient(t.server, db.publicKey);
    const r = await pub.request('POST', '/auth/magic-link', { body: { email: 'stranger@example.com', redirectUrl: REDIRECT } });
    assert.equal(r.status, 202);
    assert.deepEqual(r.json, {});
    await patchSettings(db, { auth: { allowSignUp: true } });
    await newUser(t.server, db.publicKey, 'member2@example.com');
    await patchSettings(db, { auth: { allowSignUp: false } });
    await assertNothingMailedTo(db, 'stranger@example.com', 'member2@example.com');
    assert.equal(await accounts(db, 'stranger@example.com'), 0);

    await pub.post('/auth/magic-link', { email: 'member2@example.com', redirectUrl: REDIRECT }, 202);
    const token = linkIn(await sink.next('member2@example.com')).searchParams.get('token')!;
    const signedIn = await pub.post<SignedIn>('/auth/magic-link/verify', { email: 'member2@example.com', token }, 200);
    assert.equal(signedIn.user.email, 'member2@example.com');
  });

  test('allowSignUp false: a magic link mailed before sign-up was turned off creates no account either', async () => {
    const db = await databaseWith({ allowSignUp: true });
    const pub = apiClient(t.server, db.publicKey);
    await pub.post('/auth/magic-link', { email: 'early@example.com', redirectUrl: REDIRECT }, 202);
    const token = linkIn(await sink.next('early@example.com')).searchParams.get('token')!;
    await patchSettings(db, { auth: { allowSignUp: false } });
    assertError(await pub.request('POST', '/auth/magic-link/verify', { body: { email: 'early@example.com', token } }), 403, 'signup_disabled');
    assert.equal(await accounts(db, 'early@example.com'), 0);
  });

  test('allowSignUp false: OAuth for an e-mail with no account → redirectUrl?error=signup_disabled, no account; an existing account signs in', async () => {
    const db = await databaseWith({ allowSignUp: false });
    google.state.user = { sub: 'g-closed-1', email: 'outsider@example.com', email_verified: true };
    assert.deepEqual(await googleSignIn(db), { token: null, error: 'signup_disabled' });
    assert.equal(await accounts(db, 'outsider@example.com'), 0);
    google.state.user = { sub: 'g-closed-2', email: 'unverified-outsider@example.com', email_verified: false };
    assert.deepEqual(await googleSignIn(db), { token: null, error: 'signup_disabled' }, 'an unverified provider e-mail neither');
    assert.equal(await accounts(db, 'unverified-outsider@example.com'), 0);

    await patchSettings(db, { auth: { allowSignUp: true } });
    await newUser(t.server, db.publicKey, 'insider@example.com');
    await patchSettings(db, { auth: { allowSignUp: false } });
    google.state.user = { sub: 'g-closed-3', email: 'insider@example.com', email_verified: true };
    const inside = await googleSignIn(db);
    assert.ok(inside.token, `signed in: ${inside.error}`);
    const me = await apiClient(t.server, db.publicKey).get<{ user: User }>('/auth/me', 200, withSession(inside.token!));
    assert.equal(me.user.email, 'insider@example.com');
    assert.equal((await googleSignIn(db)).error, null, 'and again through the identity now linked');
  });

  test('requireEmailVerification: sign-up answers 201 {user, session: null} and mails the link; password sign-in waits for it (403 email_not_verified)', async () => {
    const db = await databaseWith({ requireEmailVerification: true });
    const pub = apiClient(t.server, db.publicKey);
    const r = await pub.request('POST', '/auth/sign-up', { body: { email: 'Careful@Example.com', password: PASSWORD, name: 'C', redirectUrl: REDIRECT } });
    assert.equal(r.status, 201, r.text);
    const body = r.json as { user: User; session: null };
    assert.equal(body.session, null);
    assert.equal(body.user.email, 'careful@example.com');
    assert.equal(body.user.emailVerified, false);
    assert.equal((await t.server.db.store.all('SELECT token_hash FROM user_sessions WHERE user_id = ?', [body.user.id])).length, 0, 'no session made');

    const mail = await sink.next('careful@example.com');
    assert.match(mail.subject ?? '', /Confirm your e-mail address/);
    const link = linkIn(mail);
    assert.equal(`${link.origin}${link.pathname}`, REDIRECT);

    assertError(await auth.signIn(t.server, db.publicKey, 'careful@example.com', PASSWORD), 403, 'email_not_verified', 'the right password');
    assertError(
      await auth.signIn(t.server, db.publicKey, 'careful@example.com', 'a wrong password'),
      401,
      'invalid_credentials',
      'a wrong one tells nothing more',
    );
    assertError(await auth.signIn(t.server, db.publicKey, 'nobody@example.com', PASSWORD), 401, 'invalid_credentials');

    const confirmed = await pub.post<{ user: User }>(
      '/auth/verify-email/confirm',
      { email: 'careful@example.com', token: link.searchParams.get('token'), password: PASSWORD },
      200,
    );
    assert.equal(confirmed.user.emailVerified, true);
    const signedIn = (await auth.signIn(t.server, db.publicKey, 'careful@example.com', PASSWORD)).json as SignedIn;
    assert.equal(signedIn.user.emailVerified, true);
    assert.ok(signedIn.session.token);
  });

  test('requireEmailVerification: the link goes to siteUrl without a redirectUrl; with neither, 400 and no account', async () => {
    const db = await databaseWith({ requireEmailVerification: true });
    const pub = apiClient(t.server, db.publicKey);
    assertError(await pub.request('POST', '/auth/sign-up', { body: { email: 'nowhere@example.com', password: PASSWORD } }), 400, 'redirect_url_not_allowed');
    assertError(
      await pub.request('POST', '/auth/sign-up', { body: { email: 'nowhere@example.com', password: PASSWORD, redirectUrl: 'https://evil.example.com/' } }),
      400,
      'redirect_url_not_allowed',
    );
    assert.equal(await accounts(db, 'nowhere@example.com'), 0);
    await patchSettings(db, { siteUrl: 'http://localhost:3000/welcome' });
    const r = await pub.request('POST', '/auth/sign-up', { body: { email: 'site@example.com', password: PASSWORD } });
    assert.equal(r.status, 201, r.text);
    const link = linkIn(await sink.next('site@example.com'));
    assert.equal(`${link.origin}${link.pathname}`, 'http://localhost:3000/welcome');
  });

  test("requireEmailVerification: the sign-up's mail counts in the per-e-mail limit of verification links (5 per 15 minutes)", async () => {
    const db = await databaseWith({ requireEmailVerification: true });
    const pub = apiClient(t.server, db.publicKey);
    await pub.post('/auth/sign-up', { email: 'counted@example.com', password: PASSWORD, redirectUrl: REDIRECT }, 201);
    for (let i = 0; i < 5; i += 1) await pub.post('/auth/verify-email', { email: 'counted@example.com', redirectUrl: REDIRECT }, 202);
    await eventually(() => assert.equal(sink.count('counted@example.com'), 5), { what: 'the sign-up mail and 4 more' });
    await pub.post('/auth/sign-up', { email: 'counted-sentinel@example.com', password: PASSWORD, redirectUrl: REDIRECT }, 201);
    await sink.next('counted-sentinel@example.com');
    assert.equal(sink.count('counted@example.com'), 5, 'the sign-up mail and 4 more; the fifth request sent nothing');
  });

  test('requireEmailVerification: a right password of an unverified account is no failed attempt; accounts verified another way sign in', async () => {
    const db = await t.server.createDatabase();
    const before = await newUser(t.server, db.publicKey, 'before@example.com');
    const magicUser = await newUser(t.server, db.publicKey, 'magic@example.com');
    await patchSettings(db, { auth: { requireEmailVerification: true } });
    for (let i = 0; i < 12; i += 1) {
      assertError(await auth.signIn(t.server, db.publicKey, 'before@example.com', PASSWORD), 403, 'email_not_verified', `attempt ${i + 1} (never 429)`);
    }
    assert.equal(
      (await apiClient(t.server, db.publicKey).get<{ user: User }>('/auth/me', 200, withSession(before.session.token))).user.id,
      before.user.id,
      'sessions made before the setting keep working',
    );
    const pub = apiClient(t.server, db.publicKey);
    await pub.post('/auth/verify-email', { redirectUrl: REDIRECT }, 202, withSession(before.session.token));
    const token = linkIn(await sink.next('before@example.com')).searchParams.get('token')!;
    await pub.post('/auth/verify-email/confirm', { email: 'before@example.com', token, password: PASSWORD }, 200);
    assert.equal((await auth.signIn(t.server, db.publicKey, 'before@example.com', PASSWORD)).status, 200);

    await pub.post('/auth/magic-link', { email: magicUser.user.email, redirectUrl: REDIRECT }, 202);
    const magic = linkIn(await sink.next(magicUser.user.email)).searchParams.get('token')!;
    const viaMagic = await pub.post<SignedIn>('/auth/magic-link/verify', { email: magicUser.user.email, token: magic }, 200);
    assert.equal(viaMagic.user.emailVerified, true, 'a magic link proves the e-mail and signs in');
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { auth, newUser, type SignedIn } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { ManualClock } from '../../src/infra/clock.ts';

const MINUTE = 60_000;
const REDIRECT = 'http://localhost:5173/auth/callback';

forEachStore('auth: reset and magic links over SMTP', (kind) => {
  let sink: SmtpSink;
  const logs: string[] = [];
  const clock = new ManualClock(Date.parse('2026-03-01T08:00:00.000Z'));
  before(async () => {
    sink = await startSmtpSink();
  });
  const t = useServer(kind, () => ({
    clock,
    databaseName: 'Mail App',
    env: { SMTP_URL: sink.url, EMAIL_FROM: 'Mail App <auth@svc.test>', LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void logs.push(line) },
  }));
  after(() => sink.close());
  /** The public key, or another key given per request. */
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );

  /** `redirectUrl` null: none in the body. */
  const forgot = (email: string, redirectUrl: string | null = REDIRECT, key = t.db.publicKey) =>
    pub.request('POST', '/auth/forgot-password', { key, body: redirectUrl === null ? { email } : { email, redirectUrl } });
  const magic = (email: string, redirectUrl: string = REDIRECT, key = t.db.publicKey) =>
    pub.request('POST', '/auth/magic-link', { key, body: { email, redirectUrl } });
  const reset = (email: string, token: string, newPassword: string) => pub.request('POST', '/auth/reset-password', { body: { email, token, newPassword } });
  const verify = (email: string, token: string, key = t.db.publicKey) => pub.request('POST', '/auth/magic-link/verify', { key, body: { email, token } });

  test('forgot-password mails a reset link; reset-password sets the password, is single use and ends every session', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'reset@example.com');
    const r = await forgot(' Reset@Example.com ');
    assert.equal(r.status, 202);
    assert.deepEqual(r.json, {});
    const mail = await sink.next('reset@example.com');
    assert.match(mail.subject ?? '', /Mail App/);
    assert.equal(mail.from?.value[0].address, 'auth@svc.test');
    const link = linkIn(mail);
    assert.equal(`${link.origin}${link.pathname}`, REDIRECT);
    assert.equal(link.searchParams.get('email'), 'reset@example.com');
    const token = link.searchParams.get('token')!;
    assert.ok(Buffer.from(token, 'base64url').length >= 32);
    assert.ok(typeof mail.html === 'string' && mail.html.includes(token), 'an HTML body with the same link');
    const rows = await t.server.db.store.all<{ token_hash: string }>('SELECT token_hash FROM auth_tokens');
    assert.ok(
      rows.every((row) => row.token_hash !== token),
      'only the hash is stored',
    );

    const weak = await reset('reset@example.com', token, 'short');
    assert.equal(errorCode(weak), 'weak_password');
    const wrongEmail = await reset('other@example.com', token, 'brand new password');
    assertError(wrongEmail, 401, 'invalid_token');
    const ok = await reset('RESET@example.com', token, 'brand new password');
    assert.equal(ok.status, 204, ok.text);
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, u.session.token)), 'invalid_session', 'reset ends every session');
    assert.equal(errorCode(await auth.signIn(t.server, t.db.secretKey, 'reset@example.com', 'correct horse battery')), 'invalid_credentials');
    const signedIn = await auth.signIn(t.server, t.db.secretKey, 'reset@example.com', 'brand new password');
    assert.equal(signedIn.status, 200);
    assert.equal((signedIn.json as SignedIn).user.emailVerified, true, 'using the link proved the e-mail');
    const again = await reset('reset@example.com', token, 'yet another password');
    assert.equal(errorCode(again), 'invalid_token', 'single use');
    assert.equal(errorCode(await reset('reset@example.com', 'made-up-token', 'yet another password')), 'invalid_token');
  });

  test('forgot-password answers the same for an unknown e-mail, and mails nothing', async () => {
    await newUser(t.server, t.db.secretKey, 'known@example.com');
    const unknown = await forgot('unknown@example.com');
    const known = await forgot('known@example.com');
    assert.equal(unknown.status, 202);
    assert.equal(known.status, 202);
    assert.equal(unknown.text, known.text);
    assert.equal(unknown.headers.get('content-type'), known.headers.get('content-type'));
    await sink.next('known@example.com');
    await sleep(300);
    assert.equal(sink.count('unknown@example.com'), 0);
  });

  test('a reset link works for 1 hour', async () => {
    await newUser(t.server, t.db.secretKey, 'late@example.com');
    await forgot('late@example.com');
    const first = linkIn(await sink.next('late@example.com')).searchParams.get('token')!;
    await forgot('late@example.com');
    const second = linkIn(await sink.next('late@example.com')).searchParams.get('token')!;
    clock.advance(59 * MINUTE);
    assert.equal((await reset('late@example.com', first, 'within the hour')).status, 204, 'a newer link does not void an older one');
    clock.advance(2 * MINUTE);
    assert.equal(errorCode(await reset('late@example.com', second, 'after the hour')), 'invalid_token');
  });

  test('magic-link mails a 15-minute, single-use link; verify creates a verified, password-less account', async () => {
    const r = await magic('New.Person@Example.com');
    assert.equal(r.status, 202);
    assert.deepEqual(r.json, {});
    const mail = await sink.next('new.person@example.com');
    assert.match(mail.subject ?? '', /Mail App/);
    const link = linkIn(mail);
    assert.equal(link.searchParams.get('email'), 'new.person@example.com');
    const token = link.searchParams.get('token')!;
    const v = await verify('new.person@example.com', token);
    assert.equal(v.status, 200, v.text);
    const body = v.json as SignedIn;
    assert.equal(body.user.email, 'new.person@example.com');
    assert.equal(body.user.emailVerified, true);
    assert.equal((await auth.me(t.server, t.db.secretKey, body.session.token)).status, 200);
    assert.equal(errorCode(await verify('new.person@example.com', token)), 'invalid_token', 'single use');
    assert.equal(errorCode(await auth.signIn(t.server, t.db.secretKey, 'new.person@example.com', 'any password')), 'invalid_credentials', 'no password yet');

    await magic('new.person@example.com');
    const late = linkIn(await sink.next('new.person@example.com')).searchParams.get('token')!;
    clock.advance(15 * MINUTE + 1);
    assert.equal(errorCode(await verify('new.person@example.com', late)), 'invalid_token', 'expired after 15 minutes');
  });

  test('magic-link signs an existing account in and proves its e-mail; tokens do not cross e-mails or databases', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'existing@example.com');
    assert.equal(u.user.emailVerified, false);
    await magic('existing@example.com');
    const token = linkIn(await sink.next('existing@example.com')).searchParams.get('token')!;
    const other = await t.server.createDatabase('Other');
    assert.equal(errorCode(await verify('existing@example.com', token, other.publicKey)), 'invalid_token', 'another database');
    assert.equal(errorCode(await verify('someone@example.com', token)), 'invalid_token', 'another e-mail');
    const v = await verify('existing@example.com', token);
    assert.equal(v.status, 200);
    assert.equal((v.json as SignedIn).user.id, u.user.id);
    assert.equal((v.json as SignedIn).user.emailVerified, true);
    // A first proof of the e-mail: the unverified account's password and sessions go (email-proof.test.ts).
    assert.equal(errorCode(await auth.signIn(t.server, t.db.secretKey, 'existing@example.com', 'correct horse battery')), 'invalid_credentials');
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, u.session.token)), 'invalid_session');
  });

  test('redirect URLs: loopback only while the list is empty; then same origin and path prefix; else 400 first', async () => {
    const app = await t.server.createDatabase('Redirects');
    let n = 0;
    const fresh = () => `redir${(n += 1)}@example.com`;
    const bad = async (url: string | null, call: (e: string, u: string, k: string) => ReturnType<typeof forgot> = forgot) => {
      const r = await call(fresh(), url as string, app.publicKey);
      assertError(r, 400, 'redirect_url_not_allowed', String(url));
    };
    const good = async (url: string) => {
      const email = fresh();
      assert.equal((await magic(email, url, app.publicKey)).status, 202, url);
      return linkIn(await sink.next(email));
    };
    for (const url of ['http://localhost:3000/x', 'http://127.0.0.1/', 'https://[::1]:8443/cb']) {
      assert.equal((await good(url)).origin, new URL(url).origin);
    }
    await bad('https://evil.example.com/cb');
    await bad('https://evil.example.com/cb', magic);
    await bad('javascript:alert(1)');
    await bad('not a url');
    await bad(null); // no redirectUrl and no siteUrl

    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.patch(`/admin/databases/${app.databaseId}`, {
      settings: { redirectUrls: ['https://app.example.com/auth'], siteUrl: 'https://app.example.com/welcome' },
    });
    assert.equal((await good('https://app.example.com/auth')).pathname, '/auth');
    const withQuery = await good('https://app.example.com/auth/reset?x=1');
    assert.equal(withQuery.searchParams.get('x'), '1', 'the query of the redirect URL is kept');
    for (const url of [
      'https://app.example.com/other',
      'https://app.example.com/authx',
      'http://app.example.com/auth',
      'https://app.example.com.evil.com/auth',
      'https://app.example.com:444/auth',
      'http://localhost:3000/x',
      'https://user:pw@app.example.com/auth',
    ])
      await bad(url);
    await newUser(t.server, app.secretKey, 'site@example.com');
    assert.equal((await forgot('site@example.com', null, app.publicKey)).status, 202, 'siteUrl when no redirectUrl is given');
    const link = linkIn(await sink.next('site@example.com'));
    assert.equal(`${link.origin}${link.pathname}`, 'https://app.example.com/welcome');
    const missing = await pub.request('POST', '/auth/magic-link', { key: app.publicKey, body: { email: fresh() } });
    assert.equal(errorCode(missing), 'validation_failed', 'magic-link needs a redirectUrl');
  });

  test('forgot-password and magic-link are limited per e-mail (5 per 15 minutes), known or not: past it, still 202, but no mail', async () => {
    await newUser(t.server, t.db.secretKey, 'bomb@example.com');
    for (const call of [forgot, magic]) {
      for (let i = 0; i < 5; i += 1) assert.equal((await call('bomb@example.com')).status, 202);
      const over = await call('BOMB@example.com');
      assert.equal(over.status, 202, 'always 202 (API.md §2): the answer tells nothing');
      assert.deepEqual(over.json, {});
    }
    for (let i = 0; i < 6; i += 1) assert.equal((await forgot('nobody-here@example.com')).status, 202);
    await eventually(() => assert.ok(sink.count('bomb@example.com') >= 10, `${sink.count('bomb@example.com')} mails so far`), {
      timeoutMs: 5000,
      what: 'the 10 mails within the limit',
    });
    await sleep(500); // room for a mail that should not come
    assert.equal(sink.count('bomb@example.com'), 10, '5 reset mails and 5 magic links, nothing past the limit');
    assert.equal((await forgot('someone-else@example.com')).status, 202, 'other e-mails are not affected');
  });

  test('a failing SMTP server fails nothing but the log; the log never shows the token', async () => {
    await newUser(t.server, t.db.secretKey, 'refused@example.com');
    sink.refuse(true);
    try {
      const started = Date.now();
      const r = await magic('refused@example.com');
      assert.equal(r.status, 202);
      assert.ok(Date.now() - started < 1000);
      await eventually(
        () =>
          assert.ok(
            logs.some((l) => l.includes('magic-link e-mail failed')),
            'the failure is logged',
          ),
        { timeoutMs: 5000 },
      );
    } finally {
      sink.refuse(false);
    }
    await magic('refused@example.com');
    const token = linkIn(await sink.next('refused@example.com')).searchParams.get('token')!;
    assert.ok(!logs.some((l) => l.includes(token)), 'no token in the log');
  });
});

forEachStore('auth: without SMTP_URL the mail is logged', (kind) => {
  const logs: string[] = [];
  const t = useServer(kind, { databaseName: 'Dev App', env: { LOG_LEVEL: 'info' }, logStream: { write: (line: string) => void logs.push(line) } });
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );

  test('the link in the log signs the user in', async () => {
    await pub.post('/auth/magic-link', { email: 'dev@example.com', redirectUrl: REDIRECT }, 202);
    const line = await eventually(
      () => {
        const found = logs.find((l) => l.includes('dev%40example.com'));
        assert.ok(found, 'the mail was logged');
        return found;
      },
      { timeoutMs: 5000 },
    );
    const text = (JSON.parse(line) as { msg: string }).msg;
    assert.match(text, /Dev App/);
    const url = new URL(/http:\/\/localhost:5173\S+/.exec(text)![0]);
    await pub.post('/auth/magic-link/verify', { email: 'dev@example.com', token: url.searchParams.get('token') }, 200);
  });
});

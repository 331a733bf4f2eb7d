import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { auth, newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { startFakeGitHub, startFakeGoogle } from '../helpers/oauth-providers.ts';
import { oauthBrowser } from '../helpers/oauth-browser.ts';
import { openWs } from '../helpers/ws.ts';

const REDIRECT = 'http://localhost:5173/auth/callback';
const PASSWORD = 'correct horse battery';
const GITHUB_CLIENT = { id: 'gh-client-id', secret: 'gh-client-secret' };

/**
 * API.md §2: the first proof of an e-mail through another channel than the password (a magic
 * link, a reset link, a verified provider e-mail) locks out whoever registered the address before:
 * its password, sessions and unverified identities go. Real HTTP, a real SMTP sink, fake providers.
 */
forEachStore('auth: a first proof of the e-mail locks out whoever registered it before', (kind) => {
  let sink: SmtpSink;
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;
  before(async () => {
    sink = await startSmtpSink();
    google = await startFakeGoogle();
    github = await startFakeGitHub(GITHUB_CLIENT);
  });
  const t = useServer(kind, () => ({ databaseName: 'Proof App', env: { SMTP_URL: sink.url, ...google.env, ...github.env } }));
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  before(async () => {
    const oauth = {
      google: { clientId: 'google-client-id', clientSecret: 'google-client-secret' },
      github: { clientId: GITHUB_CLIENT.id, clientSecret: GITHUB_CLIENT.secret },
    };
    await apiClient(t.server, () => t.server.operatorToken()).patch(`/admin/databases/${t.db.databaseId}`, { settings: { oauth } });
  });
  after(async () => {
    await sink.close();
    await google.close();
    await github.close();
  });

  /** The victim asks for a magic link, reads the mail and uses it. */
  const magicLinkSignIn = async (email: string): Promise<SignedIn> => {
    await pub.post('/auth/magic-link', { email, redirectUrl: REDIRECT }, 202);
    const token = linkIn(await sink.next(email)).searchParams.get('token')!;
    return pub.post<SignedIn>('/auth/magic-link/verify', { email, token }, 200);
  };
  /** A whole OAuth sign-in in a fresh browser; returns the session token, or the `?error=` code. */
  const oauthSignIn = async (provider: 'google' | 'github'): Promise<{ token: string | null; error: string | null }> => {
    const browser = oauthBrowser(t.server, t.server.url);
    let hop = await browser.hop(`${t.server.base}/auth/oauth/${provider}?${new URLSearchParams({ key: t.db.publicKey, redirectUrl: REDIRECT })}`);
    for (let i = 0; i < 2; i += 1) hop = await browser.hop(hop.location!);
    assert.equal(hop.status, 302, hop.text);
    const final = new URL(hop.location!);
    return { token: final.searchParams.get('token'), error: final.searchParams.get('error') };
  };
  const identitiesOf = (userId: string) => t.server.db.store.all<{ provider: string }>('SELECT provider FROM user_identities WHERE user_id = ?', [userId]);

  test('magic link: the pre-registered password, session and realtime token stop working (401 invalid_credentials, 401 invalid_session)', async () => {
    const attacker = await newUser(t.server, t.db.publicKey, 'victim@example.com', 'attacker password 1');
    assert.equal((await auth.me(t.server, t.db.publicKey, attacker.session.token)).status, 200);
    const { url: socketUrl } = await pub.post<{ url: string }>('/realtime/token', { collections: ['notes'] }, 201, withSession(attacker.session.token));
    const socket = await openWs(socketUrl);

    const victim = await magicLinkSignIn('victim@example.com');
    assert.equal(victim.user.id, attacker.user.id, 'the same account, now proven');
    assert.equal(victim.user.emailVerified, true);

    const oldPassword = await auth.signIn(t.server, t.db.publicKey, 'victim@example.com', 'attacker password 1');
    assertError(oldPassword, 401, 'invalid_credentials');
    const oldSession = await auth.me(t.server, t.db.publicKey, attacker.session.token);
    assertError(oldSession, 401, 'invalid_session');
    assert.equal((await auth.me(t.server, t.db.publicKey, victim.session.token)).status, 200, "the owner's session works");
    assert.equal((await socket.closed).code, 4401, "the attacker's realtime socket closes with its session");
    await assert.rejects(openWs(socketUrl), (e: { statusCode?: number }) => e.statusCode === 401, 'and its realtime token opens no new socket');

    const again = await magicLinkSignIn('victim@example.com');
    assert.equal((await auth.me(t.server, t.db.publicKey, victim.session.token)).status, 200, 'a proven account keeps its sessions on the next magic link');
    assert.equal((await auth.me(t.server, t.db.publicKey, again.session.token)).status, 200);
  });

  test('magic link on an account that proved its e-mail before: the password and sessions stay', async () => {
    const owner = await newUser(t.server, t.db.publicKey, 'careful@example.com', PASSWORD);
    await t.server.db.store.run('UPDATE users SET email_verified = 1 WHERE id = ?', [owner.user.id]);
    await magicLinkSignIn('careful@example.com');
    assert.equal((await auth.signIn(t.server, t.db.publicKey, 'careful@example.com', PASSWORD)).status, 200);
    assert.equal((await auth.me(t.server, t.db.publicKey, owner.session.token)).status, 200);
  });

  test('magic link unlinks the identity an unverified provider e-mail made, and ends its sessions', async () => {
    google.state.user = { sub: 'g-squatter', email: 'owner@example.com', email_verified: false };
    const squatter = await oauthSignIn('google');
    assert.ok(squatter.token, String(squatter.error));
    const account = (await auth.me(t.server, t.db.publicKey, squatter.token)).json as { user: SignedIn['user'] };
    assert.equal(account.user.emailVerified, false);
    assert.deepEqual(await identitiesOf(account.user.id), [{ provider: 'google' }]);

    const owner = await magicLinkSignIn('owner@example.com');
    assert.equal(owner.user.id, account.user.id);
    assert.deepEqual(await identitiesOf(account.user.id), [], 'unlinked');
    assert.equal(errorCode(await auth.me(t.server, t.db.publicKey, squatter.token)), 'invalid_session');
    assert.equal((await oauthSignIn('google')).error, 'email_not_verified', 'the unverified provider e-mail no longer gets in');
    assert.equal((await auth.me(t.server, t.db.publicKey, owner.session.token)).status, 200);
  });

  test('a reset link is a proof too: the squatting identity goes, and only the new password works', async () => {
    github.state.user = { id: 7001, login: 'squat', emails: [{ email: 'reset-owner@example.com', primary: true, verified: false }] };
    const squatter = await oauthSignIn('github');
    assert.ok(squatter.token, String(squatter.error));
    const account = ((await auth.me(t.server, t.db.publicKey, squatter.token)).json as { user: SignedIn['user'] }).user;

    await pub.post('/auth/forgot-password', { email: 'reset-owner@example.com', redirectUrl: REDIRECT }, 202);
    const token = linkIn(await sink.next('reset-owner@example.com')).searchParams.get('token')!;
    await pub.post('/auth/reset-password', { email: 'reset-owner@example.com', token, newPassword: 'the owner password' }, 204);
    assert.deepEqual(await identitiesOf(account.id), []);
    assert.equal(errorCode(await auth.me(t.server, t.db.publicKey, squatter.token)), 'invalid_session');
    assert.equal((await oauthSignIn('github')).error, 'email_not_verified');
    const signedIn = await auth.signIn(t.server, t.db.publicKey, 'reset-owner@example.com', 'the owner password');
    assert.equal(signedIn.status, 200);
    assert.equal((signedIn.json as SignedIn).user.emailVerified, true);
  });

  test('a verified provider e-mail goes through the same proof: password, sessions and the unverified identity go', async () => {
    github.state.user = { id: 7002, login: 'squat2', emails: [{ email: 'both@example.com', primary: true, verified: false }] };
    const squatter = await oauthSignIn('github');
    assert.ok(squatter.token, String(squatter.error));
    const account = ((await auth.me(t.server, t.db.publicKey, squatter.token)).json as { user: SignedIn['user'] }).user;

    google.state.user = { sub: 'g-both-owner', email: 'both@example.com', email_verified: true };
    const owner = await oauthSignIn('google');
    assert.ok(owner.token, String(owner.error));
    assert.equal(((await auth.me(t.server, t.db.publicKey, owner.token)).json as { user: SignedIn['user'] }).user.id, account.id);
    assert.deepEqual(await identitiesOf(account.id), [{ provider: 'google' }], "only the owner's verified identity is linked");
    assert.equal(errorCode(await auth.me(t.server, t.db.publicKey, squatter.token)), 'invalid_session');
    assert.equal((await oauthSignIn('github')).error, 'email_not_verified');
  });
});

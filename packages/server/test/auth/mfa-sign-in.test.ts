import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { startFakeGoogle, startFakeOidc } from '../helpers/oauth-providers.ts';
import { oauthBrowser } from '../helpers/oauth-browser.ts';
import { addTotp } from '../helpers/mfa.ts';
import { ManualClock } from '../../src/infra/clock.ts';

const APP = 'http://localhost:5173/auth/callback';
const PASSWORD = 'correct horse battery';
const OIDC_CLIENT = { clientId: 'svcapp', clientSecret: 'oidcclientsecret0123456789' };

type FirstStep = { user: SignedIn['user'] | null; session: SignedIn['session'] | null; mfa?: { token: string; expiresAt: string } };

/**
 * API.md §2.2 two-step sign-in: every path that makes a session (password, magic link, OAuth and
 * OIDC callbacks) answers an mfaToken instead while the account has a verified factor; the
 * token's rules (single use, database, 5 minutes, 5 wrong codes, disabled user, lost factors),
 * the per-account limit on wrong codes, the support desk's reset and the takeover rules.
 */
forEachStore('auth: two-step sign-in', (kind) => {
  let sink: SmtpSink;
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  let idp: Awaited<ReturnType<typeof startFakeOidc>>;
  const clock = new ManualClock();
  before(async () => {
    sink = await startSmtpSink();
    google = await startFakeGoogle();
    idp = await startFakeOidc();
  });
  const t = useServer(kind, () => ({ clock, databaseName: 'Two Step', env: { SMTP_URL: sink.url, ...google.env } }));
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(async () => {
    const op = apiClient(t.server, () => t.server.operatorToken());
    const oauth = { google: { clientId: 'google-client-id', clientSecret: 'google-client-secret' }, oidc: { issuer: idp.issuer, ...OIDC_CLIENT, name: 'SSO' } };
    await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { oauth, redirectUrls: [APP] } });
  });
  after(async () => {
    await sink.close();
    await google.close();
    await idp.close();
  });

  /** A verified password account with an active TOTP factor. */
  const withTotp = async (email: string) => {
    const u = await newUser(t.server, t.db.publicKey, email, PASSWORD);
    await secret.patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    const factor = await addTotp(t.server, t.db.publicKey, u.session.token, clock);
    assert.match((await sink.next(email)).subject ?? '', /second factor/, 'the user is mailed that a factor was added');
    return { ...u, ...factor };
  };
  const signIn = (email: string) => pub.post<FirstStep>('/auth/sign-in', { email, password: PASSWORD }, 200);
  const challenge = (body: Record<string, string>, key = t.db.publicKey) => apiClient(t.server, key).request('POST', '/auth/mfa/challenge', { body });
  /** Asserts a first step that waits for the second, and returns its mfaToken. */
  const mfaTokenOf = (r: FirstStep): string => {
    assert.equal(r.user, null);
    assert.equal(r.session, null);
    assert.ok(r.mfa?.token);
    assert.equal(Date.parse(r.mfa.expiresAt), clock.now() + 5 * 60_000, 'lives 5 minutes');
    return r.mfa.token;
  };
  const sessionsOf = async (userId: string) =>
    Number((await t.server.db.store.get<{ n: number }>('SELECT count(*) AS n FROM user_sessions WHERE user_id = ?', [userId]))?.n);
  const magicLink = async (email: string) => {
    await pub.post('/auth/magic-link', { email, redirectUrl: APP }, 202);
    const token = linkIn(await sink.next(email)).searchParams.get('token')!;
    return pub.post<FirstStep>('/auth/magic-link/verify', { email, token }, 200);
  };
  const oauthSignIn = async (provider: 'google' | 'oidc') => {
    const browser = oauthBrowser(t.server, t.server.url);
    let hop = await browser.hop(`${t.server.base}/auth/oauth/${provider}?${new URLSearchParams({ key: t.db.publicKey, redirectUrl: APP })}`);
    for (let i = 0; i < 2; i += 1) hop = await browser.hop(hop.location!);
    assert.equal(hop.status, 302, hop.text);
    return new URL(hop.location!);
  };

  test('password: no session before the second step; a wrong code → 401 invalid_mfa_code; the right one → {user, session}; the token is single use', async () => {
    const u = await withTotp('password@example.com');
    const sessionsBefore = await sessionsOf(u.user.id);
    const mfaToken = mfaTokenOf(await signIn('password@example.com'));
    assert.equal(await sessionsOf(u.user.id), sessionsBefore, 'no session made by the first step');
    assertError(await challenge({ mfaToken, code: u.device.wrong() }), 401, 'invalid_mfa_code');
    const done = await challenge({ mfaToken, code: u.device.next() });
    assertStatus(done, 200, 'challenge');
    const signedIn = done.json as SignedIn;
    assert.equal(signedIn.user.id, u.user.id);
    assert.equal((await pub.get<{ user: { id: string } }>('/auth/me', 200, withSession(signedIn.session.token))).user.id, u.user.id);
    assertError(await challenge({ mfaToken, code: u.device.next() }), 401, 'invalid_token');
  });

  test('magic link: the verify answers an mfaToken; the challenge completes it', async () => {
    const u = await withTotp('magic@example.com');
    const mfaToken = mfaTokenOf(await magicLink('magic@example.com'));
    const done = await challenge({ mfaToken, code: u.device.next() });
    assertStatus(done, 200, 'challenge');
    assert.equal((done.json as SignedIn).user.id, u.user.id);
  });

  test('OAuth and OIDC callbacks redirect with ?mfa_token= and no session token; the challenge completes them', async () => {
    const u = await withTotp('oauth@example.com');
    google.state.user = { sub: 'g-mfa', email: 'oauth@example.com', email_verified: true };
    const viaGoogle = await oauthSignIn('google');
    assert.equal(viaGoogle.searchParams.get('token'), null, viaGoogle.toString());
    const googleToken = viaGoogle.searchParams.get('mfa_token')!;
    assert.ok(googleToken, viaGoogle.toString());
    assertStatus(await challenge({ mfaToken: googleToken, code: u.device.next() }), 200, 'google challenge');

    idp.state.claims = { sub: 'oidc-mfa', email: 'oauth@example.com', email_verified: true };
    try {
      const viaOidc = await oauthSignIn('oidc');
      assert.equal(viaOidc.searchParams.get('token'), null, viaOidc.toString());
      const oidcToken = viaOidc.searchParams.get('mfa_token')!;
      assert.ok(oidcToken, viaOidc.toString());
      assertStatus(await challenge({ mfaToken: oidcToken, code: u.device.next() }), 200, 'oidc challenge');
    } finally {
      idp.state.claims = {};
    }
  });

  test("a stolen mfaToken used with another database's key → 401 invalid_token (and stays usable where it belongs)", async () => {
    const u = await withTotp('stolen@example.com');
    const other = await t.server.createDatabase('Other');
    const mfaToken = mfaTokenOf(await signIn('stolen@example.com'));
    assertError(await challenge({ mfaToken, code: u.device.next() }, other.publicKey), 401, 'invalid_token');
    assertStatus(await challenge({ mfaToken, code: u.device.next() }), 200, 'on its own database');
  });

  test('a code replayed and a recovery code used twice are refused', async () => {
    const u = await withTotp('replay2@example.com');
    const code = u.device.next();
    assertStatus(await challenge({ mfaToken: mfaTokenOf(await signIn('replay2@example.com')), code }), 200, 'first use');
    assertError(await challenge({ mfaToken: mfaTokenOf(await signIn('replay2@example.com')), code }), 401, 'invalid_mfa_code');
    const [rc] = u.recoveryCodes;
    assertStatus(await challenge({ mfaToken: mfaTokenOf(await signIn('replay2@example.com')), recoveryCode: rc }), 200, 'recovery code');
    assertError(await challenge({ mfaToken: mfaTokenOf(await signIn('replay2@example.com')), recoveryCode: rc }), 401, 'invalid_mfa_code');
    assert.equal((await pub.get<{ recoveryCodesLeft: number }>('/auth/mfa', 200, withSession(u.session.token))).recoveryCodesLeft, 9);
  });

  test('the mfaToken dies after 5 wrong codes, after 5 minutes, when the user is disabled and when the factors are removed', async () => {
    const u = await withTotp('dies@example.com');
    const five = mfaTokenOf(await signIn('dies@example.com'));
    for (let i = 0; i < 5; i += 1) assertError(await challenge({ mfaToken: five, code: u.device.wrong() }), 401, 'invalid_mfa_code');
    assertError(await challenge({ mfaToken: five, code: u.device.next() }), 401, 'invalid_token');

    const late = mfaTokenOf(await signIn('dies@example.com'));
    clock.advance(5 * 60_000);
    assertError(await challenge({ mfaToken: late, code: u.device.current() }), 401, 'invalid_token');

    const disabled = mfaTokenOf(await signIn('dies@example.com'));
    await secret.patch(`/auth/users/${u.user.id}`, { disabled: true });
    assertError(await challenge({ mfaToken: disabled, code: u.device.next() }), 401, 'invalid_token');
    await secret.patch(`/auth/users/${u.user.id}`, { disabled: false });

    const reset = mfaTokenOf(await signIn('dies@example.com'));
    assertStatus(await secret.request('DELETE', `/auth/users/${u.user.id}/mfa`), 204, 'support desk reset');
    assertError(await challenge({ mfaToken: reset, code: u.device.next() }), 401, 'invalid_token');
  });

  test('10 wrong codes per account → 429 for every challenge of that account, whatever the token, the right code included; other accounts unaffected', async () => {
    const u = await withTotp('guess@example.com');
    const other = await withTotp('bystander@example.com');
    for (let i = 0; i < 2; i += 1) {
      const token = mfaTokenOf(await signIn('guess@example.com'));
      for (let j = 0; j < 5; j += 1) assertError(await challenge({ mfaToken: token, code: u.device.wrong() }), 401, 'invalid_mfa_code');
    }
    const fresh = mfaTokenOf(await signIn('guess@example.com'));
    const limited = await challenge({ mfaToken: fresh, code: u.device.next() });
    assertError(limited, 429, 'rate_limited');
    assert.ok((limited.json as { retryAfter: number }).retryAfter > 0);
    assertStatus(await challenge({ mfaToken: mfaTokenOf(await signIn('bystander@example.com')), code: other.device.next() }), 200, 'another account');
  });

  test('GET /auth/users/:id shows mfa; DELETE /auth/users/:id/mfa removes factors, codes and passkeys and ends sessions; sign-in is one step again', async () => {
    const plain = await newUser(t.server, t.db.publicKey, 'plain@example.com', PASSWORD);
    assert.equal((await secret.get<{ user: { mfa: boolean } }>(`/auth/users/${plain.user.id}`)).user.mfa, false);
    const u = await withTotp('desk@example.com');
    assert.equal((await secret.get<{ user: { mfa: boolean } }>(`/auth/users/${u.user.id}`)).user.mfa, true);
    assertError(await pub.request('DELETE', `/auth/users/${u.user.id}/mfa`), 403, 'read_only_key');
    assertStatus(await secret.request('DELETE', `/auth/users/${u.user.id}/mfa`), 204, 'reset');
    assertError(await pub.request('GET', '/auth/me', withSession(u.session.token)), 401, 'invalid_session');
    assert.equal((await secret.get<{ user: { mfa: boolean } }>(`/auth/users/${u.user.id}`)).user.mfa, false);
    const again = await signIn('desk@example.com');
    assert.equal(again.mfa, undefined);
    assert.equal(again.user?.id, u.user.id);
    assert.equal(await t.server.db.store.get('SELECT 1 AS one FROM mfa_recovery_codes WHERE user_id = ?', [u.user.id]), undefined);
    assertError(await secret.request('DELETE', '/auth/users/nobody/mfa'), 404, 'not_found');
  });

  test('takeover rules: a magic link or a verified OAuth e-mail proving an unverified account removes its factors and asks no second step', async () => {
    const u = await withTotp('squat@example.com');
    await secret.patch(`/auth/users/${u.user.id}`, { emailVerified: false });
    const proof = await magicLink('squat@example.com');
    assert.equal(proof.mfa, undefined, 'no second step');
    assert.equal(proof.user?.id, u.user.id);
    assert.equal((await secret.get<{ user: { mfa: boolean } }>(`/auth/users/${u.user.id}`)).user.mfa, false);
    assert.equal(await t.server.db.store.get('SELECT 1 AS one FROM mfa_recovery_codes WHERE user_id = ?', [u.user.id]), undefined);

    const v = await withTotp('squat2@example.com');
    await secret.patch(`/auth/users/${v.user.id}`, { emailVerified: false });
    google.state.user = { sub: 'g-owner', email: 'squat2@example.com', email_verified: true };
    const final = await oauthSignIn('google');
    assert.ok(final.searchParams.get('token'), final.toString());
    assert.equal(final.searchParams.get('mfa_token'), null);
    assert.equal((await secret.get<{ user: { mfa: boolean } }>(`/auth/users/${v.user.id}`)).user.mfa, false);
  });

  test('a password reset, a password change and sign-out leave the factor in place', async () => {
    const u = await withTotp('keeps@example.com');
    await pub.post('/auth/change-password', { currentPassword: PASSWORD, newPassword: PASSWORD }, 204, withSession(u.session.token));
    await pub.post('/auth/sign-out', undefined, 204, withSession(u.session.token));
    await pub.post('/auth/forgot-password', { email: 'keeps@example.com', redirectUrl: APP }, 202);
    const token = linkIn(await sink.next('keeps@example.com')).searchParams.get('token')!;
    await pub.post('/auth/reset-password', { email: 'keeps@example.com', token, newPassword: PASSWORD }, 204);
    mfaTokenOf(await signIn('keeps@example.com'));
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, newUser, type SignedIn } from '../helpers/auth-client.ts';
import { oauthBrowser, type Hop } from '../helpers/oauth-browser.ts';
import { startFakeOidc, type Claims } from '../helpers/oauth-providers.ts';
import { ManualClock } from '../../src/infra/clock.ts';

/** The address users reach (PUBLIC_URL): callbacks are registered there; the test maps it onto the real port. */
const PUBLIC_URL = 'http://svc.example.test:8700';
const APP = 'http://localhost:5173/signed-in';
// Letters and digits only: the fake issuer does not form-decode client_secret_basic credentials (RFC 6749 §2.3.1).
const CLIENT = { clientId: 'svcapp', clientSecret: 'oidcclientsecret0123456789' };
const CALLBACK = `${PUBLIC_URL}/v1/auth/oauth/oidc/callback`;

forEachStore('auth: OpenID Connect sign-in', (kind) => {
  let idp: Awaited<ReturnType<typeof startFakeOidc>>;
  let browser: ReturnType<typeof oauthBrowser>;
  const clock = new ManualClock();
  before(async () => {
    idp = await startFakeOidc();
  });
  const t = useServer(kind, () => ({ clock, databaseName: 'OIDC App', env: { PUBLIC_URL } }));
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const configure = (databaseId: string, oauth: Record<string, unknown>) =>
    op.patch<{ database: { settings: { oauth: Record<string, unknown> } } }>(`/admin/databases/${databaseId}`, { settings: { oauth } });
  const oidcConf = () => ({ issuer: idp.issuer, ...CLIENT, name: 'Company SSO' });

  before(async () => {
    browser = oauthBrowser(t.server, PUBLIC_URL);
    await configure(t.db.databaseId, { oidc: oidcConf() });
  });
  after(async () => {
    await idp.close();
  });

  const hop = (url: string, opts: { cookies?: boolean } = {}): Promise<Hop> => browser.hop(url, opts);
  const startUrl = (query: Record<string, string>, provider = 'oidc') => `${PUBLIC_URL}/v1/auth/oauth/${provider}?${new URLSearchParams(query)}`;

  /** Walks start → issuer → callback; the last hop's Location is the app's URL. */
  const walk = async (opts: { key?: string } = {}) => {
    const start = await hop(startUrl({ key: opts.key ?? t.db.publicKey, redirectUrl: APP }));
    assert.equal(start.status, 302, start.text);
    const atIssuer = await hop(start.location!);
    assert.equal(atIssuer.status, 302, atIssuer.text);
    assert.ok(atIssuer.location!.startsWith(`${CALLBACK}?`), atIssuer.location!);
    const callback = await hop(atIssuer.location!);
    assert.equal(callback.status, 302, callback.text);
    assert.equal(callback.headers.get('referrer-policy'), 'no-referrer');
    const final = new URL(callback.location!);
    assert.equal(`${final.origin}${final.pathname}`, APP);
    return { start, atIssuer, callback, final };
  };
  /** Signs in with an ID token carrying `claims`; the app's URL the browser ends at. */
  const signInWith = async (claims: Claims, opts: { key?: string } = {}) => {
    idp.state.claims = claims;
    try {
      return (await walk(opts)).final;
    } finally {
      idp.state.claims = {};
    }
  };
  const tokenOf = (final: URL) => {
    assert.equal(final.searchParams.get('error'), null, final.toString());
    return final.searchParams.get('token')!;
  };
  const meWith = async (token: string, key = t.db.publicKey) => ((await auth.me(t.server, key, token)).json as { user: SignedIn['user'] }).user;
  const usersWithEmail = async (email: string) => (await t.server.db.store.all('SELECT id FROM users WHERE email = ?', [email])).length;

  test('settings: oauth.oidc holds issuer, clientId, clientSecret and name; reads never show the secret', async () => {
    const db = await t.server.createDatabase('OIDC Settings');
    const patched = await configure(db.databaseId, { oidc: { issuer: 'https://sso.example.com/realms/acme', ...CLIENT, name: 'Acme SSO' } });
    const expected = { issuer: 'https://sso.example.com/realms/acme', clientId: CLIENT.clientId, clientSecretSet: true, name: 'Acme SSO' };
    assert.deepEqual(patched.database.settings.oauth.oidc, expected);
    for (const r of [
      await op.request('GET', `/admin/databases/${db.databaseId}`),
      await op.request('GET', '/admin/databases'),
      await op.request('PATCH', `/admin/databases/${db.databaseId}`, { body: { settings: { oauth: { oidc: { name: 'Acme' } } } } }),
    ]) {
      assert.equal(r.status, 200, r.text);
      assert.ok(!r.text.includes(CLIENT.clientSecret), 'the secret never comes back');
      assert.ok(!r.text.includes('"clientSecret"'), 'no clientSecret field');
    }
    const merged = await op.get<{ database: { settings: { oauth: Record<string, unknown> } } }>(`/admin/databases/${db.databaseId}`);
    assert.deepEqual(merged.database.settings.oauth.oidc, { ...expected, name: 'Acme' }, 'a merge patch of the name keeps the rest');
    const stored = await t.server.db.store.get<{ settings: string | object }>('SELECT settings FROM databases WHERE id = ?', [db.databaseId]);
    assert.ok(JSON.stringify(stored?.settings).includes(CLIENT.clientSecret), 'the secret is kept for the token exchange');

    for (const [oidc, path] of [
      [{ issuer: 'ftp://sso.example.com' }, '/settings/oauth/oidc/issuer'],
      [{ issuer: 'not a url' }, '/settings/oauth/oidc/issuer'],
      [{ tenant: 'x' }, '/settings/oauth/oidc/tenant'],
      [{ clientId: 42 }, '/settings/oauth/oidc/clientId'],
      ['https://sso.example.com', '/settings/oauth/oidc'],
    ] as const) {
      const r = await op.request('PATCH', `/admin/databases/${db.databaseId}`, { body: { settings: { oauth: { oidc } } } });
      assert.equal(errorCode(r), 'validation_failed', JSON.stringify(oidc));
      assert.ok(
        (r.json as { error: { details: Array<{ path: string }> } }).error.details.some((d) => d.path === path),
        r.text,
      );
    }
    const r = await op.request('PATCH', `/admin/databases/${db.databaseId}`, {
      body: { settings: { oauth: { google: { issuer: 'https://x.example.com' } } } },
    });
    assert.equal(errorCode(r), 'validation_failed', 'issuer is an oidc setting only');
    const removed = await configure(db.databaseId, { oidc: null });
    assert.equal(removed.database.settings.oauth.oidc, undefined);
  });

  test('sign-in: discovery, PKCE, state and nonce; a new verified account from the ID token claims', async () => {
    idp.state.authorizeQueries = [];
    idp.state.tokenAuthorizations = [];
    const { start, final } = await (async () => {
      idp.state.claims = { sub: 'kc-100', email: 'Ada@Example.com', email_verified: true, name: 'Ada', picture: 'https://img.example.com/ada.png' };
      try {
        return await walk();
      } finally {
        idp.state.claims = {};
      }
    })();
    const authorize = new URL(start.location!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${idp.issuer}/authorize`, 'the endpoint of the discovery document');
    assert.equal(start.headers.get('referrer-policy'), 'no-referrer');
    const q = authorize.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), CLIENT.clientId);
    assert.equal(q.get('redirect_uri'), CALLBACK);
    assert.deepEqual(q.get('scope')?.split(' ').sort(), ['email', 'openid', 'profile']);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get('nonce') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok(Buffer.from(q.get('state') ?? '', 'base64url').length >= 32);
    assert.equal(start.setCookies.length, 1, 'the state is bound to this browser');
    assert.deepEqual(
      idp.state.tokenAuthorizations,
      [`Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`],
      'client_secret_basic at the token endpoint',
    );

    const user = await meWith(tokenOf(final));
    assert.equal(user.email, 'ada@example.com');
    assert.equal(user.emailVerified, true);
    assert.equal(user.name, 'Ada');
    assert.equal(user.avatar, 'https://img.example.com/ada.png');
    const identities = await t.server.db.store.all<{ provider: string; user_id: string }>(
      'SELECT provider, user_id FROM user_identities WHERE provider_user_id = ?',
      ['kc-100'],
    );
    assert.deepEqual(identities, [{ provider: 'oidc', user_id: user.id }]);

    const again = await signInWith({ sub: 'kc-100', email: 'ada@example.com', email_verified: true });
    assert.equal((await meWith(tokenOf(again))).id, user.id, 'the identity (oidc, sub) signs the same account in');
    const nonces = idp.state.authorizeQueries.map((a) => a.get('nonce'));
    assert.equal(nonces.length, 2);
    assert.notEqual(nonces[0], nonces[1], 'a nonce per flow');
  });

  test('a verified e-mail links to the existing account; an unverified one never does', async () => {
    const held = await newUser(t.server, t.db.secretKey, 'grace@example.com');
    await t.server.db.store.run('UPDATE users SET email_verified = 1 WHERE id = ?', [held.user.id]);
    const linked = await meWith(tokenOf(await signInWith({ sub: 'kc-grace', email: 'grace@example.com', email_verified: true })));
    assert.equal(linked.id, held.user.id);
    assert.equal(
      (await auth.signIn(t.server, t.db.secretKey, 'grace@example.com', 'correct horse battery')).status,
      200,
      'a verified account keeps its password',
    );

    const other = await newUser(t.server, t.db.secretKey, 'hopper@example.com');
    for (const claims of [
      { sub: 'kc-hopper', email: 'hopper@example.com', email_verified: false },
      { sub: 'kc-hopper', email: 'hopper@example.com', email_verified: undefined },
    ]) {
      const refused = await signInWith(claims);
      assert.equal(refused.searchParams.get('error'), 'email_not_verified', JSON.stringify(claims));
      assert.equal(refused.searchParams.get('token'), null);
    }
    assert.equal((await t.server.db.store.all('SELECT user_id FROM user_identities WHERE provider_user_id = ?', ['kc-hopper'])).length, 0, 'not linked');
    assert.equal((await auth.signIn(t.server, t.db.secretKey, 'hopper@example.com', 'correct horse battery')).status, 200, 'the account is untouched');
    assert.equal((await auth.me(t.server, t.db.secretKey, other.session.token)).status, 200);

    const created = await meWith(tokenOf(await signInWith({ sub: 'kc-new', email: 'new-unverified@example.com', email_verified: false })));
    assert.equal(created.email, 'new-unverified@example.com');
    assert.equal(created.emailVerified, false, 'an account it creates is unverified');
  });

  test('an ID token without an e-mail: the e-mail comes from userinfo (same sub only)', async () => {
    idp.state.userinfo = { sub: 'kc-ui', email: 'userinfo@example.com', email_verified: true, name: 'From Userinfo' };
    const user = await meWith(tokenOf(await signInWith({ sub: 'kc-ui', email: undefined, email_verified: undefined })));
    assert.equal(user.email, 'userinfo@example.com');
    assert.equal(user.emailVerified, true);
    assert.equal(user.name, 'From Userinfo');

    idp.state.userinfo = { sub: 'someone-else', email: 'mixup@example.com', email_verified: true };
    const mixup = await signInWith({ sub: 'kc-mixup', email: undefined });
    assert.equal(mixup.searchParams.get('error'), 'provider_error', 'userinfo of another subject');
    assert.equal(await usersWithEmail('mixup@example.com'), 0);
  });

  test('a bad ID token (nonce, audience, issuer, expiry, signature) → redirectUrl?error=provider_error and no account', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, Claims]> = [
      ['another nonce', { nonce: 'not-the-nonce-of-this-flow' }],
      ['no nonce', { nonce: undefined }],
      ['another audience', { aud: 'another-client' }],
      ['another issuer', { iss: 'https://evil.example.com' }],
      ['expired', { iat: now - 7200, nbf: now - 7200, exp: now - 3600 }],
    ];
    for (const [why, bad] of cases) {
      const email = `bad-${why.replace(/ /g, '-')}@example.com`;
      const final = await signInWith({ sub: `kc-${email}`, email, email_verified: true, ...bad });
      assert.equal(final.searchParams.get('error'), 'provider_error', why);
      assert.equal(final.searchParams.get('token'), null, why);
      assert.equal(await usersWithEmail(email), 0, `${why}: no account`);
    }
    idp.state.foreignSignature = true;
    try {
      const final = await signInWith({ sub: 'kc-forged', email: 'forged@example.com', email_verified: true });
      assert.equal(final.searchParams.get('error'), 'provider_error', 'signed by a key the JWKS does not hold');
      assert.equal(await usersWithEmail('forged@example.com'), 0);
    } finally {
      idp.state.foreignSignature = false;
    }
    const good = await signInWith({ sub: 'kc-good', email: 'good@example.com', email_verified: true });
    assert.ok(tokenOf(good), 'the same flow with a good ID token signs in');
  });

  test('not configured: the same answer as an unconfigured google; configured away mid-flow → ?error=provider_not_configured', async () => {
    const bare = await t.server.createDatabase('No OIDC');
    const expectUnconfigured = async (why: string) => {
      const oidc = await hop(startUrl({ key: bare.publicKey, redirectUrl: APP }));
      const google = await hop(startUrl({ key: bare.publicKey, redirectUrl: APP }, 'google'));
      assert.equal(oidc.status, 400, `${why}: ${oidc.text}`);
      assert.equal(oidc.status, google.status, why);
      const code = (h: Hop) => (JSON.parse(h.text) as { error: { code: string } }).error.code;
      assert.equal(code(oidc), 'validation_failed', why);
      assert.equal(code(google), 'validation_failed', why);
      assert.equal(oidc.location, null);
      assert.equal(oidc.setCookies.length, 0);
    };
    await expectUnconfigured('nothing set');
    await configure(bare.databaseId, { oidc: { issuer: idp.issuer, clientId: CLIENT.clientId } });
    await expectUnconfigured('no client secret');
    await configure(bare.databaseId, { oidc: { issuer: null, clientSecret: CLIENT.clientSecret } });
    await expectUnconfigured('no issuer');

    await configure(bare.databaseId, { oidc: oidcConf() });
    const start = await hop(startUrl({ key: bare.publicKey, redirectUrl: APP }));
    assert.equal(start.status, 302, start.text);
    const callback = (await hop(start.location!)).location!;
    await configure(bare.databaseId, { oidc: null });
    const final = new URL((await hop(callback)).location!);
    assert.equal(final.searchParams.get('error'), 'provider_not_configured');
  });

  test('an issuer whose discovery fails → redirectUrl?error=provider_error, no state; a wrong issuer in the document likewise', async () => {
    const db = await t.server.createDatabase('Broken Issuer');
    const states = async () => (await t.server.db.store.all('SELECT state_hash FROM oauth_states WHERE database_id = ?', [db.databaseId])).length;
    // The fake issuer names itself http://localhost:<port>: at 127.0.0.1 its document names another issuer.
    for (const issuer of [`${idp.issuer}/no-such-realm`, 'http://127.0.0.1:9/realms/closed', idp.issuer.replace('localhost', '127.0.0.1')]) {
      await configure(db.databaseId, { oidc: { ...oidcConf(), issuer } });
      const start = await hop(startUrl({ key: db.publicKey, redirectUrl: APP }));
      assert.equal(start.status, 302, `${issuer}: ${start.text}`);
      const final = new URL(start.location!);
      assert.equal(`${final.origin}${final.pathname}`, APP, issuer);
      assert.equal(final.searchParams.get('error'), 'provider_error', issuer);
      assert.equal(start.setCookies.length, 0, issuer);
    }
    assert.equal(await states(), 0);
  });

  test('the oidc state is bound to the browser and to its provider, and single use', async () => {
    idp.state.claims = { sub: 'kc-bound', email: 'bound@example.com', email_verified: true };
    try {
      const start = await hop(startUrl({ key: t.db.publicKey, redirectUrl: APP }));
      const callback = (await hop(start.location!)).location!;
      const stranger = oauthBrowser(t.server, PUBLIC_URL);
      const unbound = new URL((await stranger.hop(callback)).location!);
      assert.equal(unbound.searchParams.get('error'), 'invalid_state', 'another browser');
      const asGoogle = await hop(callback.replace('/oauth/oidc/', '/oauth/google/'));
      assert.equal(asGoogle.status, 400);
      assert.equal((JSON.parse(asGoogle.text) as { error: { code: string } }).error.code, 'invalid_token', 'the state of another provider');
      const fresh = await hop(startUrl({ key: t.db.publicKey, redirectUrl: APP }));
      const freshCallback = (await hop(fresh.location!)).location!;
      assert.ok(tokenOf(new URL((await hop(freshCallback)).location!)));
      const reused = await hop(freshCallback);
      assert.equal(reused.status, 400, 'used up');
    } finally {
      idp.state.claims = {};
    }
  });

  test('the same OIDC identity in two databases is two unrelated accounts', async () => {
    const other = await t.server.createDatabase('Second OIDC App');
    await configure(other.databaseId, { oidc: oidcConf() });
    const claims = { sub: 'kc-twin', email: 'twin@example.com', email_verified: true };
    const one = await meWith(tokenOf(await signInWith(claims)));
    const tokenTwo = tokenOf(await signInWith(claims, { key: other.publicKey }));
    const two = await meWith(tokenTwo, other.publicKey);
    assert.notEqual(one.id, two.id);
    assert.equal(errorCode(await auth.me(t.server, t.db.publicKey, tokenTwo)), 'invalid_session');
  });

  test("an identity is (issuer, sub): after the issuer changes, the new issuer's user with the same sub gets an account of their own", async () => {
    const second = await startFakeOidc();
    try {
      const db = await t.server.createDatabase('Two Issuers');
      const key = { key: db.publicKey };
      /** Signs in through `provider` (configured for the database first) with these claims; the signed-in user. */
      const through = async (provider: typeof idp, claims: Claims) => {
        await configure(db.databaseId, { oidc: { issuer: provider.issuer, ...CLIENT, name: 'SSO' } });
        provider.state.claims = claims;
        try {
          return await meWith(tokenOf((await walk(key)).final), db.publicKey);
        } finally {
          provider.state.claims = {};
        }
      };
      const alice = await through(idp, { sub: 'shared-sub', email: 'alice@example.com', email_verified: true });
      assert.equal(alice.email, 'alice@example.com');
      // The operator moves the database to another issuer, where someone else has the same sub.
      const mallory = await through(second, { sub: 'shared-sub', email: 'mallory@example.com', email_verified: true });
      assert.notEqual(mallory.id, alice.id, "the same sub at another issuer is not alice's account");
      assert.equal(mallory.email, 'mallory@example.com');
      assert.equal(
        (await through(second, { sub: 'shared-sub', email: 'mallory@example.com', email_verified: true })).id,
        mallory.id,
        'linked to (issuer, sub)',
      );
      // Linked identities are found by (issuer, sub) whatever the e-mail says now.
      assert.equal((await through(idp, { sub: 'shared-sub', email: 'alice.new@example.com', email_verified: true })).id, alice.id);
      const rows = await t.server.db.store.all<{ issuer: string; provider_user_id: string }>(
        "SELECT issuer, provider_user_id FROM user_identities WHERE database_id = ? AND provider = 'oidc' ORDER BY issuer",
        [db.databaseId],
      );
      assert.deepEqual(
        rows.map((r) => [r.issuer, r.provider_user_id]).sort(),
        [
          [idp.issuer, 'shared-sub'],
          [second.issuer, 'shared-sub'],
        ].sort(),
      );
    } finally {
      await second.close();
    }
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, newUser, type SignedIn } from '../helpers/auth-client.ts';
import { startFakeGitHub, startFakeGoogle } from '../helpers/oauth-providers.ts';
import { oauthBrowser, type Hop } from '../helpers/oauth-browser.ts';
import { ManualClock } from '../../src/infra/clock.ts';

/** The address users reach (PUBLIC_URL): callbacks are registered there; the test maps it onto the real port. */
const PUBLIC_URL = 'http://svc.example.test:8700';
const APP = 'http://localhost:5173/signed-in';
const GITHUB_CLIENT = { id: 'gh-client-id', secret: 'gh-client-secret' };

forEachStore('auth: Google and GitHub sign-in', (kind) => {
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;
  let browser: ReturnType<typeof oauthBrowser>;
  const clock = new ManualClock();
  before(async () => {
    google = await startFakeGoogle();
    github = await startFakeGitHub(GITHUB_CLIENT);
  });
  const t = useServer(kind, () => ({ clock, databaseName: 'OAuth App', env: { ...google.env, ...github.env, PUBLIC_URL } }));
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );

  const configure = (databaseId: string, oauth: Record<string, unknown>) => op.patch(`/admin/databases/${databaseId}`, { settings: { oauth } });
  const clients = {
    google: { clientId: 'google-client-id', clientSecret: 'google-client-secret' },
    github: { clientId: GITHUB_CLIENT.id, clientSecret: GITHUB_CLIENT.secret },
  };

  before(async () => {
    browser = oauthBrowser(t.server, PUBLIC_URL);
    await configure(t.db.databaseId, clients);
  });
  after(async () => {
    await google.close();
    await github.close();
  });

  /** One GET of the browser (with its cookies unless `cookies: false`), without following redirects. */
  const hop = (url: string, opts: { cookies?: boolean } = {}): Promise<Hop> => browser.hop(url, opts);
  const startUrl = (provider: string, query: Record<string, string>) => `${PUBLIC_URL}/v1/auth/oauth/${provider}?${new URLSearchParams(query)}`;

  /** Walks start → provider → callback and returns every hop; the last one's Location is the app's URL. */
  const walk = async (provider: 'google' | 'github', opts: { key?: string; redirectUrl?: string } = {}) => {
    const start = await hop(startUrl(provider, { key: opts.key ?? t.db.publicKey, redirectUrl: opts.redirectUrl ?? APP }));
    assert.equal(start.status, 302, start.text);
    const atProvider = await hop(start.location!);
    assert.equal(atProvider.status, 302, atProvider.text);
    assert.ok(atProvider.location!.startsWith(`${PUBLIC_URL}/v1/auth/oauth/${provider}/callback?`), atProvider.location!);
    const callback = await hop(atProvider.location!);
    assert.equal(callback.status, 302, callback.text);
    assert.equal(callback.headers.get('referrer-policy'), 'no-referrer');
    return { start, atProvider, callback, final: new URL(callback.location!) };
  };
  const tokenOf = (final: URL) => {
    assert.equal(`${final.origin}${final.pathname}`, APP);
    assert.equal(final.searchParams.get('error'), null, final.toString());
    return final.searchParams.get('token')!;
  };
  const meWith = async (token: string, key = t.db.publicKey) => ((await auth.me(t.server, key, token)).json as { user: SignedIn['user'] }).user;

  test('Google: the whole redirect chain with PKCE ends at redirectUrl?token=, a session of a new verified account', async () => {
    google.state.user = { sub: 'g-100', email: 'Lin@Example.com', email_verified: true, name: 'Lin', picture: 'https://img.example.com/lin.png' };
    const { start, final } = await walk('google');
    const authorize = new URL(start.location!);
    assert.equal(`${authorize.origin}${authorize.pathname}`, google.env.OAUTH_GOOGLE_AUTHORIZE_URL);
    assert.equal(start.headers.get('referrer-policy'), 'no-referrer');
    const q = authorize.searchParams;
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('client_id'), 'google-client-id');
    assert.equal(q.get('redirect_uri'), `${PUBLIC_URL}/v1/auth/oauth/google/callback`);
    assert.equal(q.get('code_challenge_method'), 'S256');
    assert.match(q.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(q.get('scope')?.split(' ').sort(), ['email', 'openid', 'profile']);
    assert.ok(Buffer.from(q.get('state') ?? '', 'base64url').length >= 32);

    const token = tokenOf(final);
    const user = await meWith(token);
    assert.equal(user.email, 'lin@example.com');
    assert.equal(user.emailVerified, true);
    assert.equal(user.name, 'Lin');
    assert.equal(user.avatar, 'https://img.example.com/lin.png');
    const again = await walk('google');
    const sameUser = await meWith(tokenOf(again.final));
    assert.equal(sameUser.id, user.id, 'the identity (google, sub) signs the same account in');
    const identities = await t.server.db.store.all<{ provider: string; provider_user_id: string; user_id: string }>(
      'SELECT provider, provider_user_id, user_id FROM user_identities',
    );
    assert.deepEqual(
      identities.filter((i) => i.provider_user_id === 'g-100'),
      [{ provider: 'google', provider_user_id: 'g-100', user_id: user.id }],
    );
  });

  test('a verified provider e-mail links to the existing account; an unverified account loses its password and sessions', async () => {
    const verified = await newUser(t.server, t.db.secretKey, 'kept@example.com');
    await t.server.db.store.run('UPDATE users SET email_verified = 1 WHERE id = ?', [verified.user.id]);
    google.state.user = { sub: 'g-kept', email: 'kept@example.com', email_verified: true };
    const linked = await meWith(tokenOf((await walk('google')).final));
    assert.equal(linked.id, verified.user.id);
    assert.equal(
      (await auth.signIn(t.server, t.db.secretKey, 'kept@example.com', 'correct horse battery')).status,
      200,
      'a verified account keeps its password',
    );
    assert.equal((await auth.me(t.server, t.db.secretKey, verified.session.token)).status, 200);

    const squatter = await newUser(t.server, t.db.secretKey, 'victim@example.com');
    google.state.user = { sub: 'g-victim', email: 'victim@example.com', email_verified: true };
    const owner = await meWith(tokenOf((await walk('google')).final));
    assert.equal(owner.id, squatter.user.id);
    assert.equal(owner.emailVerified, true);
    assert.equal(errorCode(await auth.signIn(t.server, t.db.secretKey, 'victim@example.com', 'correct horse battery')), 'invalid_credentials');
    assert.equal(errorCode(await auth.me(t.server, t.db.secretKey, squatter.session.token)), 'invalid_session');
  });

  test('an unverified provider e-mail makes an unverified account; it never signs into or links to an existing one', async () => {
    google.state.user = { sub: 'g-unverified', email: 'unverified@example.com', email_verified: false };
    const created = await meWith(tokenOf((await walk('google')).final));
    assert.equal(created.email, 'unverified@example.com');
    assert.equal(created.emailVerified, false);
    assert.equal((await meWith(tokenOf((await walk('google')).final))).id, created.id, 'the identity signs its own account in again');

    const unproven = await newUser(t.server, t.db.secretKey, 'held@example.com');
    const proven = await newUser(t.server, t.db.secretKey, 'proven@example.com');
    await t.server.db.store.run('UPDATE users SET email_verified = 1 WHERE id = ?', [proven.user.id]);
    for (const [sub, email] of [
      ['g-held', 'held@example.com'],
      ['g-proven', 'proven@example.com'],
    ]) {
      google.state.user = { sub, email, email_verified: false };
      const refused = (await walk('google')).final;
      assert.equal(refused.searchParams.get('error'), 'email_not_verified', email);
      assert.equal(refused.searchParams.get('token'), null);
      assert.equal((await t.server.db.store.all('SELECT user_id FROM user_identities WHERE provider_user_id = ?', [sub])).length, 0, `${email}: not linked`);
      assert.equal((await auth.signIn(t.server, t.db.secretKey, email, 'correct horse battery')).status, 200, `${email}: the account is untouched`);
    }
    assert.equal((await auth.me(t.server, t.db.secretKey, unproven.session.token)).status, 200);
  });

  test('Google failures after a valid state come back as redirectUrl?error=', async () => {
    google.state.deny = true;
    try {
      const denied = (await walk('google')).final;
      assert.equal(`${denied.origin}${denied.pathname}`, APP);
      assert.equal(denied.searchParams.get('error'), 'access_denied');
    } finally {
      google.state.deny = false;
    }
  });

  test('GitHub: /user and /user/emails; the primary e-mail counts, verified or not', async () => {
    github.state.user = {
      id: 4242,
      login: 'octo',
      name: 'Octo Cat',
      avatar_url: 'https://avatars.example.com/octo',
      emails: [
        { email: 'octo-public@example.com', primary: false, verified: false },
        { email: 'Octo@Example.com', primary: true, verified: true },
      ],
    };
    const { start, final } = await walk('github');
    const authorize = new URL(start.location!);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('client_id'), GITHUB_CLIENT.id);
    const user = await meWith(tokenOf(final));
    assert.equal(user.email, 'octo@example.com');
    assert.equal(user.name, 'Octo Cat');
    assert.equal(user.avatar, 'https://avatars.example.com/octo');

    assert.equal(user.emailVerified, true);

    github.state.user = {
      id: 5151,
      login: 'unverified',
      emails: [
        { email: 'np@example.com', primary: true, verified: false },
        { email: 'np2@example.com', primary: false, verified: true },
      ],
    };
    const unverified = await meWith(tokenOf((await walk('github')).final));
    assert.equal(unverified.email, 'np@example.com');
    assert.equal(unverified.emailVerified, false);
    github.state.user = { id: 5252, login: 'nomail', emails: [] };
    assert.equal((await walk('github')).final.searchParams.get('error'), 'email_not_verified', 'no e-mail at all: no account');
  });

  test('GitHub with a wrong client secret, or a provider answering errors → ?error=provider_error', async () => {
    const other = await t.server.createDatabase('Wrong Secret');
    await configure(other.databaseId, { github: { clientId: GITHUB_CLIENT.id, clientSecret: 'not-the-secret' } });
    github.state.user = { id: 6, login: 'six', emails: [{ email: 'six@example.com', primary: true, verified: true }] };
    const final = (await walk('github', { key: other.publicKey })).final;
    assert.equal(final.searchParams.get('error'), 'provider_error');
    assert.equal(final.searchParams.get('token'), null);
  });

  test('state: tampered, missing, used, expired or of another provider → 400 invalid_token without a redirect', async () => {
    google.state.user = { sub: 'g-state', email: 'state@example.com', email_verified: true };
    const start = await hop(startUrl('google', { key: t.db.publicKey, redirectUrl: APP }));
    const callbackUrl = new URL((await hop(start.location!)).location!);
    const state = callbackUrl.searchParams.get('state')!;
    const expectInvalid = async (url: URL | string, why: string) => {
      const r = await hop(url.toString());
      assert.equal(r.status, 400, `${why}: ${r.text}`);
      assert.equal(r.location, null, why);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer', why);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/, why);
      assert.deepEqual(Object.keys(JSON.parse(r.text) as object), ['error'], why);
      assert.equal((JSON.parse(r.text) as { error: { code: string } }).error.code, 'invalid_token', why);
    };
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', (state[0] === 'A' ? 'B' : 'A') + state.slice(1));
    await expectInvalid(tampered, 'tampered');
    const missing = new URL(callbackUrl);
    missing.searchParams.delete('state');
    await expectInvalid(missing, 'missing');
    await expectInvalid(callbackUrl.toString().replace('/oauth/google/', '/oauth/github/'), 'another provider');
    await expectInvalid(callbackUrl, 'a state is used up by any callback');

    const fresh = new URL((await hop((await hop(startUrl('google', { key: t.db.publicKey, redirectUrl: APP }))).location!)).location!);
    const ok = await hop(fresh.toString());
    assert.equal(ok.status, 302);
    await expectInvalid(fresh, 'used');

    const late = new URL((await hop((await hop(startUrl('google', { key: t.db.publicKey, redirectUrl: APP }))).location!)).location!);
    clock.advance(11 * 60_000);
    await expectInvalid(late, 'expired after 10 minutes');
  });

  test('the state is bound to the browser that started the flow: an HttpOnly, SameSite=Lax cookie per flow', async () => {
    google.state.user = { sub: 'g-bound', email: 'bound@example.com', email_verified: true };
    browser.jar.clear(); // flows other tests left unfinished
    const start = await hop(startUrl('google', { key: t.db.publicKey, redirectUrl: APP }));
    assert.equal(start.setCookies.length, 1);
    const [binding] = start.setCookies;
    assert.match(binding.name, /^svc_oauth_[0-9a-f]{16}$/);
    assert.equal(binding.httpOnly, true);
    assert.equal(binding.sameSite, 'lax');
    assert.equal(binding.maxAge, 600);
    assert.equal(binding.path, '/v1/auth/oauth/');
    assert.equal(binding.secure, undefined, 'PUBLIC_URL is http here');
    const callbackUrl = (await hop(start.location!)).location!;

    // Another browser: no cookie, a wrong one, or the cookie of its own flow.
    const other = oauthBrowser(t.server, PUBLIC_URL);
    const expectUnbound = async (why: string) => {
      const r = await other.hop(callbackUrl);
      assert.equal(r.status, 302, `${why}: ${r.text}`);
      assert.equal(r.headers.get('referrer-policy'), 'no-referrer');
      const final = new URL(r.location!);
      assert.equal(`${final.origin}${final.pathname}`, APP, why);
      assert.equal(final.searchParams.get('error'), 'invalid_state', why);
      assert.equal(final.searchParams.get('token'), null, why);
    };
    await expectUnbound('no cookie');
    other.jar.set(binding.name, `${binding.value!.slice(0, -1)}x`);
    await expectUnbound('a wrong value');
    other.jar.clear();
    await other.hop((await other.hop(startUrl('google', { key: t.db.publicKey, redirectUrl: APP }))).location!);
    assert.equal(other.jar.size, 1);
    await expectUnbound('the cookie of another flow');

    // None of that used the state up: the browser that started the flow signs in.
    const second = await hop(startUrl('google', { key: t.db.publicKey, redirectUrl: APP })); // a second tab
    assert.equal(browser.jar.size, 2, 'one cookie per flow');
    const done = await hop(callbackUrl);
    const user = await meWith(tokenOf(new URL(done.location!)));
    assert.equal(user.email, 'bound@example.com');
    assert.deepEqual(
      done.setCookies.map((c) => [c.name, c.maxAge]),
      [[binding.name, 0]],
      'the spent binding is cleared',
    );
    assert.equal(browser.jar.size, 1);
    const secondDone = await hop((await hop(second.location!)).location!);
    assert.equal((await meWith(tokenOf(new URL(secondDone.location!)))).id, user.id, 'the second tab signs in too');
    assert.equal(browser.jar.size, 0);
  });

  test('start: public key only, an allowed redirect URL, a known and configured provider', async () => {
    const expect = async (query: Record<string, string>, status: number, code: string, provider = 'google') => {
      const r = await hop(startUrl(provider, query));
      assert.equal(r.status, status, `${JSON.stringify(query)}: ${r.text}`);
      assert.equal(r.location, null);
      assert.equal((JSON.parse(r.text) as { error: { code: string } }).error.code, code);
    };
    await expect({ key: t.db.secretKey, redirectUrl: APP }, 400, 'validation_failed');
    await expect({ key: 'svc_sk_' + 'x'.repeat(40), redirectUrl: APP }, 400, 'validation_failed');
    await expect({ redirectUrl: APP }, 401, 'missing_api_key');
    await expect({ key: 'svc_pk_' + 'x'.repeat(40), redirectUrl: APP }, 401, 'invalid_api_key');
    await expect({ key: t.db.publicKey, redirectUrl: 'https://evil.example.com/steal' }, 400, 'redirect_url_not_allowed');
    await expect({ key: t.db.publicKey }, 400, 'validation_failed');
    await expect({ key: t.db.publicKey, redirectUrl: APP }, 400, 'validation_failed', 'facebook');
    const bare = await t.server.createDatabase('No OAuth');
    const bareKey = await op.post<{ key: string }>(`/admin/databases/${bare.databaseId}/keys`, { kind: 'public' }, 201);
    await expect({ key: bareKey.key, redirectUrl: APP }, 400, 'validation_failed');
  });

  test('the same provider identity in two databases is two unrelated accounts', async () => {
    const other = await t.server.createDatabase('Second App');
    await configure(other.databaseId, clients);
    google.state.user = { sub: 'g-twin', email: 'twin@example.com', email_verified: true };
    const one = await meWith(tokenOf((await walk('google')).final));
    const tokenTwo = tokenOf((await walk('google', { key: other.publicKey })).final);
    const two = await meWith(tokenTwo, other.publicKey);
    assert.notEqual(one.id, two.id);
    assert.equal(errorCode(await auth.me(t.server, t.db.publicKey, tokenTwo)), 'invalid_session');
  });

  test('the redirect keeps the query of redirectUrl and adds the token', async () => {
    google.state.user = { sub: 'g-query', email: 'query@example.com', email_verified: true };
    const final = (await walk('google', { redirectUrl: `${APP}?next=%2Fdashboard` })).final;
    assert.equal(final.searchParams.get('next'), '/dashboard');
    assert.ok(final.searchParams.get('token'));
  });
});

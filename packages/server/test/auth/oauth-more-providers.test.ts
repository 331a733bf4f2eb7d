import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, type SignedIn } from '../helpers/auth-client.ts';
import { oauthBrowser, type Hop } from '../helpers/oauth-browser.ts';
import { startFakeProviders } from '../helpers/oauth-more-providers.ts';
import type { Claims } from '../helpers/oauth-providers.ts';
import { ManualClock } from '../../src/infra/clock.ts';

const PUBLIC_URL = 'http://svc.example.test:8700';
const APP = 'http://localhost:5173/signed-in';
const APPLE_KEYS = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const APPLE_PEM = APPLE_KEYS.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
// Letters and digits only: the fake server does not form-decode Basic credentials.
const secretOf = (provider: string) => `${provider}secret0123456789`;
const CLIENTS = {
  discord: { clientId: 'discordapp', clientSecret: secretOf('discord') },
  gitlab: { clientId: 'gitlabapp', clientSecret: secretOf('gitlab') },
  facebook: { clientId: 'facebookapp', clientSecret: secretOf('facebook') },
  x: { clientId: 'xapp', clientSecret: secretOf('x') },
  microsoft: { clientId: 'msapp', clientSecret: secretOf('microsoft'), tenant: 'contoso.onmicrosoft.com' },
  apple: { clientId: 'com.example.web', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: APPLE_PEM },
};
type Provider = keyof typeof CLIENTS;

forEachStore('auth: Apple, Microsoft, Discord, GitLab, Facebook and X sign-in', (kind) => {
  let fake: Awaited<ReturnType<typeof startFakeProviders>>;
  let browser: ReturnType<typeof oauthBrowser>;
  before(async () => {
    fake = await startFakeProviders();
  });
  const t = useServer(kind, () => ({ clock: new ManualClock(), databaseName: 'Brand App', env: { ...fake.env, PUBLIC_URL } }));
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const configure = (oauth: Record<string, unknown>) => op.request('PATCH', `/admin/databases/${t.db.databaseId}`, { body: { settings: { oauth } } });
  before(async () => {
    browser = oauthBrowser(t.server, PUBLIC_URL);
    const res = await configure(CLIENTS);
    assert.equal(res.status, 200, res.text);
  });
  after(() => fake.close());

  const hop = (url: string): Promise<Hop> => browser.hop(url);
  const callbackUrl = (p: Provider) => `${PUBLIC_URL}/v1/auth/oauth/${p}/callback`;

  /** start → provider → callback; what svc sent to the provider, and the app URL it ended at. */
  const walk = async (provider: Provider) => {
    fake.state.authorizeQueries.length = 0;
    fake.state.tokenRequests.length = 0;
    const start = await hop(`${PUBLIC_URL}/v1/auth/oauth/${provider}?${new URLSearchParams({ key: t.db.publicKey, redirectUrl: APP })}`);
    assert.equal(start.status, 302, start.text);
    const atProvider = await hop(start.location!);
    assert.equal(atProvider.status, 302, atProvider.text);
    assert.ok(atProvider.location!.startsWith(`${callbackUrl(provider)}?`), atProvider.location!);
    const callback = await hop(atProvider.location!);
    assert.equal(callback.status, 302, callback.text);
    const final = new URL(callback.location!);
    assert.equal(`${final.origin}${final.pathname}`, APP);
    return { authorize: new URL(start.location!), final, token: fake.state.tokenRequests[0] };
  };
  const signedIn = async (final: URL) => {
    assert.equal(final.searchParams.get('error'), null, final.toString());
    const me = await auth.me(t.server, t.db.publicKey, final.searchParams.get('token')!);
    assert.equal(me.status, 200, me.text);
    return (me.json as { user: SignedIn['user'] }).user;
  };
  const basicOf = (authorization: string | undefined) => Buffer.from((authorization ?? '').replace(/^Basic /, ''), 'base64').toString();

  /** The authorization request: client, callback, scopes, and PKCE (S256) or none. */
  const checkAuthorize = (authorize: URL, provider: Provider, scopes: string[], pkce: boolean) => {
    const q = authorize.searchParams;
    assert.equal(q.get('client_id'), CLIENTS[provider].clientId);
    assert.equal(q.get('redirect_uri'), callbackUrl(provider));
    assert.equal(q.get('response_type'), 'code');
    assert.deepEqual(q.get('scope')?.split(' ').sort(), [...scopes].sort());
    assert.equal(q.get('code_challenge_method'), pkce ? 'S256' : null);
  };

  test('Discord: /users/@me, `verified` e-mail, CDN avatar; PKCE and Basic client credentials', async () => {
    fake.state.userinfo = {
      id: '80351110224678912',
      username: 'nelly',
      global_name: 'Nelly',
      email: 'Nelly@Discord.test',
      verified: true,
      avatar: '8342729096ea3675442027381ff50dfe',
    };
    const { authorize, final, token } = await walk('discord');
    checkAuthorize(authorize, 'discord', ['identify', 'email'], true);
    assert.equal(basicOf(token.authorization), `discordapp:${secretOf('discord')}`);
    assert.equal(token.form.client_secret, undefined);
    assert.ok(token.form.code_verifier);
    const user = await signedIn(final);
    assert.deepEqual([user.email, user.emailVerified, user.name], ['nelly@discord.test', true, 'Nelly']);
    assert.equal(user.avatar, 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png');
  });

  test('GitLab: OpenID userinfo with email_verified; an unverified e-mail makes an unverified account', async () => {
    fake.state.userinfo = { sub: '4711', email: 'gl@gitlab.test', email_verified: true, name: 'Git Lab', picture: 'https://gitlab.test/a.png' };
    const { authorize, final, token } = await walk('gitlab');
    checkAuthorize(authorize, 'gitlab', ['openid', 'email', 'profile'], true);
    assert.equal(basicOf(token.authorization), `gitlabapp:${secretOf('gitlab')}`);
    const user = await signedIn(final);
    assert.deepEqual([user.email, user.emailVerified, user.name, user.avatar], ['gl@gitlab.test', true, 'Git Lab', 'https://gitlab.test/a.png']);

    fake.state.userinfo = { sub: '4712', email: 'unproven@gitlab.test', email_verified: false, nickname: 'unproven' };
    const second = await signedIn((await walk('gitlab')).final);
    assert.deepEqual([second.email, second.emailVerified, second.name], ['unproven@gitlab.test', false, 'unproven']);
  });

  test('Facebook: /me with its fields; the secret in the form body, no PKCE; its e-mail counts as unverified', async () => {
    fake.state.userinfo = {
      id: '10223',
      name: 'Face Book',
      email: 'fb@facebook.test',
      picture: { data: { url: 'https://fb.test/p.jpg', is_silhouette: false } },
    };
    const { authorize, final, token } = await walk('facebook');
    checkAuthorize(authorize, 'facebook', ['email', 'public_profile'], false);
    assert.equal(token.authorization, undefined);
    assert.deepEqual([token.form.client_id, token.form.client_secret, token.form.code_verifier], ['facebookapp', secretOf('facebook'), undefined]);
    const user = await signedIn(final);
    assert.deepEqual([user.email, user.emailVerified, user.name, user.avatar], ['fb@facebook.test', false, 'Face Book', 'https://fb.test/p.jpg']);
  });

  test('X: /2/users/me with confirmed_email (verified); an X account without one cannot sign in', async () => {
    fake.state.userinfo = {
      data: { id: '2244994945', name: 'X Dev', username: 'xdev', confirmed_email: 'dev@x.test', profile_image_url: 'https://pbs.x.test/i.png' },
    };
    const { authorize, final, token } = await walk('x');
    checkAuthorize(authorize, 'x', ['users.read', 'tweet.read', 'users.email'], true);
    assert.equal(basicOf(token.authorization), `xapp:${secretOf('x')}`);
    const user = await signedIn(final);
    assert.deepEqual([user.email, user.emailVerified, user.name, user.avatar], ['dev@x.test', true, 'X Dev', 'https://pbs.x.test/i.png']);

    fake.state.userinfo = { data: { id: '99', name: 'No Mail', username: 'nomail' } };
    assert.equal((await walk('x')).final.searchParams.get('error'), 'email_not_verified');
  });

  test('Microsoft: the tenant in both URLs, the person from the ID token, verified only with xms_edov', async () => {
    fake.state.idClaims = { sub: 'ms-sub-1', email: 'ada@contoso.test', name: 'Ada' } satisfies Claims;
    const { authorize, final, token } = await walk('microsoft');
    checkAuthorize(authorize, 'microsoft', ['openid', 'email', 'profile'], true);
    assert.equal(authorize.searchParams.get('tenant'), 'contoso.onmicrosoft.com');
    assert.equal(basicOf(token.authorization), `msapp:${secretOf('microsoft')}`);
    const unverified = await signedIn(final);
    assert.deepEqual([unverified.email, unverified.emailVerified, unverified.name], ['ada@contoso.test', false, 'Ada']);

    fake.state.idClaims = { sub: 'ms-sub-2', email: 'grace@contoso.test', name: 'Grace', xms_edov: true };
    const verified = await signedIn((await walk('microsoft')).final);
    assert.deepEqual([verified.email, verified.emailVerified], ['grace@contoso.test', true]);

    // An ID token for another client is refused.
    fake.state.idClaims = { sub: 'ms-sub-3', email: 'eve@contoso.test', aud: 'someone-else' };
    assert.equal((await walk('microsoft')).final.searchParams.get('error'), 'provider_error');
    fake.state.idClaims = {};
  });

  test('Apple: form_post, no PKCE, a fresh ES256 client secret JWT from team id, key id and key; the person from the ID token', async () => {
    fake.state.idClaims = { sub: '001234.apple', email: 'relay@privaterelay.appleid.com', email_verified: 'true' };
    const { authorize, final, token } = await walk('apple');
    checkAuthorize(authorize, 'apple', ['email'], false);
    assert.equal(authorize.searchParams.get('response_mode'), 'form_post');
    assert.equal(token.authorization, undefined);
    assert.equal(token.form.client_id, 'com.example.web');
    const secret = token.form.client_secret!;
    assert.deepEqual(decodeProtectedHeader(secret), { alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(secret, createPublicKey(APPLE_KEYS.privateKey), {
      issuer: 'TEAM123456',
      subject: 'com.example.web',
      audience: 'https://appleid.apple.com',
    });
    assert.equal(payload.exp! - payload.iat!, 300);
    const user = await signedIn(final);
    assert.deepEqual([user.email, user.emailVerified], ['relay@privaterelay.appleid.com', true]);
    fake.state.idClaims = {};
  });

  test("Apple's form post to the callback is sent on to the GET callback, which still needs the browser's binding cookie", async () => {
    fake.state.idClaims = { sub: '005678.apple', email: 'posted@apple.test', email_verified: true };
    const start = await hop(`${PUBLIC_URL}/v1/auth/oauth/apple?${new URLSearchParams({ key: t.db.publicKey, redirectUrl: APP })}`);
    const atApple = new URL((await hop(start.location!)).location!);
    // Apple posts code and state as a form, from its own site: no cookie comes with it.
    const form = new URLSearchParams({
      code: atApple.searchParams.get('code')!,
      state: atApple.searchParams.get('state')!,
      user: '{"name":{"firstName":"A"}}',
    });
    const posted = await fetch(`${t.server.url}/v1/auth/oauth/apple/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    assert.equal(posted.status, 303);
    const next = new URL(posted.headers.get('location')!, callbackUrl('apple'));
    assert.equal(`${next.origin}${next.pathname}`, callbackUrl('apple'));
    assert.deepEqual(
      [next.searchParams.get('code'), next.searchParams.get('state'), next.searchParams.get('user')],
      [form.get('code'), form.get('state'), null],
    );
    const callback = await hop(next.toString());
    const user = await signedIn(new URL(callback.location!));
    assert.equal(user.email, 'posted@apple.test');
    // Only that route reads forms: elsewhere a form is still 415.
    const elsewhere = await fetch(`${t.server.url}/v1/auth/sign-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.db.publicKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=b',
    });
    assert.equal(elsewhere.status, 415);
    fake.state.idClaims = {};
  });

  test('settings: secrets and the Apple key are write-only; bad values → 400 naming the setting; unconfigured → 400 naming the keys', async () => {
    const json = await op.get<{ database: { settings: { oauth: Record<string, Record<string, unknown>> } } }>(`/admin/databases/${t.db.databaseId}`);
    const oauth = json.database.settings.oauth;
    assert.deepEqual(oauth.apple, { clientId: 'com.example.web', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKeySet: true });
    assert.deepEqual(oauth.microsoft, { clientId: 'msapp', clientSecretSet: true, tenant: 'contoso.onmicrosoft.com' });
    for (const p of ['discord', 'gitlab', 'facebook', 'x']) assert.deepEqual(oauth[p], { clientId: CLIENTS[p as Provider].clientId, clientSecretSet: true });
    assert.ok(!JSON.stringify(json).includes('PRIVATE KEY') && !JSON.stringify(json).includes('secret0123456789'));

    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    for (const [patch, path] of [
      [{ apple: { privateKey: 'not a key' } }, '/settings/oauth/apple/privateKey'],
      [{ apple: { privateKey: rsa } }, '/settings/oauth/apple/privateKey'],
      [{ microsoft: { tenant: '../evil' } }, '/settings/oauth/microsoft/tenant'],
      [{ apple: { clientSecret: 'x' } }, '/settings/oauth/apple/clientSecret'],
      [{ twitter: { clientId: 'a' } }, '/settings/oauth/twitter'],
    ] as const) {
      const res = await configure(patch);
      assert.equal(errorCode(res), 'validation_failed', JSON.stringify(patch));
      assert.ok(
        (res.json as { error: { details: Array<{ path: string }> } }).error.details.some((d) => d.path === path),
        res.text,
      );
    }

    const other = await t.server.createDatabase('Unconfigured');
    const res = await fetch(`${t.server.url}/v1/auth/oauth/apple?${new URLSearchParams({ key: other.publicKey, redirectUrl: APP })}`, { redirect: 'manual' });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'validation_failed');
    assert.match(body.error.message, /settings\.oauth\.apple: clientId, teamId, keyId, privateKey/);
  });
});

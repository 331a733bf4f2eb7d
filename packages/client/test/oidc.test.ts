import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from '../../server/test/helpers/server.ts';
import { startFakeOidc } from '../../server/test/helpers/oauth-providers.ts';
import { oauthBrowser } from '../../server/test/helpers/oauth-browser.ts';
import type { OAuthProvider } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

describe('auth: OpenID Connect', () => {
  let f: Fixture;
  let idp: Awaited<ReturnType<typeof startFakeOidc>>;

  before(async () => {
    idp = await startFakeOidc();
    f = await fixture();
    const op = await f.server.operatorToken();
    const db = (await request(f.server, 'GET', '/admin/databases', { key: op })).json as { databases: Array<{ id: string }> };
    const r = await request(f.server, 'PATCH', `/admin/databases/${db.databases[0].id}`, {
      key: op,
      body: { settings: { oauth: { oidc: { issuer: idp.issuer, clientId: 'sdkapp', clientSecret: 'sdksecret0123456789', name: 'Company SSO' } } } },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    await f.close();
    await idp.close();
  });

  test("oauthUrl('oidc') starts a real OpenID Connect sign-in; handleRedirect stores the session", async () => {
    const providers: OAuthProvider[] = ['google', 'github', 'apple', 'microsoft', 'discord', 'gitlab', 'facebook', 'x', 'oidc'];
    // @ts-expect-error only the server's providers are accepted
    const unknown: OAuthProvider = 'myspace';
    assert.equal([...providers, unknown].length, 10);

    const client = f.browser();
    const start = new URL(client.auth.oauthUrl('oidc', 'http://localhost:5173/cb'));
    assert.equal(start.pathname, '/v1/auth/oauth/oidc');
    assert.equal(start.searchParams.get('key'), f.publicKey);

    idp.state.claims = { sub: 'sso-7', email: 'Kim@Example.com', email_verified: true, name: 'Kim' };
    const browser = oauthBrowser(f.server, f.server.url);
    let url = start.toString();
    for (let hops = 0; !url.startsWith('http://localhost:5173/'); hops++) {
      assert.ok(hops < 5, 'too many redirects');
      const res = await browser.hop(url);
      assert.equal(res.status, 302, res.text);
      url = new URL(res.location!, url).toString();
    }
    const result = await client.auth.handleRedirect({ url });
    assert.equal(result?.user?.email, 'kim@example.com');
    assert.equal(result?.user?.emailVerified, true);
    assert.equal(result?.user.name, 'Kim');
    assert.equal((await client.auth.getUser()).email, 'kim@example.com');
  });
});

// API.md §2.2 passkeys in real Chromium with a virtual authenticator (the DevTools Protocol's
// WebAuthn domain through playwright-core): a page on http://localhost:<port> (a secure context,
// rpId "localhost") registers a passkey, signs out, signs in with it; a page on another origin is
// refused, and so are a counter that went back and a disabled user.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { newUser, withSession } from '../helpers/auth-client.ts';
import { chromiumAvailable, launch } from '../../../dashboard/test/browser.ts';

const run = chromiumAvailable();

/** The app's page: calls the API with fetch and navigator.credentials (no library: the browser parses the JSON options itself). */
const PAGE = `<!doctype html><html><body><script>
async function call(base, key, path, body, session) {
  const headers = { authorization: 'Bearer ' + key };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (session) headers['x-session-token'] = session;
  const r = await fetch(base + path, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json().catch(() => null) };
}
window.registerPasskey = async (base, key, session, name) => {
  const o = await call(base, key, '/auth/passkeys/register/options', undefined, session);
  if (o.status !== 200) return o;
  const cred = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(o.json) });
  return call(base, key, '/auth/passkeys/register', { response: cred.toJSON(), name }, session);
};
window.signInWithPasskey = async (base, key) => {
  const o = await call(base, key, '/auth/passkeys/sign-in/options');
  if (o.status !== 200) return o;
  const cred = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(o.json.options) });
  return call(base, key, '/auth/passkeys/sign-in', { challengeId: o.json.challengeId, response: cred.toJSON() });
};
</script></body></html>`;

/** A tiny HTTP server for the page, on 127.0.0.1 (opened as http://localhost:<port>). */
async function pageServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const srv: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return { origin: `http://localhost:${(srv.address() as AddressInfo).port}`, close: () => new Promise((resolve) => srv.close(() => resolve())) };
}

/** What the page's script puts on window. */
interface PageApi {
  registerPasskey(base: string, key: string, session: string, name: string): Promise<unknown>;
  signInWithPasskey(base: string, key: string): Promise<unknown>;
}

forEachStore('auth: passkeys in Chromium', (kind) => {
  const t = useServer(kind, { databaseName: 'Passkey App' });
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  let browser: Browser;
  let app: Awaited<ReturnType<typeof pageServer>>;
  let elsewhere: Awaited<ReturnType<typeof pageServer>>;
  before(async () => {
    app = await pageServer();
    elsewhere = await pageServer();
    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.patch(`/admin/databases/${t.db.databaseId}`, {
      settings: { auth: { passkeys: { rpId: 'localhost', rpName: 'Passkey App', origins: [app.origin] } } },
    });
    if (run) browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await app.close();
    await elsewhere.close();
  });

  /** A page of `origin` with a virtual platform authenticator (resident keys, user verification). */
  const open = async (origin: string): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { page, cdp, authenticatorId };
  };
  type Answer = {
    status: number;
    json: { user?: { id: string }; session?: { token: string }; passkey?: { id: string; name: string }; error?: { code: string } };
  };
  const register = (page: Page, session: string) =>
    page.evaluate(
      ([base, key, s]) => (window as unknown as PageApi).registerPasskey(base, key, s, 'Laptop'),
      [t.server.base, t.db.publicKey, session],
    ) as Promise<Answer>;
  const signIn = (page: Page) =>
    page.evaluate(([base, key]) => (window as unknown as PageApi).signInWithPasskey(base, key), [t.server.base, t.db.publicKey]) as Promise<Answer>;
  const verifiedUser = async (email: string) => {
    const u = await newUser(t.server, t.db.publicKey, email);
    await secret.patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    return u;
  };

  test('register a passkey, sign out, sign in with it (no second step), listed with lastUsedAt; a wrong origin, a counter gone back and a disabled user are refused', {
    skip: !run,
  }, async () => {
    const u = await verifiedUser('passkey@example.com');
    const { page, cdp, authenticatorId } = await open(app.origin);
    const reg = await register(page, u.session.token);
    assert.equal(reg.status, 201, JSON.stringify(reg.json));
    assert.equal(reg.json.passkey?.name, 'Laptop');
    await pub.post('/auth/sign-out', undefined, 204, withSession(u.session.token));

    const signedIn = await signIn(page);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.json));
    assert.equal(signedIn.json.user?.id, u.user.id);
    assert.ok(!('mfa' in signedIn.json));
    const s = withSession(signedIn.json.session!.token);
    assert.equal((await pub.get<{ user: { id: string } }>('/auth/me', 200, s)).user.id, u.user.id);
    const listed = await pub.get<{ passkeys: Array<{ id: string; lastUsedAt: string | null }> }>('/auth/passkeys', 200, s);
    assert.equal(listed.passkeys.length, 1);
    assert.ok(listed.passkeys[0].lastUsedAt);

    // The same authenticator on a page of another origin: the browser signs, the server refuses.
    const other = await open(elsewhere.origin);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    await other.cdp.send('WebAuthn.addCredential', { authenticatorId: other.authenticatorId, credential: credentials[0] });
    const wrongOrigin = await signIn(other.page);
    assert.equal(wrongOrigin.status, 401);
    assert.equal(wrongOrigin.json.error?.code, 'invalid_credentials');

    // A signature counter that does not grow (a cloned authenticator) is refused.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credentials[0], signCount: 0 } });
    const cloned = await signIn(page);
    assert.equal(cloned.status, 401, JSON.stringify(cloned.json));
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credentials[0], signCount: credentials[0].signCount + 10 } });
    assert.equal((await signIn(page)).status, 200);

    await secret.patch(`/auth/users/${u.user.id}`, { disabled: true });
    const disabled = await signIn(page);
    assert.equal(disabled.status, 401);
    assert.equal(disabled.json.error?.code, 'invalid_credentials');
    await secret.patch(`/auth/users/${u.user.id}`, { disabled: false });
    await page.close();
    await other.page.close();
  });

  test('registration needs a verified e-mail and a session; a removed passkey signs in no more', { skip: !run }, async () => {
    const unverified = await newUser(t.server, t.db.publicKey, 'unverified-pk@example.com');
    const { page } = await open(app.origin);
    const refused = await register(page, unverified.session.token);
    assert.equal(refused.status, 403);
    assert.equal(refused.json.error?.code, 'email_not_verified');
    assertError(await pub.request('POST', '/auth/passkeys/register/options'), 401, 'invalid_session');

    const u = await verifiedUser('removed@example.com');
    const reg = await register(page, u.session.token);
    assert.equal(reg.status, 201, JSON.stringify(reg.json));
    await pub.delete(`/auth/passkeys/${reg.json.passkey!.id}`, 204, withSession(u.session.token));
    assert.deepEqual(await pub.get('/auth/passkeys', 200, withSession(u.session.token)), { passkeys: [] });
    const gone = await signIn(page);
    assert.equal(gone.status, 401);
    await page.close();
  });

  test('a challenge is single use and bound to its database; without a relying party the options answer 400', async () => {
    const opts = await pub.post<{ challengeId: string; options: { rpId: string; userVerification: string } }>('/auth/passkeys/sign-in/options', undefined, 200);
    assert.equal(opts.options.rpId, 'localhost');
    assert.equal(opts.options.userVerification, 'required');
    const noRp = await t.server.createDatabase('No RP');
    assertError(await apiClient(t.server, noRp.publicKey).request('POST', '/auth/passkeys/sign-in/options'), 400, 'validation_failed');
    const other = await t.server.createDatabase('Other RP');
    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.patch(`/admin/databases/${other.databaseId}`, { settings: { siteUrl: app.origin } });
    const bogus = {
      id: 'x',
      rawId: 'x',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: '', signature: '' },
      clientExtensionResults: {},
    };
    const live = () => t.server.db.store.get('SELECT 1 AS one FROM passkey_challenges WHERE id = ?', [opts.challengeId]);
    const body = { challengeId: opts.challengeId, response: bogus };
    assertError(await apiClient(t.server, other.publicKey).request('POST', '/auth/passkeys/sign-in', { body }), 401, 'invalid_credentials');
    assert.ok(await live(), "another database's key does not even use the challenge up");
    assertError(await pub.request('POST', '/auth/passkeys/sign-in', { body }), 401, 'invalid_credentials');
    assert.equal(await live(), undefined, 'a failed attempt used it up');
  });
});

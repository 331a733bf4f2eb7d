import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth, newUser, type SignedIn } from '../helpers/auth-client.ts';
import { startFakeGoogle } from '../helpers/oauth-providers.ts';
import { oauthBrowser } from '../helpers/oauth-browser.ts';

/** The address users reach (PUBLIC_URL): callbacks are registered there; the test maps it onto the real port. */
const PUBLIC_URL = 'http://svc.example.test:8700';
const APP = 'http://localhost:5173/signed-in';

/**
 * API.md §2.1: a disabled user signs in no way, OAuth included: the callback sends the browser to
 * `redirectUrl?error=invalid_credentials` with no session, whether the identity was linked already
 * or its verified e-mail matches the account, and a first proof of the e-mail changes nothing.
 */
forEachStore('auth: a disabled user signs in with no provider', (kind) => {
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  let browser: ReturnType<typeof oauthBrowser>;
  before(async () => {
    google = await startFakeGoogle();
  });
  const t = useServer(kind, () => ({ env: { ...google.env, PUBLIC_URL } }));
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(async () => {
    browser = oauthBrowser(t.server, PUBLIC_URL);
    const op = apiClient(
      () => t.server,
      () => t.server.operatorToken(),
    );
    await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { oauth: { google: { clientId: 'google-client-id', clientSecret: 'google-secret' } } } });
  });
  after(() => google.close());

  /** start → provider → callback; the URL the browser lands on in the app. */
  const walk = async (): Promise<URL> => {
    const start = await browser.hop(`${PUBLIC_URL}/v1/auth/oauth/google?${new URLSearchParams({ key: t.db.publicKey, redirectUrl: APP })}`);
    assert.equal(start.status, 302, start.text);
    const atProvider = await browser.hop(start.location!);
    const callback = await browser.hop(atProvider.location!);
    assert.equal(callback.status, 302, callback.text);
    return new URL(callback.location!);
  };
  const sessions = async (userId: string) => (await t.server.db.store.all('SELECT token_hash FROM user_sessions WHERE user_id = ?', [userId])).length;

  test('a linked identity of a disabled user: error=invalid_credentials, no session; enabled again, it signs in', async () => {
    google.state.user = { sub: 'g-linked', email: 'linked@example.com', email_verified: true };
    const first = await walk();
    const token = first.searchParams.get('token');
    assert.ok(token, first.toString());
    const me = (await auth.me(t.server, t.db.publicKey, token)).json as { user: SignedIn['user'] };
    await secret.patch(`/auth/users/${me.user.id}`, { disabled: true });

    const refused = await walk();
    assert.equal(refused.searchParams.get('error'), 'invalid_credentials', refused.toString());
    assert.equal(refused.searchParams.get('token'), null);
    assert.equal(await sessions(me.user.id), 0);

    await secret.patch(`/auth/users/${me.user.id}`, { disabled: false });
    const back = await walk();
    assert.ok(back.searchParams.get('token'), back.toString());
  });

  test('a verified provider e-mail matching a disabled, unverified account: refused, and the account keeps its password', async () => {
    const u = await newUser(t.server, t.db.publicKey, 'pw@example.com', 'correct horse battery');
    await secret.patch(`/auth/users/${u.user.id}`, { disabled: true });
    google.state.user = { sub: 'g-pw', email: 'pw@example.com', email_verified: true };
    const refused = await walk();
    assert.equal(refused.searchParams.get('error'), 'invalid_credentials', refused.toString());
    const row = await t.server.db.store.get<{ password_hash: string | null; email_verified: number }>(
      'SELECT password_hash, email_verified FROM users WHERE id = ?',
      [u.user.id],
    );
    assert.ok(row?.password_hash, 'no first proof of the e-mail happened');
    assert.equal(Number(row?.email_verified), 0);
    assert.equal((await t.server.db.store.all('SELECT provider FROM user_identities WHERE user_id = ?', [u.user.id])).length, 0, 'nothing linked');
  });
});

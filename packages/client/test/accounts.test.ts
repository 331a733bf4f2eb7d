import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from '../../server/test/helpers/server.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../../server/test/helpers/smtp-sink.ts';
import { MemorySessionStore, SvcError, type AuthChangeEvent } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

const isCode = (code: string, status?: number) => (e: unknown) => e instanceof SvcError && e.code === code && (status === undefined || e.status === status);
const REDIRECT = 'http://localhost:5173/verified';

/** The SDK's calls of API.md §2.1 accounts, against a real server and a real SMTP sink. */
describe('auth: e-mail verification, sign-up control, account deletion, a backend checking a session', () => {
  let f: Fixture;
  let sink: SmtpSink;
  let databaseId: string;
  /** Merges `auth` into the database's settings (as an operator). */
  const setAuth = async (auth: Record<string, boolean>) => {
    const r = await request(f.server, 'PATCH', `/admin/databases/${databaseId}`, { key: await f.server.operatorToken(), body: { settings: { auth } } });
    assert.equal(r.status, 200, r.text);
  };
  const tokenMailedTo = async (email: string) => {
    const link = linkIn(await sink.next(email));
    return { email: link.searchParams.get('email')!, token: link.searchParams.get('token')! };
  };

  before(async () => {
    sink = await startSmtpSink();
    f = await fixture({ env: { SMTP_URL: sink.url } });
    const list = await request(f.server, 'GET', '/admin/databases', { key: await f.server.operatorToken() });
    databaseId = (list.json as { databases: Array<{ id: string }> }).databases[0].id;
  });
  after(async () => {
    await f.close();
    await sink.close();
  });

  test('verifyEmail (with the session, or for an e-mail) and confirmEmail: the stored user becomes verified', async () => {
    const store = new MemorySessionStore();
    const client = f.browser({ sessionStore: store });
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((e) => events.push(e));
    const { user } = await client.auth.signUp({ email: 'vera@example.com', password: 'correct horse' });
    assert.equal(user.emailVerified, false);

    await client.auth.verifyEmail({ redirectUrl: REDIRECT });
    const link = await tokenMailedTo('vera@example.com');
    // An account with a password confirms with it (a stranger's pre-registration is not verified by the owner's click).
    await assert.rejects(client.auth.confirmEmail(link), isCode('invalid_current_password', 400), 'no password');
    const verified = await client.auth.confirmEmail({ ...link, password: 'correct horse' });
    assert.equal(verified.emailVerified, true);
    assert.equal(store.get()?.user?.emailVerified, true, 'the stored user is updated');
    assert.deepEqual(events, ['INITIAL_SESSION', 'SIGNED_IN', 'USER_UPDATED']);
    await assert.rejects(client.auth.confirmEmail({ ...link, password: 'correct horse' }), isCode('invalid_token', 401), 'single use');

    // Without a session: for an e-mail (a signed-out browser asking again).
    const other = f.browser();
    await other.auth.signUp({ email: 'walt@example.com', password: 'correct horse' });
    await other.auth.signOut();
    await other.auth.verifyEmail({ email: 'walt@example.com', redirectUrl: REDIRECT });
    await other.auth.verifyEmail({ email: 'nobody-at-all@example.com', redirectUrl: REDIRECT }); // resolves all the same
    assert.equal((await other.auth.confirmEmail({ ...(await tokenMailedTo('walt@example.com')), password: 'correct horse' })).email, 'walt@example.com');
    assert.equal(await other.auth.getSession(), null, 'confirming signs nobody in');
    await assert.rejects(
      other.auth.verifyEmail({ email: 'walt@example.com', redirectUrl: 'https://evil.example.com/' }),
      isCode('redirect_url_not_allowed', 400),
    );
  });

  test('requireEmailVerification: signUp answers session null and stores nothing; signIn is refused until the link is used', async () => {
    await setAuth({ requireEmailVerification: true });
    try {
      const client = f.browser();
      const result = await client.auth.signUp({ email: 'wait@example.com', password: 'correct horse', redirectUrl: REDIRECT });
      assert.equal(result.session, null);
      assert.equal(result.user.email, 'wait@example.com');
      assert.equal(await client.auth.getSession(), null, 'nothing stored');
      await assert.rejects(client.auth.signIn({ email: 'wait@example.com', password: 'correct horse' }), isCode('email_not_verified', 403));
      await client.auth.confirmEmail({ ...(await tokenMailedTo('wait@example.com')), password: 'correct horse' });
      const { session } = await client.auth.signIn({ email: 'wait@example.com', password: 'correct horse' });
      assert.equal((await client.auth.getSession())?.token, session?.token);
    } finally {
      await setAuth({ requireEmailVerification: false });
    }
  });

  test('allowSignUp false: signUp rejects with signup_disabled', async () => {
    await setAuth({ allowSignUp: false });
    try {
      await assert.rejects(f.browser().auth.signUp({ email: 'closed@example.com', password: 'correct horse' }), isCode('signup_disabled', 403));
    } finally {
      await setAuth({ allowSignUp: true });
    }
  });

  test('deleteAccount: a wrong password is refused; the right one deletes the account and forgets the stored session', async () => {
    const store = new MemorySessionStore();
    const client = f.browser({ sessionStore: store });
    const events: AuthChangeEvent[] = [];
    client.auth.onAuthStateChange((e) => events.push(e));
    const { session } = await client.auth.signUp({ email: 'gone@example.com', password: 'correct horse' });
    assert.ok(session);
    await assert.rejects(client.auth.deleteAccount({ password: 'wrong horse' }), isCode('invalid_current_password', 400));
    await assert.rejects(client.auth.deleteAccount(), isCode('invalid_current_password', 400), 'the account has a password');
    assert.equal(store.get()?.token, session.token, 'still signed in');
    await client.auth.deleteAccount({ password: 'correct horse' });
    assert.equal(store.get(), null);
    assert.equal(events.at(-1), 'SIGNED_OUT');
    const stale = await request(f.server, 'GET', '/auth/me', { key: f.publicKey, headers: { 'x-session-token': session.token } });
    assert.equal(stale.status, 401);
    await assert.rejects(client.auth.signIn({ email: 'gone@example.com', password: 'correct horse' }), isCode('invalid_credentials', 401));
    await assert.rejects(client.auth.deleteAccount(), isCode('invalid_session', 401), 'signed out: nothing to delete');
  });

  test("getUser(sessionToken): a backend with the secret key checks a browser's session without storing it", async () => {
    const browser = f.browser();
    const { user, session } = await browser.auth.signUp({ email: 'checked@example.com', password: 'correct horse' });
    assert.ok(session);
    const backendStore = new MemorySessionStore();
    const backend = f.admin({ sessionStore: backendStore });
    assert.deepEqual(await backend.auth.getUser(session.token), user);
    assert.equal(backendStore.get(), null, "the backend's own store is not touched");
    await assert.rejects(backend.auth.getUser('not-a-session-token'), isCode('invalid_session', 401));
    await browser.auth.signOut();
    await assert.rejects(backend.auth.getUser(session.token), isCode('invalid_session', 401), 'a signed-out session');
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from '../../server/test/helpers/server.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../../server/test/helpers/smtp-sink.ts';
import { startFakeGitHub } from '../../server/test/helpers/oauth-providers.ts';
import { oauthBrowser } from '../../server/test/helpers/oauth-browser.ts';
import { LocalStorageSessionStore, MemorySessionStore, SvcError, type AuthChangeEvent } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

const isCode = (code: string, status?: number) => (e: unknown) => e instanceof SvcError && e.code === code && (status === undefined || e.status === status);

describe('auth', () => {
  let f: Fixture;
  let sink: SmtpSink;
  let github: Awaited<ReturnType<typeof startFakeGitHub>>;
  const GH = { id: 'gh-id', secret: 'gh-secret' };

  before(async () => {
    sink = await startSmtpSink();
    github = await startFakeGitHub(GH);
    f = await fixture({ env: { SMTP_URL: sink.url, ...github.env } });
    const db = await f.server.app.inject({ method: 'GET', url: '/v1/admin/databases', headers: { authorization: `Bearer ${await f.server.operatorToken()}` } });
    const id = (db.json() as { databases: Array<{ id: string }> }).databases[0].id;
    const r = await request(f.server, 'PATCH', `/admin/databases/${id}`, {
      key: await f.server.operatorToken(),
      body: { settings: { oauth: { github: { clientId: GH.id, clientSecret: GH.secret } } } },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    await f.close();
    await sink.close();
    await github.close();
  });

  test('sign-up, me, update, refresh, sign-out, with the session in the store and every state change reported', async () => {
    const store = new MemorySessionStore();
    const client = f.browser({ sessionStore: store });
    const events: Array<[AuthChangeEvent, string | undefined]> = [];
    const stop = client.auth.onAuthStateChange((e, s) => events.push([e, s?.user?.name ?? undefined]));

    const { user, session } = await client.auth.signUp({ email: '  Ada@Example.com ', password: 'correct horse', name: 'Ada' });
    assert.ok(session, 'signed in at once (the database does not require a verified e-mail)');
    assert.equal(user.email, 'ada@example.com');
    assert.equal(store.get()?.token, session.token);
    assert.deepEqual(await client.auth.getUser(), user);

    const renamed = await client.auth.updateUser({ name: 'Ada L.', avatar: 'https://img.example.com/ada.png' });
    assert.equal(renamed.name, 'Ada L.');
    assert.equal((await client.auth.getSession())?.user?.avatar, 'https://img.example.com/ada.png');

    const refreshed = await client.auth.refresh();
    assert.equal(refreshed.session.token, session.token);
    assert.ok(Date.parse(refreshed.session.expiresAt) >= Date.parse(session.expiresAt));

    await client.auth.signOut();
    assert.equal(store.get(), null);
    await assert.rejects(client.auth.getUser(), isCode('invalid_session', 401));
    // The old token is dead on the server too.
    const stale = await request(f.server, 'GET', '/auth/me', { key: f.publicKey, headers: { 'x-session-token': session.token } });
    assert.equal(stale.status, 401);
    stop();
    assert.deepEqual(events, [
      ['INITIAL_SESSION', undefined],
      ['SIGNED_IN', 'Ada'],
      ['USER_UPDATED', 'Ada L.'],
      ['TOKEN_REFRESHED', 'Ada L.'],
      ['SIGNED_OUT', undefined],
    ]);
  });

  test('sign-in and error mapping', async () => {
    const client = f.browser();
    await client.auth.signUp({ email: 'bob@example.com', password: 'password-bob' });
    await assert.rejects(client.auth.signUp({ email: 'bob@example.com', password: 'password-bob' }), isCode('conflict', 409));
    await assert.rejects(client.auth.signUp({ email: 'short@example.com', password: 'short' }), isCode('weak_password', 400));
    await assert.rejects(client.auth.signIn({ email: 'bob@example.com', password: 'wrong-password' }), isCode('invalid_credentials', 401));
    await assert.rejects(client.auth.updateUser({ avatar: 'ftp://nope' }), (e: unknown) => e instanceof SvcError && e.status === 400);
    const { user } = await client.auth.signIn({ email: 'BOB@example.com', password: 'password-bob' });
    assert.equal(user?.email, 'bob@example.com');
  });

  test('a session ended elsewhere is forgotten locally with SIGNED_OUT', async () => {
    const a = f.browser();
    const b = f.browser();
    await a.auth.signUp({ email: 'carol@example.com', password: 'password-carol' });
    await b.auth.signIn({ email: 'carol@example.com', password: 'password-carol' });
    await a.auth.changePassword({ currentPassword: 'password-carol', newPassword: 'password-carol-2' });
    await assert.rejects(a.auth.changePassword({ currentPassword: 'nope-nope', newPassword: 'password-carol-3' }), isCode('invalid_current_password', 400));
    assert.ok(await a.auth.getUser(), 'this session stays');
    const seen: AuthChangeEvent[] = [];
    b.auth.onAuthStateChange((e) => seen.push(e));
    await assert.rejects(b.auth.getUser(), isCode('invalid_session', 401));
    assert.equal(await b.auth.getSession(), null);
    assert.deepEqual(seen, ['INITIAL_SESSION', 'SIGNED_OUT']);
    await b.auth.signIn({ email: 'carol@example.com', password: 'password-carol-2' });
  });

  test('forgot and reset password, magic link (real e-mails over SMTP)', async () => {
    const client = f.browser();
    await client.auth.signUp({ email: 'dan@example.com', password: 'password-dan' });
    await client.auth.forgotPassword({ email: 'dan@example.com', redirectUrl: 'http://localhost:5173/reset' });
    await client.auth.forgotPassword({ email: 'nobody@example.com', redirectUrl: 'http://localhost:5173/reset' }); // same answer: no enumeration
    const reset = linkIn(await sink.next('dan@example.com'));
    assert.equal(reset.searchParams.get('email'), 'dan@example.com');
    await client.auth.resetPassword({ email: 'dan@example.com', token: reset.searchParams.get('token')!, newPassword: 'password-dan-2' });
    await assert.rejects(client.auth.getUser(), isCode('invalid_session'), 'reset ends every session');
    await assert.rejects(
      client.auth.resetPassword({ email: 'dan@example.com', token: reset.searchParams.get('token')!, newPassword: 'x-password-3' }),
      isCode('invalid_token', 401),
    );
    await assert.rejects(
      client.auth.forgotPassword({ email: 'dan@example.com', redirectUrl: 'https://evil.example.com/' }),
      isCode('redirect_url_not_allowed', 400),
    );

    await client.auth.sendMagicLink({ email: 'eve@example.com', redirectUrl: 'http://localhost:5173/magic' });
    const magic = linkIn(await sink.next('eve@example.com'));
    // An e-mail link carries `email`: handleRedirect leaves it to verifyMagicLink.
    assert.equal(await client.auth.handleRedirect({ url: magic.toString() }), null);
    const { user } = await client.auth.verifyMagicLink({ email: 'eve@example.com', token: magic.searchParams.get('token')! });
    assert.equal(user?.emailVerified, true);
    assert.equal((await client.auth.getUser()).email, 'eve@example.com');
  });

  test('OAuth: oauthUrl with the public key, the real redirect chain, handleRedirect stores the session and cleans the address bar', async () => {
    const client = f.browser();
    assert.throws(() => f.admin().auth.oauthUrl('github', 'http://localhost:5173/cb'), isCode('public_key_required'));
    const start = new URL(client.auth.oauthUrl('github', 'http://localhost:5173/cb?tab=2'));
    assert.equal(start.searchParams.get('key'), f.publicKey);
    assert.equal(start.pathname, '/v1/auth/oauth/github');

    github.state.user = { id: 42, login: 'octo', name: 'Octo Cat', emails: [{ email: 'octo@example.com', primary: true, verified: true }] };
    // The browser keeps the cookie that binds the flow's state to it (invalid_state without it).
    const browser = oauthBrowser(f.server, f.server.url);
    let url = start.toString();
    for (let hops = 0; !url.startsWith('http://localhost:5173/'); hops++) {
      assert.ok(hops < 5, 'too many redirects');
      const res = await browser.hop(url);
      assert.equal(res.status, 302, res.text);
      url = new URL(res.location!, url).toString();
    }
    assert.ok(new URL(url).searchParams.get('token'));

    // A browser: location and history as the SDK sees them.
    const replaced: string[] = [];
    const g = globalThis as { location?: unknown; history?: unknown };
    g.location = { href: url };
    g.history = { state: null, replaceState: (_s: unknown, _t: string, u: string) => replaced.push(u) };
    try {
      const result = await client.auth.handleRedirect();
      assert.equal(result?.user?.email, 'octo@example.com');
      assert.equal(result?.user?.name, 'Octo Cat');
      assert.ok(result?.session?.expiresAt);
      assert.deepEqual(replaced, ['http://localhost:5173/cb?tab=2']);
      assert.equal((await client.auth.getUser()).email, 'octo@example.com');

      g.location = { href: 'http://localhost:5173/cb?error=access_denied' };
      await assert.rejects(client.auth.handleRedirect(), isCode('access_denied'));
      assert.deepEqual(replaced.at(-1), 'http://localhost:5173/cb');
      g.location = { href: 'http://localhost:5173/cb' };
      assert.equal(await client.auth.handleRedirect(), null);
    } finally {
      delete g.location;
      delete g.history;
    }
  });

  test('LocalStorageSessionStore keeps the session across clients (a page reload)', async () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
      clear: () => data.clear(),
      key: () => null,
      length: 0,
    } as Storage;
    const first = f.browser({ sessionStore: new LocalStorageSessionStore('svc.test', storage) });
    await first.auth.signUp({ email: 'fay@example.com', password: 'password-fay' });
    const reloaded = f.browser({ sessionStore: new LocalStorageSessionStore('svc.test', storage) });
    assert.equal((await reloaded.auth.getUser()).email, 'fay@example.com');
    await reloaded.auth.signOut();
    assert.equal(data.size, 0);
  });
});

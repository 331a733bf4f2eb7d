import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser, withSession } from '../helpers/auth-client.ts';
import { FLAG_UP, SoftPasskey, type Tamper } from '../helpers/soft-passkey.ts';
import { ManualClock } from '../../src/infra/clock.ts';

const ORIGIN = 'http://localhost:5999';

/**
 * API.md §2.2 passkey checks a real browser never trips: what a software authenticator sends with
 * one thing wrong (origin, crossOrigin, user verification, counter, rpId, signature, user handle,
 * challenge) is refused with 401 invalid_credentials; a counter of 0 that stays 0 is accepted;
 * registration challenges are bound to their user; adding a passkey needs a fresh session.
 */
forEachStore('auth: passkey checks', (kind) => {
  const clock = new ManualClock();
  const t = useServer(kind, { clock });
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  let n = 0;
  const user = async () => {
    if (n === 0) {
      const op = apiClient(t.server, () => t.server.operatorToken());
      await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { auth: { passkeys: { rpId: 'localhost', origins: [ORIGIN] } } } });
    }
    const u = await newUser(t.server, t.db.publicKey, `pk${n++}@example.com`);
    await apiClient(t.server, t.db.secretKey).patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    return u;
  };
  const registered = async (counter = 1) => {
    const u = await user();
    const options = await pub.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>(
      '/auth/passkeys/register/options',
      undefined,
      200,
      withSession(u.session.token),
    );
    const key = new SoftPasskey(ORIGIN, counter);
    await pub.post('/auth/passkeys/register', { response: key.register(options) }, 201, withSession(u.session.token));
    return { u, key };
  };
  const signIn = async (key: SoftPasskey, tamper: Tamper = {}) => {
    const { challengeId, options } = await pub.post<{ challengeId: string; options: { challenge: string } }>('/auth/passkeys/sign-in/options', undefined, 200);
    return pub.request('POST', '/auth/passkeys/sign-in', { body: { challengeId, response: key.assert(options, tamper) } });
  };

  test('each tampered assertion → 401 invalid_credentials; the untampered one signs in', async () => {
    const { u, key } = await registered(5);
    const refusals: Array<[string, Tamper]> = [
      ['another origin', { origin: 'http://localhost:6000' }],
      ['crossOrigin', { crossOrigin: true }],
      ['no user verification', { flags: FLAG_UP }],
      ['a counter that did not grow', { counter: 5 }],
      ["another rpId's hash", { rpId: 'example.com' }],
      ['a bad signature', { corruptSignature: true }],
      ["another user's handle", { userHandle: Buffer.from('someone-else').toString('base64url') }],
      ['another challenge', { challenge: Buffer.from('not the challenge').toString('base64url') }],
    ];
    for (const [what, tamper] of refusals) assertError(await signIn(key, tamper), 401, 'invalid_credentials', what);
    const ok = await signIn(key, { counter: 6 });
    assertStatus(ok, 200, 'the right assertion');
    assert.equal((ok.json as { user: { id: string } }).user.id, u.user.id);
  });

  test('an authenticator that does not count (0, then 0) signs in each time', async () => {
    const { key } = await registered(0);
    assertStatus(await signIn(key), 200, 'first');
    assertStatus(await signIn(key), 200, 'second');
  });

  test("a registration challenge is bound to its user, single use; another user's or a stale session → refused", async () => {
    const a = await user();
    const b = await user();
    const options = await pub.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>(
      '/auth/passkeys/register/options',
      undefined,
      200,
      withSession(a.session.token),
    );
    const key = new SoftPasskey(ORIGIN);
    assertError(
      await pub.request('POST', '/auth/passkeys/register', { ...withSession(b.session.token), body: { response: key.register(options) } }),
      401,
      'invalid_credentials',
    );
    // The crossOrigin registration is refused too, and spends nothing of another's challenge.
    const own = await pub.post<{ challenge: string; rp: { id?: string }; user: { id: string } }>(
      '/auth/passkeys/register/options',
      undefined,
      200,
      withSession(a.session.token),
    );
    assertError(
      await pub.request('POST', '/auth/passkeys/register', {
        ...withSession(a.session.token),
        body: { response: new SoftPasskey(ORIGIN).register(own, { crossOrigin: true }) },
      }),
      401,
      'invalid_credentials',
    );
    clock.advance(10 * 60_000 + 1);
    assertError(await pub.request('POST', '/auth/passkeys/register/options', withSession(a.session.token)), 403, 'reauthentication_required');
  });

  test('a sign-in challenge is single use and lives 5 minutes', async () => {
    const { key } = await registered();
    const { challengeId, options } = await pub.post<{ challengeId: string; options: { challenge: string } }>('/auth/passkeys/sign-in/options', undefined, 200);
    const response = key.assert(options);
    assertStatus(await pub.request('POST', '/auth/passkeys/sign-in', { body: { challengeId, response } }), 200, 'first use');
    assertError(await pub.request('POST', '/auth/passkeys/sign-in', { body: { challengeId, response } }), 401, 'invalid_credentials');
    const late = await pub.post<{ challengeId: string; options: { challenge: string } }>('/auth/passkeys/sign-in/options', undefined, 200);
    clock.advance(5 * 60_000 + 1);
    assertError(
      await pub.request('POST', '/auth/passkeys/sign-in', { body: { challengeId: late.challengeId, response: key.assert(late.options) } }),
      401,
      'invalid_credentials',
    );
  });
});

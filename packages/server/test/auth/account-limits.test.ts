import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { forEachStore, missingServices, REDIS_URL } from '../helpers/stores.ts';
import { errorCode, startServer, useServer, type Response, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';

const PASSWORD = 'correct horse battery';
const redisMissing = await missingServices({ redis: true });

/** A client address nobody used yet (counters left in Redis by earlier runs cannot interfere). */
const freshIp = () => `10.${[...randomBytes(3)].join('.')}`;

/** A 429 as §0 and §5 describe it: `rate_limited`, `retryAfter` in the body and the same Retry-After header. */
function assertLimited(r: Response, why: string): void {
  assertError(r, 429, 'rate_limited', why);
  const retryAfter = (r.json as { retryAfter: number }).retryAfter;
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60, `${why}: retryAfter ${retryAfter}`);
  assert.equal(r.headers.get('retry-after'), String(retryAfter), why);
}

/**
 * API.md §2.1 "Per-account limits": 10 failed attempts per account and client IP per 15 minutes;
 * past that, 429 from that IP even with the right password; other IPs unaffected. The client IP
 * comes from X-Forwarded-For (TRUST_PROXY=true), so one test plays several addresses.
 */
forEachStore('auth: per-account limits of failed attempts', (kind) => {
  const t = useServer(kind, { env: { TRUST_PROXY: 'true' } });
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const signIn = (email: string, password: string, ip: string, key = t.db.publicKey, server: TestServer = t.server) =>
    apiClient(server, key).request('POST', '/auth/sign-in', { body: { email, password }, headers: { 'x-forwarded-for': ip } });
  /** change-password as the session `token`, from `ip`. */
  const changePassword = (token: string, currentPassword: string, ip: string, newPassword = 'a brand new password') =>
    pub.request('POST', '/auth/change-password', { body: { currentPassword, newPassword }, headers: { 'x-session-token': token, 'x-forwarded-for': ip } });
  const fail10 = async (call: (i: number) => Promise<Response>, status: number) => {
    for (let i = 0; i < 10; i += 1) assert.equal((await call(i)).status, status, `failure ${i + 1}`);
  };

  test('sign-in: 10 failures from one IP, then 429 there even with the right password; another IP signs in', async () => {
    const { server, db } = t;
    await newUser(server, db.secretKey, 'brute@example.com');
    const [attacker, owner] = [freshIp(), freshIp()];
    await fail10((i) => signIn('brute@example.com', `guess number ${i}`, attacker), 401);
    assertLimited(await signIn('Brute@Example.com', PASSWORD, attacker), 'the right password from the same IP');
    assertLimited(await signIn('brute@example.com', 'yet another guess', attacker), 'a wrong one too');
    assert.equal((await signIn('brute@example.com', PASSWORD, owner)).status, 200, 'another IP is not affected');
    assert.equal(errorCode(await signIn('brute@example.com', 'a guess', owner)), 'invalid_credentials', 'and has its own count');
    assert.equal((await signIn('other@example.com', 'a guess', attacker)).status, 401, 'another account from the same IP is not affected');
    const elsewhere = await server.createDatabase();
    await newUser(server, elsewhere.secretKey, 'brute@example.com');
    assert.equal(
      (await signIn('brute@example.com', PASSWORD, attacker, elsewhere.publicKey)).status,
      200,
      'the same e-mail in another database is another account',
    );
  });

  test('sign-in: only failures count, not successful sign-ins', async () => {
    await newUser(t.server, t.db.secretKey, 'busy@example.com');
    const ip = freshIp();
    for (let i = 0; i < 9; i += 1) assert.equal((await signIn('busy@example.com', `typo ${i}`, ip)).status, 401);
    for (let i = 0; i < 5; i += 1) assert.equal((await signIn('busy@example.com', PASSWORD, ip)).status, 200, `sign-in ${i + 1} after 9 failures`);
    assert.equal((await signIn('busy@example.com', 'typo 10', ip)).status, 401, 'the 10th failure is still checked');
    assertLimited(await signIn('busy@example.com', PASSWORD, ip), 'past 10 failures');
  });

  test('sign-in: an unknown account is limited the same way (a 429 tells nothing about existence)', async () => {
    const ip = freshIp();
    await fail10((i) => signIn('ghost@example.com', `guess ${i}`, ip), 401);
    assertLimited(await signIn('ghost@example.com', PASSWORD, ip), 'unknown account');
  });

  test('change-password: 10 wrong current passwords from one IP, then 429 with the right one; another IP changes it', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'stolen-session@example.com');
    const [thief, owner] = [freshIp(), freshIp()];
    await fail10((i) => changePassword(u.session.token, `guess ${i} guess`, thief), 400);
    assertLimited(await changePassword(u.session.token, PASSWORD, thief), 'the right current password from the same IP');
    assertLimited(await signIn('stolen-session@example.com', PASSWORD, thief), 'sign-in shares the count of the account');
    const other = (await signIn('stolen-session@example.com', PASSWORD, owner)).json as SignedIn;
    assert.equal((await changePassword(other.session.token, PASSWORD, owner)).status, 204, 'another IP is not affected');
  });

  test('change-password: a weak new password is not a failed guess', async () => {
    const u = await newUser(t.server, t.db.secretKey, 'weak-new@example.com');
    const ip = freshIp();
    for (let i = 0; i < 12; i += 1) assert.equal(errorCode(await changePassword(u.session.token, PASSWORD, ip, 'short')), 'weak_password');
    assert.equal((await changePassword(u.session.token, PASSWORD, ip)).status, 204);
  });

  test('with the Redis limiter, two instances share the count', { skip: redisMissing }, async () => {
    // Two instances on one store, so not useServer().
    const env = { TRUST_PROXY: 'true', REDIS_URL };
    const a = await startServer(kind, { redis: true, env });
    const b = await startServer(kind, { redis: true, env, db: a.db });
    try {
      const app = await a.createDatabase();
      await newUser(a, app.secretKey, 'shared@example.com');
      const ip = freshIp();
      for (let i = 0; i < 10; i += 1) assert.equal((await signIn('shared@example.com', `guess ${i}`, ip, app.publicKey, i % 2 ? a : b)).status, 401);
      assertLimited(await signIn('shared@example.com', PASSWORD, ip, app.publicKey, a), 'instance a');
      assertLimited(await signIn('shared@example.com', PASSWORD, ip, app.publicKey, b), 'instance b');
      assert.equal((await signIn('shared@example.com', PASSWORD, freshIp(), app.publicKey, b)).status, 200);
      // Successes are given back in Redis too: 9 failures and sign-ins leave room for a 10th failure.
      const other = freshIp();
      for (let i = 0; i < 9; i += 1) await signIn('shared@example.com', `guess ${i}`, other, app.publicKey, a);
      for (let i = 0; i < 3; i += 1) assert.equal((await signIn('shared@example.com', PASSWORD, other, app.publicKey, b)).status, 200);
      assert.equal((await signIn('shared@example.com', 'guess 10', other, app.publicKey, a)).status, 401);
      assertLimited(await signIn('shared@example.com', PASSWORD, other, app.publicKey, b), 'past 10 failures');
    } finally {
      await b.close();
      await a.close();
    }
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { forEachStore } from '../helpers/stores.ts';
import { startServer, useServer, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser, withSession } from '../helpers/auth-client.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import { addTotp, authenticator, codeAt } from '../helpers/mfa.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { totpStep } from '../../src/auth/mfa/totp.ts';

test('RFC 6238 appendix B (SHA-1) test vectors, through otpauth as the server configures it', () => {
  const seed = Secret.fromLatin1('12345678901234567890');
  const vectors: Array<[number, string]> = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  for (const [t, code] of vectors) {
    assert.equal(TOTP.generate({ secret: seed, algorithm: 'SHA1', digits: 8, period: 30, timestamp: t * 1000 }), code, `T=${t}`);
    // The server's check: 6 digits (the vector's last six), the step of T, and ±1 step only.
    assert.equal(totpStep(seed.base32, code.slice(-6), t * 1000), Math.floor(t / 30), `step of T=${t}`);
    assert.equal(totpStep(seed.base32, code.slice(-6), t * 1000 + 30_000), Math.floor(t / 30), 'the previous step is accepted');
    assert.equal(totpStep(seed.base32, code.slice(-6), t * 1000 + 90_000), undefined, 'two steps later it is not');
  }
});

/**
 * API.md §2.2 TOTP factors: enrolment, activation with recovery codes, listing, removal, new codes,
 * and no code accepted twice, also across two instances on one store. Real HTTP, a real SMTP
 * sink; the server runs on a ManualClock so each code belongs to a fresh 30-second step.
 */
forEachStore('auth: TOTP second factors', (kind) => {
  let sink: SmtpSink;
  const clock = new ManualClock();
  before(async () => {
    sink = await startSmtpSink();
  });
  const t = useServer(kind, () => ({ clock, databaseName: 'Totp App', env: { SMTP_URL: sink.url } }));
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  after(() => sink.close());

  /** A signed-up user whose e-mail the app's backend marked verified. */
  const verifiedUser = async (email: string) => {
    const u = await newUser(t.server, t.db.publicKey, email);
    await secret.patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    return u;
  };

  test('adding a factor needs a session, a verified e-mail and a session younger than 10 minutes', async () => {
    assertError(await pub.request('POST', '/auth/mfa/totp'), 401, 'invalid_session');
    const u = await newUser(t.server, t.db.publicKey, 'unverified@example.com');
    assertError(await pub.request('POST', '/auth/mfa/totp', withSession(u.session.token)), 403, 'email_not_verified');
    await secret.patch(`/auth/users/${u.user.id}`, { emailVerified: true });
    clock.advance(10 * 60_000 + 1000);
    assertError(await pub.request('POST', '/auth/mfa/totp', withSession(u.session.token)), 403, 'reauthentication_required');
    const again = await pub.post<{ session: { token: string } }>('/auth/sign-in', { email: 'unverified@example.com', password: 'correct horse battery' }, 200);
    await pub.post('/auth/mfa/totp', undefined, 201, withSession(again.session.token));
  });

  test('enrol → base32 secret of 160 bits and an otpauth URL; verify → 10 recovery codes once, a mail; list; a second factor → 409', async () => {
    const u = await verifiedUser('enrol@example.com');
    const s = withSession(u.session.token);
    const e = await pub.post<{ factorId: string; secret: string; otpauthUrl: string }>('/auth/mfa/totp', undefined, 201, s);
    assert.match(e.secret, /^[A-Z2-7]{32}$/, '160 bits in base32');
    const url = new URL(e.otpauthUrl);
    assert.equal(url.protocol, 'otpauth:');
    assert.equal(url.searchParams.get('issuer'), 'Totp App', "the database's name by default");
    assert.equal(url.searchParams.get('secret'), e.secret);
    const pending = await pub.get<{ factors: Array<{ verified: boolean }> }>('/auth/mfa', 200, s);
    assert.deepEqual(
      pending.factors.map((f) => f.verified),
      [false],
    );

    const device = authenticator(e.secret, clock);
    assertError(await pub.request('POST', '/auth/mfa/totp/verify', { ...s, body: { factorId: e.factorId, code: device.wrong() } }), 401, 'invalid_mfa_code');
    const code = device.next();
    const v = await pub.post<{ recoveryCodes: string[] }>('/auth/mfa/totp/verify', { factorId: e.factorId, code }, 200, s);
    assert.equal(v.recoveryCodes.length, 10);
    assert.equal(new Set(v.recoveryCodes).size, 10);
    const mail = await sink.next('enrol@example.com');
    assert.match(mail.subject ?? '', /second factor/i);

    const listed = await pub.request('GET', '/auth/mfa', s);
    assert.deepEqual((listed.json as { recoveryCodesLeft: number }).recoveryCodesLeft, 10);
    assert.deepEqual((listed.json as { factors: unknown[] }).factors, [
      { id: e.factorId, type: 'totp', createdAt: (listed.json as { factors: Array<{ createdAt: string }> }).factors[0].createdAt, verified: true },
    ]);
    assert.ok(!listed.text.includes(e.secret), 'never the secret');
    // Recovery codes are kept only as hashes.
    const stored = await t.server.db.store.all<{ code_hash: string }>('SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?', [u.user.id]);
    assert.equal(stored.length, 10);
    for (const rc of v.recoveryCodes) assert.ok(!stored.some((r) => r.code_hash.includes(rc.replace(/-/g, ''))));

    assertError(await pub.request('POST', '/auth/mfa/totp', s), 409, 'conflict');
    // The code that activated the factor does not work a second time.
    assertError(await pub.request('POST', '/auth/mfa/recovery-codes', { ...s, body: { code } }), 401, 'invalid_mfa_code');
  });

  test('the issuer is settings.auth.mfaIssuer when set; an unverified factor is replaced by a new enrolment', async () => {
    const op = apiClient(t.server, () => t.server.operatorToken());
    await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { auth: { mfaIssuer: 'Acme Shop' } } });
    const u = await verifiedUser('issuer@example.com');
    const s = withSession(u.session.token);
    const first = await pub.post<{ factorId: string; otpauthUrl: string }>('/auth/mfa/totp', undefined, 201, s);
    assert.equal(new URL(first.otpauthUrl).searchParams.get('issuer'), 'Acme Shop');
    const second = await pub.post<{ factorId: string }>('/auth/mfa/totp', undefined, 201, s);
    const list = await pub.get<{ factors: Array<{ id: string }> }>('/auth/mfa', 200, s);
    assert.deepEqual(
      list.factors.map((f) => f.id),
      [second.factorId],
    );
    await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { auth: { mfaIssuer: null } } });
  });

  test('new recovery codes replace the old ones; removing the factor with a recovery code makes sign-in one step again', async () => {
    const u = await verifiedUser('codes@example.com');
    const s = withSession(u.session.token);
    const f = await addTotp(t.server, t.db.publicKey, u.session.token, clock);
    const fresh = await pub.post<{ recoveryCodes: string[] }>('/auth/mfa/recovery-codes', { code: f.device.next() }, 200, s);
    assert.ok(fresh.recoveryCodes.every((c) => !f.recoveryCodes.includes(c)));
    assertError(await pub.request('DELETE', `/auth/mfa/${f.factorId}`, { ...s, body: { code: f.recoveryCodes[0] } }), 401, 'invalid_mfa_code');
    assertStatus(await pub.request('DELETE', `/auth/mfa/${f.factorId}`, { ...s, body: { code: fresh.recoveryCodes[3] } }), 204, 'DELETE /auth/mfa/:id');
    const after = await pub.get<{ factors: unknown[]; recoveryCodesLeft: number }>('/auth/mfa', 200, s);
    assert.deepEqual(after, { factors: [], recoveryCodesLeft: 0 });
    const signIn = await pub.post<{ session: { token: string }; mfa?: unknown }>(
      '/auth/sign-in',
      { email: 'codes@example.com', password: 'correct horse battery' },
      200,
    );
    assert.equal(signIn.mfa, undefined);
  });

  test('a code is accepted once across instances: the same code sent to two servers on one store at once succeeds on one only', async () => {
    const second: TestServer = await startServer(kind, { db: t.server.db, clock });
    try {
      const u = await verifiedUser('replay@example.com');
      const f = await addTotp(t.server, t.db.publicKey, u.session.token, clock);
      const code = f.device.next();
      const body = { code };
      const answers = await Promise.all(
        [t.server, second].map((srv) => apiClient(srv, t.db.publicKey).request('POST', '/auth/mfa/recovery-codes', { ...withSession(u.session.token), body })),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 401], answers.map((a) => a.text).join('\n'));
      // And later, on either instance, still refused.
      for (const srv of [t.server, second]) {
        assertError(
          await apiClient(srv, t.db.publicKey).request('POST', '/auth/mfa/recovery-codes', { ...withSession(u.session.token), body }),
          401,
          'invalid_mfa_code',
        );
      }
      // A code of an earlier step than the last accepted one is refused too (still within the ±1 window).
      const earlier = codeAt(f.secret, clock.now() - 30_000);
      assertError(await pub.request('POST', '/auth/mfa/recovery-codes', { ...withSession(u.session.token), body: { code: earlier } }), 401, 'invalid_mfa_code');
    } finally {
      await second.close();
    }
  });
});

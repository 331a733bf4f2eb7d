import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { OPERATOR, request, useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { codeAt, wrongCodeAt } from '../helpers/mfa.ts';
import { runSvc } from '../helpers/cli.ts';
import { Secret, TOTP } from 'otpauth';

/**
 * API.md §2.2 "Operators": a dashboard operator's TOTP factor, the two-step operator sign-in,
 * the caller's code to create another operator, and `svc operator reset-mfa`. The admin routes
 * run on the system clock, so each code is taken from a step the server has not seen yet: the
 * next step's code is accepted too (±1 step), which keeps the test from waiting 30 seconds.
 */
forEachStore('admin: operators with a second factor', (kind) => {
  const t = useServer(kind);
  const signIn = (body = OPERATOR) => request(t.server, 'POST', '/admin/sign-in', { body });
  /** Codes of successive steps from now on: the current one, then the next (both inside the window). */
  const codes = (secret: string) => {
    let step = 0;
    return () => codeAt(secret, Date.now() + 30_000 * step++);
  };

  test('enrol, verify, sign in with two steps, create an operator with the code, remove the factor, reset from the shell', async () => {
    const op = apiClient(t.server, () => t.server.operatorToken());
    const e = await op.post<{ factorId: string; secret: string; otpauthUrl: string }>('/admin/mfa/totp', undefined, 201);
    assert.equal(new URL(e.otpauthUrl).searchParams.get('issuer'), 'svc dashboard');
    const next = codes(e.secret);
    assertError(
      await op.request('POST', '/admin/mfa/totp/verify', { body: { factorId: e.factorId, code: wrongCodeAt(e.secret, Date.now()) } }),
      401,
      'invalid_mfa_code',
    );
    const { recoveryCodes } = await op.post<{ recoveryCodes: string[] }>('/admin/mfa/totp/verify', { factorId: e.factorId, code: next() }, 200);
    assert.equal(recoveryCodes.length, 10);
    const listed = await op.get<{ factors: Array<{ verified: boolean }>; recoveryCodesLeft: number }>('/admin/mfa');
    assert.deepEqual([listed.factors.map((f) => f.verified), listed.recoveryCodesLeft], [[true], 10]);

    // Two steps: no token from the password alone.
    const first = await signIn();
    assertStatus(first, 200, 'sign-in');
    const step = first.json as { token: null; mfa: { token: string; expiresAt: string } };
    assert.equal(step.token, null);
    assertError(
      await request(t.server, 'POST', '/admin/mfa/challenge', { body: { mfaToken: step.mfa.token, code: wrongCodeAt(e.secret, Date.now()) } }),
      401,
      'invalid_mfa_code',
    );
    const done = await request(t.server, 'POST', '/admin/mfa/challenge', { body: { mfaToken: step.mfa.token, recoveryCode: recoveryCodes[0] } });
    assertStatus(done, 200, 'challenge');
    const { token, operator } = done.json as { token: string; operator: { email: string } };
    assert.equal(operator.email, OPERATOR.email);
    assert.equal((await request(t.server, 'GET', '/admin/me', { key: token })).status, 200);
    // An operator's mfaToken is not an end user's, and the other way round.
    const again = (await signIn()).json as { mfa: { token: string } };
    assertError(
      await request(t.server, 'POST', '/auth/mfa/challenge', { key: t.db.publicKey, body: { mfaToken: again.mfa.token, recoveryCode: recoveryCodes[1] } }),
      401,
      'invalid_token',
    );

    // Creating another operator needs the caller's current code.
    const fresh = apiClient(t.server, token);
    const other = { email: 'second@svc.test', password: 'second-password-1' };
    assertError(await fresh.request('POST', '/admin/operators', { body: other }), 401, 'invalid_mfa_code');
    assertError(await fresh.request('POST', '/admin/operators', { body: { ...other, code: recoveryCodes[0] } }), 401, 'invalid_mfa_code');
    await fresh.post('/admin/operators', { ...other, code: recoveryCodes[2] }, 201);
    assert.equal(typeof ((await signIn(other)).json as { token: string }).token, 'string', 'the new operator has no factor: one step');

    // svc operator reset-mfa: the password alone signs in again.
    const run = await runSvc(t.server.db.url, ['operator', 'reset-mfa', '--email', OPERATOR.email]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Removed 1 second factor/);
    assert.equal(typeof ((await signIn()).json as { token: unknown }).token, 'string');
    assert.equal((await runSvc(t.server.db.url, ['operator', 'reset-mfa', '--email', 'nobody@svc.test'])).code !== 0, true);
  });

  test('removing the factor needs a current code; then sign-in is one step', async () => {
    const op = apiClient(t.server, () => t.server.operatorToken());
    const e = await op.post<{ factorId: string; secret: string }>('/admin/mfa/totp', undefined, 201);
    const totp = new TOTP({ secret: Secret.fromBase32(e.secret) });
    const at = Date.now();
    const code = totp.generate({ timestamp: at });
    await op.post('/admin/mfa/totp/verify', { factorId: e.factorId, code }, 200);
    assertError(await op.request('DELETE', `/admin/mfa/${e.factorId}`, { body: { code } }), 401, 'invalid_mfa_code');
    assertStatus(await op.request('DELETE', `/admin/mfa/${e.factorId}`, { body: { code: totp.generate({ timestamp: at + 30_000 }) } }), 204, 'remove');
    assert.equal(typeof ((await signIn()).json as { token: unknown }).token, 'string');
  });
});

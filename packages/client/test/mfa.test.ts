import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { ManualClock } from '../../server/src/infra/clock.ts';
import { fixture, type Fixture } from './helpers.ts';
import type { SignInResult } from '../src/index.ts';

// auth.mfa.* against the real server: enrol and verify an authenticator app, then a sign-in that
// answers `mfa` (nothing stored) completed by auth.mfa.challenge (the session stored). The server
// runs on a ManualClock so each code is of a new 30-second step.
const clock = new ManualClock();
let f: Fixture;
before(async () => {
  f = await fixture({ clock });
});
after(() => f.close());

const code = (secret: string) => {
  clock.advance(30_000);
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() });
};

test('auth.mfa: enrol, verify, list; signIn answers mfa and stores nothing; challenge signs in; a recovery code works once; remove', async () => {
  const app = f.browser();
  const { user } = await app.auth.signUp({ email: 'mfa@example.com', password: 'correct horse battery' });
  await f.admin().users.update(user.id, { emailVerified: true });
  const enrolment = await app.auth.mfa.enrolTotp();
  assert.ok(enrolment.otpauthUrl.startsWith('otpauth://totp/'));
  const recoveryCodes = await app.auth.mfa.verifyTotp({ factorId: enrolment.factorId, code: code(enrolment.secret) });
  assert.equal(recoveryCodes.length, 10);
  assert.equal((await app.auth.mfa.list()).recoveryCodesLeft, 10);
  await app.auth.signOut();

  const first: SignInResult = await app.auth.signIn({ email: 'mfa@example.com', password: 'correct horse battery' });
  assert.ok(first.mfa, 'a second step is due');
  assert.equal(first.user, null);
  assert.equal(await app.auth.getSession(), null, 'nothing stored before the second step');
  const done = await app.auth.mfa.challenge(first.mfa, { code: code(enrolment.secret) });
  assert.equal(done.user.id, user.id);
  assert.equal((await app.auth.getSession())?.token, done.session.token);
  assert.equal((await app.auth.getUser()).id, user.id);

  await app.auth.signOut();
  const again = await app.auth.signIn({ email: 'mfa@example.com', password: 'correct horse battery' });
  if (!again.mfa) assert.fail('a second step is due');
  await app.auth.mfa.challenge(again.mfa, { recoveryCode: recoveryCodes[0] });
  const third = await app.auth.signIn({ email: 'mfa@example.com', password: 'correct horse battery' });
  await assert.rejects(app.auth.mfa.challenge(third.mfa!, { recoveryCode: recoveryCodes[0] }), (e: { code?: string }) => e.code === 'invalid_mfa_code');

  assert.equal((await f.admin().users.get(user.id)).mfa, true);
  await app.auth.mfa.remove(enrolment.factorId, { code: code(enrolment.secret) });
  assert.equal((await f.admin().users.get(user.id)).mfa, false);
  const oneStep = await app.auth.signIn({ email: 'mfa@example.com', password: 'correct horse battery' });
  assert.equal(oneStep.mfa, undefined);
  assert.equal(oneStep.user?.id, user.id);
});

test('users.resetMfa (a support desk): the factor goes, the sessions end, sign-in is one step', async () => {
  const app = f.browser();
  const { user } = await app.auth.signUp({ email: 'desk@example.com', password: 'correct horse battery' });
  await f.admin().users.update(user.id, { emailVerified: true });
  const enrolment = await app.auth.mfa.enrolTotp();
  await app.auth.mfa.verifyTotp({ factorId: enrolment.factorId, code: code(enrolment.secret) });
  await f.admin().users.resetMfa(user.id);
  await assert.rejects(app.auth.getUser(), (e: { code?: string }) => e.code === 'invalid_session');
  const r = await app.auth.signIn({ email: 'desk@example.com', password: 'correct horse battery' });
  assert.equal(r.mfa, undefined);
});

test('handleRedirect with ?mfa_token= answers mfa and stores nothing', async () => {
  const app = f.browser();
  const r = await app.auth.handleRedirect({ url: 'http://localhost:5173/cb?mfa_token=abc', replaceState: false });
  assert.deepEqual(r, { user: null, session: null, mfa: { token: 'abc', expiresAt: '' } });
  assert.equal(await app.auth.getSession(), null);
});

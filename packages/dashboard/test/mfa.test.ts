import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { OPERATOR, request } from '../../server/test/helpers/server.ts';
import { chromiumAvailable, launch, watch } from './browser.ts';

// Two-step sign-in for operators in the dashboard (API.md §2.2 "Operators"), in Chromium against a
// real server (SQLite): enrol from the QR code page, sign out, sign in with the second step; the
// Users page shows who has MFA and resets it.
const run = chromiumAvailable();

let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let w: ReturnType<typeof watch>;

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-mfa-'));
  server = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`, RATE_LIMIT_PER_IP: '100000' });
  browser = await launch();
  page = await browser.newPage();
  w = watch(page);
});
after(async () => {
  await browser?.close();
  await server?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const signInWithPassword = async () => {
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

test("an operator enrols an authenticator app from a QR code, then signs in with the second step; the Users page resets a user's MFA", {
  skip: !run && 'Chromium is not installed',
}, async () => {
  await page.goto(`${server.url}/security`);
  await signInWithPassword();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await page.locator('.qr svg').waitFor();
  const secret = await page.getByLabel('Setup key', { exact: true }).inputValue();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const now = Date.now();
  await page.getByLabel('The 6-digit code the app shows now').fill(totp.generate({ timestamp: now }));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  await page.getByTestId('mfa-on').waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await signInWithPassword();
  await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
  // The next step's code: the one just used is refused (each code works once).
  await page.getByLabel('Code', { exact: true }).fill(totp.generate({ timestamp: now + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('link', { name: 'Two-step sign-in' }).waitFor();

  // A user with a factor, made through the API; the Users page shows it and resets it.
  const token = await page.evaluate(() => sessionStorage.getItem('svc.operatorToken'));
  const created = (await request(server, 'POST', '/admin/databases', { key: token!, body: { name: 'shop' } })).json as {
    database: { id: string };
    publicKey: { key: string };
    key: { key: string };
  };
  const up = (await request(server, 'POST', '/auth/sign-up', { key: created.publicKey.key, body: { email: 'ann@example.com', password: 'ann-password-1' } }))
    .json as {
    user: { id: string };
    session: { token: string };
  };
  await request(server, 'PATCH', `/auth/users/${up.user.id}`, { key: created.key.key, body: { emailVerified: true } });
  const headers = { 'x-session-token': up.session.token };
  const e = (await request(server, 'POST', '/auth/mfa/totp', { key: created.publicKey.key, headers })).json as { factorId: string; secret: string };
  const code = TOTP.generate({ secret: Secret.fromBase32(e.secret) });
  assert.equal(
    (await request(server, 'POST', '/auth/mfa/totp/verify', { key: created.publicKey.key, headers, body: { factorId: e.factorId, code } })).status,
    200,
  );

  await page.goto(`${server.url}/databases/${created.database.id}/users`);
  await page.getByTestId('mfa').filter({ hasText: 'on' }).waitFor();
  await page.getByRole('button', { name: 'Reset MFA of ann@example.com' }).click();
  await page.getByRole('button', { name: 'Reset MFA', exact: true }).click();
  await page.getByTestId('mfa').filter({ hasText: 'off' }).waitFor();
  const user = (await request(server, 'GET', `/auth/users/${up.user.id}`, { key: created.key.key })).json as { user: { mfa: boolean } };
  assert.equal(user.user.mfa, false);
  assert.deepEqual(w.errors, []);
});

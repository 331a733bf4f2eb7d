import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { OPERATOR, request } from '../../server/test/helpers/server.ts';
import { startSmtpSink, type SmtpSink } from '../../server/test/helpers/smtp-sink.ts';
import { chromiumAvailable, launch, watch } from './browser.ts';

// The OAuth provider cards and the E-mail card of a database's settings page, in Chromium against a real server (SQLite) and a real SMTP server.
const run = chromiumAvailable();
// The docs' screenshots are rewritten only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the
// checkout clean; otherwise they go beside the other test results.
const IMAGES = fileURLToPath(new URL(process.env.UPDATE_SCREENSHOTS ? '../../../docs/images/' : '../test-results/images/', import.meta.url));
const APPLE_PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const REDIRECT = 'http://localhost:5173/auth';

let server: ServerProcess;
let sink: SmtpSink;
let browser: Browser;
let page: Page;
let dir: string;
let w: ReturnType<typeof watch>;
let op = '';
let dbId = '';
let publicKey = '';

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-email-'));
  sink = await startSmtpSink();
  server = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`, RATE_LIMIT_PER_IP: '100000' });
  op = ((await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
  const created = (await request(server, 'POST', '/admin/databases', { key: op, body: { name: 'shop' } })).json as {
    database: { id: string };
    publicKey: { key: string };
  };
  dbId = created.database.id;
  publicKey = created.publicKey.key;
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  w = watch(page);
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Settings = { oauth: Record<string, Record<string, unknown>>; email?: Record<string, unknown> };
const settings = async () =>
  ((await request(server, 'GET', `/admin/databases/${dbId}`, { key: op })).json as { database: { settings: Settings } }).database.settings;
const save = async () => {
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();
};

test('settings: Apple (private key pasted, write-only) and Discord cards; the E-mail card sets the SMTP server, sender, name and a template', {
  skip: !run && 'Chromium is not installed',
}, async () => {
  await page.goto(`${server.url}/databases/${dbId}/settings`);
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Apple sign-in' }).waitFor();

  // The providers other than Google and GitHub are folded until configured.
  assert.equal(await page.locator('input[name=appleClientId]').isVisible(), false);
  await page.getByText('Apple sign-in').click();
  await page.getByText('Discord sign-in').click();
  await page.getByText('/v1/auth/oauth/apple/callback').waitFor();
  await page.locator('input[name=appleClientId]').fill('com.shop.web');
  await page.locator('input[name=appleTeamId]').fill('TEAM123456');
  await page.locator('input[name=appleKeyId]').fill('KEY1234567');
  await page.locator('textarea[name=applePrivateKey]').fill(APPLE_PEM);
  await page.locator('input[name=discordClientId]').fill('discord-id');
  await page.locator('input[name=discordClientSecret]').fill('discord-secret-value-123');
  await page.locator('input[name=redirectUrls], textarea[name=redirectUrls]').fill(REDIRECT);

  const card = page.locator('section.email-settings');
  await card.locator('input[name=smtpUrl]').fill(`${sink.url.replace('smtp://', 'smtp://mailer:pw-in-url-987@')}`);
  await card.getByLabel('Sender').fill('Shop <hello@shop.test>');
  await card.getByLabel(/Application name/).fill('Shop & Co');
  await card.getByRole('tab', { name: 'Magic link' }).click();
  await card.getByLabel('Subject').fill('Your {APP_NAME} link');
  await card.getByLabel('HTML').fill('<p>Welcome to {APP_NAME}</p><a href="{ACTION_URL}">Sign in</a>');
  await save();

  const saved = await settings();
  assert.deepEqual(saved.oauth.apple, { clientId: 'com.shop.web', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKeySet: true });
  assert.deepEqual(saved.oauth.discord, { clientId: 'discord-id', clientSecretSet: true });
  assert.equal(saved.oauth.facebook, undefined, 'a provider left empty is not saved');
  assert.deepEqual(saved.email, {
    smtpUrlSet: true,
    from: 'Shop <hello@shop.test>',
    appName: 'Shop & Co',
    templates: { magicLink: { subject: 'Your {APP_NAME} link', html: '<p>Welcome to {APP_NAME}</p><a href="{ACTION_URL}">Sign in</a>' } },
  });
  await page.reload();
  await page.getByRole('heading', { name: 'Apple sign-in' }).waitFor();
  assert.equal(await page.locator('textarea[name=applePrivateKey]').isVisible(), true, 'a configured provider is open');
  assert.equal(await page.locator('input[name=facebookClientId]').isVisible(), false, 'an unconfigured one stays folded');
  assert.equal(await page.locator('textarea[name=applePrivateKey]').inputValue(), '');
  assert.match((await page.locator('section.email-settings input[name=smtpUrl]').getAttribute('placeholder')) ?? '', /leave empty to keep/);
  const html = await page.content();
  for (const secret of ['PRIVATE KEY', 'pw-in-url-987', 'discord-secret-value-123']) assert.ok(!html.includes(secret), `${secret} is not on the page`);
  mkdirSync(IMAGES, { recursive: true });
  await page.locator('section.email-settings').screenshot({ path: join(IMAGES, 'dashboard-email-settings.png') });

  // The next magic link goes out through the database's SMTP server in its wording.
  const sent = await request(server, 'POST', '/auth/magic-link', { key: publicKey, body: { email: 'buyer@example.com', redirectUrl: REDIRECT } });
  assert.equal(sent.status, 202, sent.text);
  const mail = await sink.next('buyer@example.com');
  assert.equal(mail.subject, 'Your Shop & Co link');
  assert.ok(String(mail.html).includes('Welcome to Shop &amp; Co'));

  // A body without the link is refused in words, at its path; nothing is stored.
  const card2 = page.locator('section.email-settings');
  await card2.getByRole('tab', { name: 'Reset password' }).click();
  await card2.getByLabel('Text').fill('No link here');
  await w.expectHttpErrors(async () => {
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: '/settings/email/templates/resetPassword/text' }).waitFor();
  });
  assert.equal((await settings()).email?.templates && 'resetPassword' in ((await settings()).email!.templates as object), false);

  // Emptying a part gives svc's wording back; removing the SMTP server goes back to the server's.
  await card2.getByLabel('Text').fill('');
  await card2.getByRole('tab', { name: 'Magic link' }).click();
  await card2.getByLabel('Subject').fill('');
  await save();
  assert.deepEqual((await settings()).email?.templates, { magicLink: { html: '<p>Welcome to {APP_NAME}</p><a href="{ACTION_URL}">Sign in</a>' } });
  await page.getByRole('button', { name: 'Remove the saved SMTP server' }).click();
  await page.getByText('SMTP server removed.').waitFor();
  assert.equal((await settings()).email?.smtpUrlSet, false);
  assert.deepEqual(w.errors, []);
});

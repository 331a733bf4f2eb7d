import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { request } from '../../server/test/helpers/server.ts';
import { startSmtpSink, type SmtpSink } from '../../server/test/helpers/smtp-sink.ts';
import { chromiumAvailable, jsonEditor, launch, screenshots, watch } from './browser.ts';

// One scripted walk through every page against a real server process (fresh SQLite), in order:
// each test continues where the previous one left the browser.
const run = chromiumAvailable();
const OPERATOR = { email: 'owner@example.com', password: 'owner-password-1' };

let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let hooks: Server;
let hookUrl: string;
let hookRequests = 0;
/** Where the server's mails go (the Users page sends password resets). */
let sink: SmtpSink;
let w: ReturnType<typeof watch>;
let s: ReturnType<typeof screenshots>;
/** Secrets shown once: none may appear in the page after its dialog closed. */
const secrets: Array<{ what: string; value: string }> = [];
let dbId = '';
let secretKey = '';
let firstPublicKey = '';

const html = () => page.content();
/** Asserts that no secret shown so far is anywhere in the page's HTML, storage or text. */
async function assertNoSecretShown(where: string) {
  const content = await html();
  const storage = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
  for (const { what, value } of secrets) {
    assert.ok(!content.includes(value), `${what} is in the page again (${where})`);
    assert.ok(!storage.includes(value), `${what} is in browser storage (${where})`);
  }
}
/** Clicks a button until `check` passes (for results that arrive later, like webhook deliveries). */
async function until(check: () => Promise<boolean>, refresh: () => Promise<unknown>, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(300);
    await refresh();
  }
}
const button = (name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });
const dialog = () => page.locator('dialog[open]').last();

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-'));
  // A webhook receiver that fails twice (500), then answers 200.
  hooks = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hookRequests += 1;
      res.writeHead(hookRequests <= 2 ? 500 : 200, { 'content-type': 'text/plain' }).end(hookRequests <= 2 ? 'receiver is down' : 'ok');
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
  sink = await startSmtpSink();
  server = await startProcess({
    DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`,
    SVC_ADMIN_EMAIL: '',
    SVC_ADMIN_PASSWORD: '',
    SMTP_URL: sink.url,
    EMAIL_FROM: 'svc <auth@svc.test>',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_RETRY_BASE_MS: '300',
    WEBHOOK_MAX_ATTEMPTS: '2',
    RATE_LIMIT_PER_IP: '100000',
  });
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  w = watch(page);
  s = screenshots(page);
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  await new Promise((r) => hooks?.close(r));
  await sink?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('first run: a wrong setup token is refused in words; the token from the log creates the operator', {
  skip: !run && 'Chromium is not installed',
}, async () => {
  let token: string | undefined;
  for (let i = 0; i < 50 && !token; i++) {
    token = /svc_setup_[A-Za-z0-9]{32}/.exec(server.output())?.[0];
    if (!token) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(token, `the server printed no setup token:\n${server.output()}`);
  await page.goto(server.url);
  await button('Set up this instance').click();
  await page.getByLabel('Setup token').fill('svc_setup_wrongwrongwrongwrongwrongwrong12');
  await page.getByLabel('Your e-mail').fill(OPERATOR.email);
  await page.getByLabel(/^Password/).fill(OPERATOR.password);
  await w.expectHttpErrors(async () => {
    await button('Create operator and sign in').click();
    await page.getByRole('alert').filter({ hasText: 'setup token is wrong' }).waitFor();
  });
  await s.shot('setup-wrong-token');
  await page.getByLabel('Setup token').fill(token);
  await button('Create operator and sign in').click();
  await page.getByText('No databases yet.').waitFor();
  await s.shot('databases-empty');
  const signedIn = await page.evaluate(() => sessionStorage.getItem('svc.operatorToken'));
  assert.match(signedIn ?? '', /^svc_op_/, 'the operator token is in sessionStorage');
  assert.equal(await page.evaluate(() => localStorage.length), 0);
});

test('databases: create shows the first secret key once with a copy button; rename; delete by typing the name', { skip: !run }, async () => {
  await button('Create your first database').click();
  await dialog().getByLabel('Name').fill('shop');
  await dialog().getByRole('button', { name: 'Create' }).click();
  const value = await page.locator('.secret-value').inputValue();
  assert.match(value, /^svc_sk_[A-Za-z0-9]{32,}$/);
  secretKey = value;
  const told = await dialog().innerText();
  assert.ok(told.includes("You won't see it again"));
  assert.match(told, /stores only a hash of it/, 'says truly how a secret key is kept');
  await dialog().getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog()
    .getByText(/Copied|copy it with Ctrl\+C/)
    .waitFor();
  await s.shot('database-created-key-once');
  firstPublicKey = await dialog().getByLabel('Public key', { exact: true }).inputValue();
  assert.match(firstPublicKey, /^svc_pk_[A-Za-z0-9]{32,}$/, 'creating a database also shows its first public key');
  await dialog().getByRole('button', { name: "I've copied it" }).click();
  secrets.push({ what: 'the first secret key', value });
  await assertNoSecretShown('after the first key dialog closed');

  await button('Rename shop').click();
  await dialog().getByLabel('New name').fill('shop-prod');
  await dialog().getByRole('button', { name: 'Save' }).click();
  await page.getByRole('link', { name: 'shop-prod' }).waitFor();

  await button('New database').click();
  await dialog().getByLabel('Name').fill('scratch');
  await dialog().getByRole('button', { name: 'Create' }).click();
  secrets.push({ what: 'the scratch database key', value: await page.locator('.secret-value').inputValue() });
  await dialog().getByRole('button', { name: 'Close' }).click();
  await assertNoSecretShown('after closing with ×');
  await s.shot('databases-list');
  await button('Delete scratch').click();
  const confirm = dialog().getByRole('button', { name: 'Delete forever' });
  assert.equal(await confirm.isDisabled(), true, 'disabled until the name is typed');
  await dialog()
    .getByLabel(/Type scratch to confirm/)
    .fill('scratc');
  assert.equal(await confirm.isDisabled(), true);
  await dialog()
    .getByLabel(/Type scratch to confirm/)
    .fill('scratch');
  await s.shot('database-delete-confirm');
  await confirm.click();
  await page.getByRole('link', { name: 'scratch' }).waitFor({ state: 'detached' });
  const dbs = (await request(server, 'GET', '/admin/databases', { key: (await page.evaluate(() => sessionStorage.getItem('svc.operatorToken')))! })).json as {
    databases: Array<{ id: string; name: string }>;
  };
  assert.deepEqual(
    dbs.databases.map((d) => d.name),
    ['shop-prod'],
  );
  dbId = dbs.databases[0].id;
});

test('keys: a secret key shown once, a public key any time with a copy button; hints, last used; revoke', { skip: !run }, async () => {
  await request(server, 'GET', '/collections', { key: secretKey }); // so "last used" has a value
  await page.waitForTimeout(1200); // last-used times are written in batches
  await page.getByRole('link', { name: 'Keys' }).first().click();
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  const hint = `${secretKey.slice(0, 7)}…${secretKey.slice(-4)}`;
  await page.getByText(hint).waitFor();
  // The database's first public key is listed whole, with a copy button.
  const firstField = page.getByRole('textbox', { name: 'public key default' });
  assert.equal(await firstField.inputValue(), firstPublicKey, 'the first public key is in the list, whole');
  const firstRow = page.locator('tr', { has: firstField });
  await firstRow.getByRole('button', { name: 'Copy public key default' }).click();
  await firstRow.getByText(/Copied|copy it with Ctrl\+C/).waitFor();
  await button('New key').click();
  await dialog()
    .getByLabel(/Public: for browsers/)
    .check();
  await dialog().getByLabel(/Name/).fill('web app');
  await dialog().getByRole('button', { name: 'Create key' }).click();
  const pub = await dialog().getByLabel('Public key', { exact: true }).inputValue();
  assert.match(pub, /^svc_pk_/);
  assert.ok(!(await dialog().innerText()).includes("You won't see it again"), 'a public key is not presented as a secret');
  await s.shot('public-key-created');
  await dialog().getByRole('button', { name: 'Done' }).click();
  await assertNoSecretShown('keys page after the dialog');
  const row = page.locator('tr', { hasText: 'web app' });
  assert.match(await row.innerText(), /public/);
  assert.equal(await row.locator('input.public-value').inputValue(), pub, 'the new public key is listed whole');
  // A secret key made here is shown once only.
  await button('New key').click();
  await dialog().getByRole('button', { name: 'Create key' }).click();
  const extraSecret = await page.locator('.secret-value').inputValue();
  assert.match(extraSecret, /^svc_sk_/);
  await dialog().getByRole('button', { name: "I've copied it" }).click();
  secrets.push({ what: 'a secret key made on the keys page', value: extraSecret });
  await assertNoSecretShown('keys page after a secret key was made');
  await row.getByRole('button', { name: /^Revoke/ }).click();
  await dialog().getByRole('button', { name: 'Revoke' }).click();
  await row.getByText('revoked').waitFor();
  assert.equal((await request(server, 'GET', '/collections', { key: pub })).status, 401, 'a revoked key stops working');
  await page.reload();
  await page.getByText(hint).waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'public key default' }).inputValue(), firstPublicKey, 'shown again after a reload');
  await assertNoSecretShown('keys page after a reload');
  await s.shot('keys');
});

test('documents: collections with counts, paged sortable table, filter, JSON editor with validation, insert, delete', { skip: !run }, async () => {
  const docs = Array.from({ length: 25 }, (_, i) => ({
    title: `Post ${i + 1}`,
    score: (i * 7) % 25,
    status: i % 3 === 0 ? 'open' : 'closed',
    author: { name: i % 2 ? 'ann' : 'bob' },
  }));
  assert.equal((await request(server, 'POST', '/posts/bulk', { key: secretKey, body: { documents: docs } })).status, 201);
  await page.getByRole('link', { name: 'Documents' }).click();
  const posts = page.getByRole('link', { name: /posts\s*25/ });
  await posts.click();
  await page.getByText('1–20 of 25').waitFor();
  await s.shot('documents');
  await button('Next ›').click();
  await page.getByText('21–25 of 25').waitFor();

  await page.getByRole('button', { name: 'score' }).click();
  await page.getByRole('button', { name: 'score ▲' }).click();
  await page.getByRole('button', { name: 'score ▼' }).waitFor();
  await page.getByText('1–20 of 25').waitFor();
  // Sorted by score, descending: the highest score (24) comes first.
  await page.locator('table.docs tbody tr').first().locator('td').nth(2).filter({ hasText: /^24$/ }).waitFor();
  await page.locator('[aria-busy=true]').waitFor({ state: 'detached' });

  await page.getByLabel(/^Filter/).fill('{"status":"open","score":{"$gte":5}}');
  await button('Apply').click();
  const expected = docs.filter((d) => d.status === 'open' && d.score >= 5).length;
  await page.getByText(`1–${expected} of ${expected}`).waitFor();
  await s.shot('documents-filtered');
  await page.getByLabel(/^Filter/).fill('{"status":');
  await button('Apply').click();
  await page.getByRole('alert').filter({ hasText: 'must be a JSON object' }).waitFor();
  await w.expectHttpErrors(async () => {
    await page.getByLabel(/^Filter/).fill('{"score":{"$regex":"x"}}');
    await button('Apply').click();
    await page
      .getByRole('alert')
      .filter({ hasText: /operator|\$regex/i })
      .waitFor();
  });
  await button('Clear').click();
  await page.getByText('1–20 of 25').waitFor();

  const top = page.locator('table.docs tbody tr').first();
  const id = await top.locator('td').first().innerText();
  await top.getByRole('button', { name: /^Open/ }).click();
  const editor = jsonEditor(dialog(), /^Fields/);
  const original = JSON.parse(await editor.text()) as Record<string, unknown>;
  await editor.fill('{"title": "broken",');
  await dialog()
    .getByText(/Not valid JSON/)
    .waitFor();
  assert.equal(await dialog().getByRole('button', { name: 'Save changes' }).isDisabled(), true);
  await s.shot('document-editor-invalid');
  const edited = { ...original, title: 'Edited in the dashboard', tags: ['a', 'b'] };
  delete edited.status;
  await editor.fill(JSON.stringify(edited));
  await dialog().getByText('Valid JSON object').waitFor();
  await dialog().getByRole('button', { name: 'Format' }).click();
  await dialog().getByRole('button', { name: 'Save changes' }).click();
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
  await page.getByText('Edited in the dashboard').waitFor();
  const saved = (await request(server, 'GET', `/posts/docs/${id}`, { key: secretKey })).json as Record<string, unknown>;
  assert.equal(saved.title, 'Edited in the dashboard');
  assert.deepEqual(saved.tags, ['a', 'b']);
  assert.ok(!('status' in saved), 'a field removed in the editor is removed');

  await button('Insert document').click();
  await jsonEditor(dialog(), /^Fields/).fill('{"id": "hello-world", "title": "Inserted", "score": 100}');
  await dialog().getByRole('button', { name: 'Insert' }).click();
  await page.getByRole('link', { name: /posts\s*26/ }).waitFor();
  await page.getByRole('button', { name: 'Delete hello-world' }).click();
  await dialog().getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('link', { name: /posts\s*25/ }).waitFor();
  assert.equal((await request(server, 'GET', '/posts/docs/hello-world', { key: secretKey })).status, 404);
});

test('rules: the default shown, JSON and server errors beside the editor, a summary in words, saved rules come back', { skip: !run }, async () => {
  await page.getByRole('link', { name: 'Rules', exact: true }).click();
  await page.getByRole('heading', { name: 'Access rules' }).waitFor();
  const editor = jsonEditor(page, 'Rules (JSON)');
  await editor.waitFor();
  assert.deepEqual(JSON.parse(await editor.text()), { '*': { read: true } }, 'no rules set: the default');
  const summary = page.getByTestId('rules-summary');
  await page.getByLabel('Collection').selectOption('posts');
  await summary.getByText('Read: anyone with the public key').waitFor();
  assert.match(await summary.innerText(), /Create: nobody with the public key \(secret key only\)/);

  await editor.fill('{"posts": {"read": tru');
  await page.getByText(/Not valid JSON/).waitFor();
  assert.equal(await button('Save rules').isDisabled(), true, 'invalid JSON is not sent');
  await editor.fill(JSON.stringify({ posts: { read: { owner: { $auth: 'name' } } }, '*': { read: true } }, null, 2));
  await summary.getByText(/^Read: not a valid rule/).waitFor();
  await w.expectHttpErrors(async () => {
    await button('Save rules').click();
    await page.getByRole('list', { name: 'Problems the server found' }).filter({ hasText: '/posts/read' }).filter({ hasText: 'not a $auth field' }).waitFor();
  });
  await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
  await s.shot('rules-invalid');

  // The example of API.md §10.
  const own = { owner: { $auth: 'id' } };
  const rules = {
    todos: { defaults: { owner: { $auth: 'id' } }, read: own, create: own, update: own, delete: own },
    posts: { read: true, create: { authorId: { $auth: 'id' } }, update: false },
    '*': { read: true },
  };
  await editor.fill(JSON.stringify(rules));
  await page.getByText('Unsaved changes').waitFor();
  await button('Save rules').click();
  await page.getByText('Rules saved. They apply at once.').waitFor();
  assert.equal(await page.getByRole('list', { name: 'Problems the server found' }).count(), 0, 'the problems are gone once saved');
  await page.reload();
  await editor.waitFor();
  assert.deepEqual(JSON.parse(await editor.text()), rules, 'the saved rules come back after a reload');
  await page.getByLabel('Collection').selectOption('posts');
  assert.deepEqual(
    (await summary.innerText())
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
    [
      'Read: anyone with the public key',
      'Create: signed-in users, when authorId equals their user id',
      'Update: nobody with the public key (secret key only)',
      'Delete: nobody with the public key (secret key only)',
    ],
  );
  await page.getByLabel('Collection').selectOption('todos');
  await summary.getByText('Read: signed-in users, when owner equals their user id').waitFor();
  await summary.getByText('A create with the public key fills in, when it lacks them: owner = their user id').waitFor();
  await page.getByLabel('Collection').selectOption('*');
  await summary.getByText('Read: anyone with the public key').waitFor();
  await s.shot('rules');
  const stored = await request(server, 'GET', '/rules', { key: secretKey });
  assert.deepEqual(stored.json, { rules }, 'GET /v1/rules with the secret key answers the rules saved in the dashboard');
});

test('users: list, search by e-mail prefix, view, sign out everywhere, app metadata, mark verified, password reset, disable and enable, delete', {
  skip: !run,
}, async () => {
  const sessions: Record<string, string> = {};
  for (const email of ['ann@example.com', 'bob@example.com', 'carol@example.org']) {
    const r = await request(server, 'POST', '/auth/sign-up', { key: secretKey, body: { email, password: 'user-password-1', name: email.split('@')[0] } });
    sessions[email] = (r.json as { session: { token: string } }).session.token;
  }
  const asApp = async (path: string) => (await request(server, 'GET', path, { key: secretKey })).json as { user: Record<string, unknown> };
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('cell', { name: 'carol@example.org', exact: true }).waitFor();
  await s.shot('users');
  await page.getByLabel('Search by e-mail').fill('BOB');
  await button('Search').click();
  await page.getByRole('cell', { name: 'ann@example.com', exact: true }).waitFor({ state: 'detached' });
  assert.equal(await page.locator('tbody tr').count(), 1);
  await button('View bob@example.com').click();
  await dialog().getByTestId('active-sessions').filter({ hasText: '1' }).waitFor();
  const bobId = (await dialog().locator('dd.mono').innerText()).trim();
  await s.shot('user-view');
  await dialog().getByRole('button', { name: 'Sign out everywhere' }).click();
  await dialog().getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByTestId('active-sessions').filter({ hasText: '0' }).waitFor();
  await page.getByText('Ended 1 session.').waitFor();
  const me = await request(server, 'GET', '/auth/me', { key: secretKey, headers: { 'x-session-token': sessions['bob@example.com'] } });
  assert.equal(me.status, 401);

  // appMetadata: a JSON editor that refuses what is not an object, saved through PATCH /auth/users/:id.
  const metadata = jsonEditor(page, /App metadata/);
  assert.deepEqual(JSON.parse(await metadata.text()), {});
  await metadata.fill('["editor"]');
  await page.getByText('App metadata must be a JSON object').waitFor();
  await metadata.fill('{ "role": "editor", "team": "north" }');
  await page.getByRole('button', { name: 'Save app metadata' }).click();
  await page.getByText('App metadata saved.').waitFor();
  assert.deepEqual((await asApp(`/auth/users/${bobId}`)).user.appMetadata, { role: 'editor', team: 'north' });

  await page.getByRole('button', { name: 'Mark verified' }).click();
  await page.getByTestId('verified').filter({ hasText: 'yes' }).waitFor();
  assert.equal((await asApp(`/auth/users/${bobId}`)).user.emailVerified, true);

  await page.getByRole('button', { name: 'Send password reset' }).click();
  await dialog().getByLabel('The link opens').fill('http://localhost:5173/reset');
  await dialog().getByRole('button', { name: 'Send e-mail' }).click();
  await page.getByText('Password-reset e-mail sent to bob@example.com.').waitFor();
  const mail = await sink.next('bob@example.com');
  assert.match(mail.text ?? '', /http:\/\/localhost:5173\/reset\?token=/);

  const bobIn = await request(server, 'POST', '/auth/sign-in', { key: secretKey, body: { email: 'bob@example.com', password: 'user-password-1' } });
  assert.equal(bobIn.status, 200);
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  await dialog().getByRole('button', { name: 'Disable user' }).click();
  await page.getByTestId('status').filter({ hasText: 'disabled' }).waitFor();
  await s.shot('user-disabled');
  const bobSession = (bobIn.json as { session: { token: string } }).session.token;
  assert.equal((await request(server, 'GET', '/auth/me', { key: secretKey, headers: { 'x-session-token': bobSession } })).status, 401, 'signed out at once');
  const refused = await request(server, 'POST', '/auth/sign-in', { key: secretKey, body: { email: 'bob@example.com', password: 'user-password-1' } });
  assert.equal((refused.json as { error: { code: string } }).error.code, 'invalid_credentials');
  await dialog().getByRole('button', { name: 'Close', exact: true }).first().click();
  await page.getByRole('cell', { name: 'disabled', exact: true }).waitFor();
  await button('View bob@example.com').click();
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await page.getByTestId('status').filter({ hasText: 'active' }).waitFor();
  assert.equal(
    (await request(server, 'POST', '/auth/sign-in', { key: secretKey, body: { email: 'bob@example.com', password: 'user-password-1' } })).status,
    200,
  );
  await dialog().getByRole('button', { name: 'Close', exact: true }).first().click();

  await button('Clear').click();
  await button('Delete carol@example.org').click();
  await dialog().getByRole('button', { name: 'Delete user' }).click();
  await page.getByRole('cell', { name: 'carol@example.org', exact: true }).waitFor({ state: 'detached' });
  await page.getByLabel('Search by e-mail').fill('example.com');
  await button('Search').click();
  await page.getByText("No user's e-mail starts with “example.com”.").waitFor();
});

test('webhooks: create (secret once), send test, failed deliveries with the attempt log, retry, edit, disable, rotate', { skip: !run }, async () => {
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByText(/No webhooks/).waitFor();
  await button('New webhook').click();
  await dialog().getByLabel('URL').fill(hookUrl);
  await dialog()
    .getByLabel(/Collections/)
    .fill('posts');
  await dialog()
    .getByLabel(/Description/)
    .fill('orders sync');
  await dialog().getByRole('button', { name: 'Create webhook' }).click();
  const secret = await page.locator('.secret-value').inputValue();
  assert.match(secret, /^whsec_/);
  const told = await dialog().innerText();
  assert.match(told, /stores it in clear, because it signs every delivery with it/, 'says truly how a webhook secret is kept');
  assert.match(told, /shown now so you can configure your receiver/);
  assert.doesNotMatch(told, /hint|hash/, 'a webhook secret is not said to be hashed');
  await s.shot('webhook-created-secret-once');
  await dialog().getByRole('button', { name: "I've copied it" }).click();
  secrets.push({ what: 'the webhook secret', value: secret });
  await page.getByRole('heading', { name: hookUrl }).waitFor();
  await assertNoSecretShown('webhook page');

  await button('Send test event').click();
  const refresh = () => page.getByRole('button', { name: 'Refresh' }).first().click();
  await until(async () => (await page.locator('tbody .badge.failed').count()) > 0, refresh, 'the test delivery to fail twice');
  await page
    .getByRole('button', { name: /^Attempts of delivery/ })
    .first()
    .click();
  await dialog().getByText('receiver is down').first().waitFor();
  assert.equal(await dialog().locator('tbody tr').count(), 2, 'two attempts logged');
  await s.shot('webhook-delivery-attempt-log');
  await dialog().getByRole('button', { name: 'Retry' }).click();
  await until(
    async () => (await dialog().locator('.badge.succeeded').count()) > 0,
    () => dialog().getByRole('button', { name: 'Refresh' }).click(),
    'the retry to succeed',
  );
  assert.equal(await dialog().locator('tbody tr').count(), 3);
  await dialog().getByRole('button', { name: 'Close', exact: true }).last().click();
  await until(async () => (await page.locator('tbody .badge.succeeded').count()) > 0, refresh, 'the list to show success');
  await s.shot('webhook-deliveries');

  await button('Edit').click();
  await dialog()
    .getByLabel(/Description/)
    .fill('orders sync v2');
  await dialog().getByLabel('document.deleted').uncheck();
  await dialog().getByRole('button', { name: 'Save' }).click();
  await page.getByText('orders sync v2').waitFor();
  await page.getByText('document.created, document.updated').first().waitFor();
  await button('Disable').click();
  await page.locator('.page-head .badge', { hasText: 'disabled' }).waitFor();
  await button('Enable').click();
  await page.locator('.page-head .badge', { hasText: 'enabled' }).waitFor();

  await button('Rotate secret').click();
  await dialog().getByRole('button', { name: 'Rotate' }).click();
  await dialog().getByRole('heading', { name: 'New signing secret' }).waitFor();
  const rotated = await page.locator('.secret-value').inputValue();
  assert.match(rotated, /^whsec_/);
  assert.notEqual(rotated, secret);
  await dialog().getByRole('button', { name: "I've copied it" }).click();
  secrets.push({ what: 'the rotated webhook secret', value: rotated });
  await assertNoSecretShown('after rotating');
  await page.getByRole('link', { name: '‹ Webhooks' }).click();
  await page.getByRole('link', { name: hookUrl }).waitFor();
  await assertNoSecretShown('webhook list');
  await s.shot('webhooks');
});

test('settings: redirect URLs, site URL, OAuth client ids; client secrets are write-only once saved', { skip: !run }, async () => {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel(/Allowed redirect URLs/).fill('https://app.example.com/auth\nhttps://admin.example.com/');
  await page.getByLabel(/Site URL/).fill('https://app.example.com');
  assert.equal(await page.locator('input[name=allowSignUp]').isChecked(), true, 'sign-up is open by default');
  await page.locator('input[name=allowSignUp]').uncheck();
  await page.locator('input[name=googleClientId]').fill('google-client-id.apps');
  const clientSecret = 'GOCSPX-dashboard-test-secret-1234';
  await page.locator('input[name=googleClientSecret]').fill(clientSecret);
  await w.expectHttpErrors(async () => {
    await page.getByLabel(/Site URL/).fill('not a url');
    await page.locator('form.settings').evaluate((f: HTMLFormElement) => (f.noValidate = true));
    await button('Save settings').click();
    await page.getByRole('alert').filter({ hasText: 'siteUrl' }).waitFor();
  });
  await page.getByLabel(/Site URL/).fill('https://app.example.com');
  await button('Save settings').click();
  await page.getByText('Settings saved.').waitFor();
  secrets.push({ what: 'the Google client secret', value: clientSecret });
  assert.equal(await page.locator('input[name=googleClientSecret]').inputValue(), '');
  await page.reload();
  await page.locator('input[name=googleClientSecret]').waitFor();
  assert.match((await page.locator('input[name=googleClientSecret]').getAttribute('placeholder')) ?? '', /leave empty to keep/);
  assert.equal(await page.locator('input[name=googleClientId]').inputValue(), 'google-client-id.apps');
  await assertNoSecretShown('settings after saving');
  await s.shot('settings');
  const op = (await page.evaluate(() => sessionStorage.getItem('svc.operatorToken')))!;
  const db = (await request(server, 'GET', `/admin/databases/${dbId}`, { key: op })).json as { database: { settings: Record<string, unknown> } };
  assert.deepEqual(db.database.settings, {
    redirectUrls: ['https://app.example.com/auth', 'https://admin.example.com/'],
    siteUrl: 'https://app.example.com',
    oauth: { google: { clientId: 'google-client-id.apps', clientSecretSet: true }, github: { clientId: null, clientSecretSet: false } },
    auth: { allowSignUp: false, requireEmailVerification: false },
  });
  assert.equal(await page.locator('input[name=allowSignUp]').isChecked(), false, 'the saved setting shows after a reload');
  const refused = await request(server, 'POST', '/auth/sign-up', { key: secretKey, body: { email: 'late@example.com', password: 'user-password-1' } });
  assert.equal(refused.status, 403, refused.text);
});

test('settings: the OpenID Connect provider (issuer, client id, name); its client secret is write-only', { skip: !run }, async () => {
  const oidc = () => page.locator('section.card', { has: page.locator('input[name=oidcIssuer]') });
  await oidc().getByText('/v1/auth/oauth/oidc/callback').waitFor();
  await page.locator('input[name=oidcIssuer]').fill('https://sso.example.com/realms/acme');
  await page.locator('input[name=oidcClientId]').fill('svc-dashboard');
  const clientSecret = 'oidc-dashboard-test-secret-5678';
  await page.locator('input[name=oidcClientSecret]').fill(clientSecret);
  await page.locator('input[name=oidcName]').fill('Acme SSO');
  await button('Save settings').click();
  await page.getByText('Settings saved.').waitFor();
  secrets.push({ what: 'the OpenID Connect client secret', value: clientSecret });
  await page.reload();
  await page.getByRole('heading', { name: 'Acme SSO sign-in' }).waitFor();
  assert.equal(await page.locator('input[name=oidcIssuer]').inputValue(), 'https://sso.example.com/realms/acme');
  assert.equal(await page.locator('input[name=oidcClientId]').inputValue(), 'svc-dashboard');
  assert.equal(await page.locator('input[name=oidcClientSecret]').inputValue(), '');
  assert.match((await page.locator('input[name=oidcClientSecret]').getAttribute('placeholder')) ?? '', /leave empty to keep/);
  await assertNoSecretShown('settings after saving the OpenID Connect provider');
  const op = (await page.evaluate(() => sessionStorage.getItem('svc.operatorToken')))!;
  const read = async () =>
    ((await request(server, 'GET', `/admin/databases/${dbId}`, { key: op })).json as { database: { settings: { oauth: Record<string, unknown> } } }).database
      .settings.oauth;
  const saved = await read();
  assert.deepEqual(saved.oidc, { issuer: 'https://sso.example.com/realms/acme', clientId: 'svc-dashboard', clientSecretSet: true, name: 'Acme SSO' });
  assert.deepEqual(saved.google, { clientId: 'google-client-id.apps', clientSecretSet: true }, 'the other providers are kept');

  await oidc().getByRole('button', { name: 'Remove the saved secret' }).click();
  await page.getByText('Client secret removed.').waitFor();
  assert.deepEqual((await read()).oidc, { issuer: 'https://sso.example.com/realms/acme', clientId: 'svc-dashboard', clientSecretSet: false, name: 'Acme SSO' });
  assert.equal(((await read()).google as { clientSecretSet: boolean }).clientSecretSet, true, "only the OpenID Connect provider's secret");
});

test('live: events of the chosen collections arrive as they happen', { skip: !run }, async () => {
  await page.getByRole('link', { name: 'Live' }).click();
  await page.getByLabel('posts').check();
  await button('Start listening').click();
  await page.getByText('listening to posts').waitFor();
  const created = (await request(server, 'POST', '/posts/docs', { key: secretKey, body: { id: 'live-1', title: 'Live!' } })).json as { id: string };
  await request(server, 'PATCH', `/posts/docs/${created.id}`, { key: secretKey, body: { title: 'Live, updated' } });
  await request(server, 'POST', '/other/docs', { key: secretKey, body: { title: 'not watched' } });
  await page.locator('.event', { hasText: 'document.updated' }).waitFor();
  await page.locator('.event', { hasText: 'document.created' }).waitFor();
  assert.equal(await page.locator('.event', { hasText: 'not watched' }).count(), 0);
  await s.shot('live');
  await button('Stop').click();
  await page.getByRole('button', { name: 'Start listening' }).waitFor();
});

test('narrow window: pages fit 390 px wide without sideways scrolling', { skip: !run }, async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const [path, name] of [
      ['/', 'databases'],
      [`/databases/${dbId}/documents/posts`, 'documents'],
      [`/databases/${dbId}/webhooks`, 'webhooks'],
      [`/databases/${dbId}/users`, 'users'],
      [`/databases/${dbId}/rules`, 'rules'],
    ]) {
      await page.goto(server.url + path);
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      await s.shot(`narrow-${name}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${name} scrolls sideways by ${overflow}px`);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
});

test('keyboard: reach and open a dialog with Tab and Enter, close it with Escape; sign out and back in by keyboard', { skip: !run }, async () => {
  await page.goto(server.url + '/');
  await page.getByRole('link', { name: 'shop-prod' }).waitFor();
  let found = false;
  for (let i = 0; i < 30 && !found; i++) {
    await page.keyboard.press('Tab');
    found = await page.evaluate(() => document.activeElement?.textContent === 'New database');
  }
  assert.ok(found, 'New database is reachable with Tab');
  await page.keyboard.press('Enter');
  await dialog().waitFor();
  assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name), 'name', 'focus moves into the dialog');
  await page.keyboard.press('Escape');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });

  await button('Sign out').click();
  await page.getByRole('heading', { name: 'Sign in to svc' }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('svc.operatorToken')), null);
  await s.shot('signed-out');
  await page.keyboard.type(OPERATOR.email); // the e-mail field has focus
  await page.keyboard.press('Tab');
  await page.keyboard.type(OPERATOR.password);
  await page.keyboard.press('Enter');
  await page.getByRole('link', { name: 'shop-prod' }).waitFor();
  await assertNoSecretShown('after signing in again');
});

test('no console errors and no uncaught exceptions in the whole walk', { skip: !run }, () => {
  assert.deepEqual(w.errors, []);
  assert.ok(s.taken.length >= 15, `screenshots: ${s.taken.join(', ')}`);
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { request } from '../../server/test/helpers/server.ts';
import { chromiumAvailable, jsonEditor, launch, watch } from './browser.ts';

// Issue 26, item 7: editing a document in the dashboard sends If-Match (API.md §1.2); when someone
// else changed it meanwhile, the save is refused (412) and the dialog says so with the new version,
// never overwriting their change. Headless Chromium against a real server process.
const run = chromiumAvailable();
const OPERATOR = { email: 'edit@example.com', password: 'edit-password-1' };

let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let w: ReturnType<typeof watch>;
let dbId = '';
let key = '';
const ifMatches: Array<string | undefined> = [];

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-edit-'));
  server = await startProcess({
    DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`,
    SVC_ADMIN_EMAIL: OPERATOR.email,
    SVC_ADMIN_PASSWORD: OPERATOR.password,
    RATE_LIMIT_PER_IP: '100000',
  });
  const signedIn = (await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string; operator: unknown };
  const created = (await request(server, 'POST', '/admin/databases', { key: signedIn.token, body: { name: 'cards' } })).json as {
    database: { id: string };
    key: { key: string };
  };
  dbId = created.database.id;
  key = created.key.key;
  assert.equal((await request(server, 'POST', '/cards/docs', { key, body: { id: 'card-1', title: 'Original', owner: 'ann' } })).status, 201);
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(
    ({ token, operator }) => {
      sessionStorage.setItem('svc.operatorToken', token);
      sessionStorage.setItem('svc.operator', JSON.stringify(operator));
    },
    { token: signedIn.token, operator: signedIn.operator },
  );
  page = await context.newPage();
  w = watch(page);
  page.on('request', (r) => {
    if (r.method() === 'PATCH') ifMatches.push(r.headers()['if-match']);
  });
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('a save over someone else\'s change is refused with "changed by someone else" and the new version; loading it and saving again works', {
  skip: !run,
}, async () => {
  const dialog = () => page.getByRole('dialog');
  await page.goto(`${server.url}/databases/${dbId}/documents/cards`);
  await page.getByRole('button', { name: /^Open/ }).first().click();
  const editor = jsonEditor(dialog(), /^Fields/);
  // The editor shows what the dialog read (CodeMirror: its drawn text, read until it holds it).
  const editorHolds = async (what: string) => {
    for (let i = 0; i < 300 && !(await editor.text()).includes(what); i++) await page.waitForTimeout(100);
    assert.match(await editor.text(), new RegExp(what));
  };
  await editorHolds('Original');
  // Let the dialog read the current version before someone else writes.
  await page.waitForFunction(() => !document.querySelector('[aria-busy=true]'));
  const before = await request(server, 'GET', '/cards/docs/card-1', { key });
  const opened = before.headers.get('etag')!;
  // Someone else changes the card while the dialog is open.
  const other = await request(server, 'PATCH', '/cards/docs/card-1', { key, body: { title: 'Changed by Bob' } });
  assert.equal(other.status, 200);
  const bobs = other.headers.get('etag')!;
  await editor.fill(JSON.stringify({ title: 'Edited by Ann', owner: 'ann' }));
  await w.expectHttpErrors(async () => {
    await dialog().getByRole('button', { name: 'Save changes' }).click();
    await dialog()
      .getByText(/changed by someone else/)
      .waitFor();
  });
  assert.deepEqual(ifMatches, [opened], 'the save sent If-Match with the version the dialog opened at');
  const alert = dialog()
    .getByRole('alert')
    .filter({ hasText: /changed by someone else/ });
  assert.match(await alert.innerText(), new RegExp(bobs.replace(/"/g, '')));
  assert.match(await alert.innerText(), /Changed by Bob/);
  const stored = (await request(server, 'GET', '/cards/docs/card-1', { key })).json as { title: string };
  assert.equal(stored.title, 'Changed by Bob', 'not overwritten');
  await dialog().getByRole('button', { name: 'Load the new version' }).click();
  await editorHolds('Changed by Bob');
  await page.waitForFunction(() => !document.querySelector('[aria-busy=true]'));
  await editor.fill(JSON.stringify({ title: 'Edited by Ann after reading Bob', owner: 'ann' }));
  await dialog().getByRole('button', { name: 'Save changes' }).click();
  await dialog().waitFor({ state: 'detached' });
  assert.equal(ifMatches[1], bobs);
  const saved = (await request(server, 'GET', '/cards/docs/card-1', { key })).json as { title: string };
  assert.equal(saved.title, 'Edited by Ann after reading Bob');
  assert.deepEqual(w.errors, []);
});

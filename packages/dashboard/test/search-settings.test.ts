import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { OPERATOR, request } from '../../server/test/helpers/server.ts';
import { chromiumAvailable, launch, watch } from './browser.ts';

// The Full-text search card of a database's settings page, in Chromium against a real server (SQLite).
const run = chromiumAvailable();

let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let w: ReturnType<typeof watch>;
let op = '';
let dbId = '';
let key = '';

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-search-'));
  server = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`, RATE_LIMIT_PER_IP: '100000' });
  op = ((await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
  const created = (await request(server, 'POST', '/admin/databases', { key: op, body: { name: 'recipes' } })).json as {
    database: { id: string };
    key: { key: string };
  };
  dbId = created.database.id;
  key = created.key.key;
  const r = await request(server, 'POST', '/posts/bulk', {
    key,
    body: {
      documents: [
        { id: 'soup', title: 'Tomato soup', body: 'tomatoes, onion' },
        { id: 'bread', title: 'Bread', body: 'flour' },
      ],
    },
  });
  assert.equal(r.status, 201, r.text);
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  w = watch(page);
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const settings = async () =>
  ((await request(server, 'GET', `/admin/databases/${dbId}`, { key: op })).json as { database: { settings: { search?: unknown } } }).database.settings;
const search = (words: string) => request(server, 'GET', '/posts/docs', { key, query: { search: words } });

test('settings: a collection gets search fields, a bad field path is refused in words, removing takes them away', {
  skip: !run && 'Chromium is not installed',
}, async () => {
  await page.goto(`${server.url}/databases/${dbId}/settings`);
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Full-text search' }).waitFor();
  assert.equal((await search('tomato')).status, 400, 'no search fields yet');

  await page.getByRole('button', { name: 'Add a searched collection' }).click();
  const card = page.locator('section.search-settings');
  await card.getByLabel('Collection').fill('posts');
  await card.getByLabel('Search fields').fill('title, bad-path');
  await w.expectHttpErrors(async () => {
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: '/settings/search/posts/1' }).waitFor();
  });
  assert.equal((await settings()).search, undefined, 'nothing saved');

  await card.getByLabel('Search fields').fill('title, body');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();
  assert.deepEqual((await settings()).search, { posts: ['title', 'body'] });
  // The posts written before are indexed in the background.
  for (let i = 0; ; i++) {
    const r = await search('tomato oni');
    if (r.status === 200 && (r.json as { total: number }).total === 1) break;
    assert.ok(i < 200, `the back-fill did not end: ${r.text}`);
    await page.waitForTimeout(50);
  }

  await page.reload();
  assert.equal(await card.getByLabel('Search fields').inputValue(), 'title, body', 'shown as saved');
  await card.getByRole('button', { name: 'Remove posts' }).click();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();
  assert.equal((await settings()).search, undefined);
  assert.equal((await search('tomato')).status, 400);
  assert.deepEqual(w.errors, []);
});

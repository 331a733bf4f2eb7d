import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { request } from '../../server/test/helpers/server.ts';
import { chromiumAvailable, jsonEditor, launch, watch } from './browser.ts';

// The documents page's search box, column picker and URL state (sort, filter, search, columns, page by
// cursor or offset), in headless Chromium against a real server process on a fresh SQLite file.
const run = chromiumAvailable();
const OPERATOR = { email: 'query@example.com', password: 'query-password-1' };

let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let w: ReturnType<typeof watch>;
let dbId = '';
/** The documents list requests the page made (their query strings). */
const lists: URLSearchParams[] = [];

const button = (name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });
const url = () => new URL(page.url()).searchParams;
const firstCells = async (col: number) => page.locator('table.docs tbody tr').evaluateAll((rows, c) => rows.map((r) => r.children[c]?.textContent ?? ''), col);
const idle = () => page.locator('[aria-busy=true]').waitFor({ state: 'detached' });

const POSTS = Array.from({ length: 45 }, (_, i) => ({
  id: `p${String(i).padStart(2, '0')}`,
  title: i % 5 === 0 ? `Apple pie ${i}` : `Post ${i}`,
  body: `body text ${i}`,
  score: (i * 7) % 45,
  status: i % 3 === 0 ? 'open' : 'closed',
}));

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-query-'));
  server = await startProcess({
    DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`,
    SVC_ADMIN_EMAIL: OPERATOR.email,
    SVC_ADMIN_PASSWORD: OPERATOR.password,
    RATE_LIMIT_PER_IP: '100000',
  });
  const signedIn = (await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string; operator: unknown };
  const created = (await request(server, 'POST', '/admin/databases', { key: signedIn.token, body: { name: 'blog' } })).json as {
    database: { id: string };
    key: { key: string };
  };
  dbId = created.database.id;
  const key = created.key.key;
  const patched = await request(server, 'PATCH', `/admin/databases/${dbId}`, {
    key: signedIn.token,
    body: { settings: { search: { posts: ['title', 'body'] } } },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal((await request(server, 'POST', '/posts/bulk', { key, body: { documents: POSTS } })).status, 201);
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Signed in as the dashboard keeps it: the operator session in sessionStorage.
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
    const u = new URL(r.url());
    if (u.pathname === '/v1/posts/docs' && u.searchParams.get('limit') !== '50') lists.push(u.searchParams);
  });
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('sort and pages live in the URL: Next follows the cursor, a reload shows the same page, Previous and Back work', { skip: !run }, async () => {
  await page.goto(`${server.url}/databases/${dbId}/documents/posts`);
  await page.getByText('1–20 of 45').waitFor();
  await button('score').click();
  await page.getByRole('button', { name: 'score ▲' }).waitFor();
  await idle();
  assert.equal(url().get('sortBy'), 'score');
  const byScore = [...POSTS].sort((a, b) => a.score - b.score).map((p) => p.id);
  assert.deepEqual(await firstCells(0), byScore.slice(0, 20));

  await button('Next ›').click();
  await page.getByText('21–40 of 45').waitFor();
  await idle();
  assert.ok(url().get('cursor'), 'the page is a cursor in the URL');
  assert.equal(url().get('at'), '20');
  assert.ok(lists.at(-1)?.get('cursor') && !lists.at(-1)?.has('offset'), 'the API was asked by cursor');
  assert.deepEqual(await firstCells(0), byScore.slice(20, 40));

  await page.reload();
  await page.getByText('21–40 of 45').waitFor();
  await idle();
  assert.deepEqual(await firstCells(0), byScore.slice(20, 40), 'a reload shows the same page, sorted the same');
  await page.getByRole('button', { name: 'score ▲' }).waitFor();

  await button('Next ›').click();
  await page.getByText('41–45 of 45').waitFor();
  assert.equal(await button('Next ›').isDisabled(), true, 'the last page has no next');
  await button('‹ Previous').click();
  await page.getByText('21–40 of 45').waitFor();
  assert.equal(url().get('offset'), '20');
  assert.equal(url().has('cursor'), false);
  await page.goBack();
  await page.getByText('41–45 of 45').waitFor();
  await page.goBack();
  await page.goBack();
  await page.getByText('1–20 of 45').waitFor();
});

test('filter and search boxes: kept in the URL, sent to the API, cleared again', { skip: !run }, async () => {
  await page.goto(`${server.url}/databases/${dbId}/documents/posts?sortBy=score&sortOrder=desc`);
  await page.getByRole('button', { name: 'score ▼' }).waitFor();
  await page.getByLabel(/^Filter/).fill('{"status":"open"}');
  await button('Apply').click();
  const open = POSTS.filter((p) => p.status === 'open').length;
  await page.getByText(`1–${open} of ${open}`).waitFor();
  assert.equal(url().get('filter'), '{"status":"open"}');
  assert.equal(url().get('sortOrder'), 'desc', 'the sort stays');

  await page.getByLabel(/^Search/).fill('apple');
  await button('Search').click();
  const apples = POSTS.filter((p) => p.status === 'open' && p.title.startsWith('Apple')).length;
  await page.getByText(`1–${apples} of ${apples}`).waitFor();
  assert.equal(url().get('search'), 'apple');
  assert.equal(lists.at(-1)?.get('search'), 'apple');
  await page.reload();
  await page.getByText(`1–${apples} of ${apples}`).waitFor();
  assert.equal(await page.getByLabel(/^Search/).inputValue(), 'apple', 'the box shows the URL search');

  await button('Clear').click();
  const allApples = POSTS.filter((p) => p.title.startsWith('Apple')).length;
  await page.getByText(`1–${allApples} of ${allApples}`).waitFor();
  await button('Clear search').click();
  await page.getByText('1–20 of 45').waitFor();
  assert.equal(url().has('search') || url().has('filter'), false);
});

test('columns: only the picked ones are shown and fetched; Open still edits the whole document', { skip: !run }, async () => {
  await page.goto(`${server.url}/databases/${dbId}/documents/posts`);
  await page.getByText('1–20 of 45').waitFor();
  await page.getByText('Columns', { exact: true }).click();
  for (const f of ['body', 'status']) await page.getByRole('checkbox', { name: f }).uncheck();
  await idle();
  assert.equal(url().get('fields'), 'title,score');
  const heads = await page.locator('table.docs thead th').allInnerTexts();
  assert.deepEqual(
    heads.map((h) => h.trim()).filter((h) => h && h !== 'Actions'),
    ['id', 'title', 'score', 'updatedAt'],
  );
  assert.equal(lists.at(-1)?.get('fields'), 'id,title,score', 'the API returns only those fields');

  await button('Next ›').click();
  await page.getByText('21–40 of 45').waitFor();
  await page.reload();
  await page.getByText('21–40 of 45').waitFor();
  assert.equal(url().get('fields'), 'title,score', 'the columns survive paging and a reload');

  const first = page.locator('table.docs tbody tr').first();
  const id = (await first.locator('td').first().innerText()).trim();
  await first.getByRole('button', { name: /^Open/ }).click();
  const doc = JSON.parse(await jsonEditor(page.locator('dialog[open]'), /^Fields/).text()) as Record<string, unknown>;
  assert.equal(doc.body, POSTS.find((p) => p.id === id)?.body, 'the editor has the fields the table does not show');
  await page.locator('dialog[open]').getByRole('button', { name: 'Cancel' }).click();

  await page.getByText('Columns', { exact: true }).click();
  await button('Default columns').click();
  await idle();
  assert.equal(url().has('fields'), false);
  assert.ok((await page.locator('table.docs thead th').allInnerTexts()).some((h) => h.includes('body')));
});

test('no console errors and no uncaught exceptions', { skip: !run }, () => {
  assert.deepEqual(w.errors, []);
});

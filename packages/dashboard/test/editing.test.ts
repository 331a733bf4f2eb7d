import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { OPERATOR, request } from '../../server/test/helpers/server.ts';
import { chromiumAvailable, jsonEditor, launch, watch } from './browser.ts';

// Daily editing: the CodeMirror JSON editor, the form view of a document, and the documents page on a
// 390 px wide phone, in Chromium against a real server (SQLite). Screenshots go to docs/images/ with UPDATE_SCREENSHOTS=1.
const run = chromiumAvailable();
// The docs' screenshots are rewritten only on request (UPDATE_SCREENSHOTS=1), so a test run leaves the
// checkout clean; otherwise they go beside the other test results.
const IMAGES = fileURLToPath(new URL(process.env.UPDATE_SCREENSHOTS ? '../../../docs/images/' : '../test-results/images/', import.meta.url));

let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let w: ReturnType<typeof watch>;
let op = '';
let dbId = '';
let key = '';

const WIDE = {
  id: 'wide-one',
  title: 'A document with many long fields',
  done: false,
  score: 7,
  tags: ['a', 'b'],
  owner: { name: 'Ada', team: 'north' },
  url: `https://example.com/${'x'.repeat(120)}`,
  token: 'y'.repeat(90),
  description: 'words '.repeat(30).trim(),
  temporary: 'remove me',
};

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-editing-'));
  server = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`, RATE_LIMIT_PER_IP: '100000' });
  op = ((await request(server, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
  const created = (await request(server, 'POST', '/admin/databases', { key: op, body: { name: 'notes' } })).json as {
    database: { id: string };
    key: { key: string };
  };
  dbId = created.database.id;
  key = created.key.key;
  const docs = [WIDE, ...Array.from({ length: 4 }, (_, i) => ({ ...WIDE, id: `wide-${i}`, temporary: undefined }))];
  const r = await request(server, 'POST', '/notes/bulk', { key, body: { documents: docs } });
  assert.equal(r.status, 201, r.text);
  browser = await launch();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  w = watch(page);
  mkdirSync(IMAGES, { recursive: true });
  await page.goto(`${server.url}/databases/${dbId}/documents/notes`);
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('table.docs').waitFor();
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const dialog = () => page.locator('dialog[open]');
const stored = async (id: string) => (await request(server, 'GET', `/notes/docs/${id}`, { key })).json as Record<string, unknown>;

test('the JSON editor highlights JSON and marks a parse error at its line, in the gutter and in words', {
  skip: !run && 'Chromium is not installed',
}, async () => {
  await page.getByRole('button', { name: 'Open wide-one' }).click();
  const editor = jsonEditor(dialog(), /^Fields/);
  assert.equal(JSON.parse(await editor.text()).title, WIDE.title);
  // CodeMirror's JSON highlighting: property names and strings in their own spans.
  assert.ok((await dialog().locator('.cm-content span').count()) > 10, 'the text is highlighted');
  await editor.fill('{\n  "title": "ok",\n  "done": tru\n}');
  await dialog()
    .getByText(/Not valid JSON \(line 3, column \d+\)/)
    .waitFor();
  await dialog().locator('.cm-lint-marker-error').waitFor();
  await dialog().locator('.cm-lintRange-error').waitFor();
  assert.equal(await dialog().getByRole('button', { name: 'Save changes' }).isDisabled(), true);
  assert.equal(await dialog().getByRole('tab', { name: 'Form' }).isDisabled(), true, 'no form view of broken JSON');
  await dialog().screenshot({ path: join(IMAGES, 'dashboard-json-editor.png') });
  await dialog().getByRole('button', { name: 'Cancel' }).click();
});

test('the form view edits top-level fields by type, removes and adds fields, and saves a merge patch', {
  skip: !run && 'Chromium is not installed',
}, async () => {
  await page.getByRole('button', { name: 'Open wide-one' }).click();
  await dialog().getByRole('tab', { name: 'Form' }).click();
  const form = dialog().locator('.doc-form');
  await form.getByLabel('title', { exact: true }).fill('Edited in the form');
  await form.getByLabel('done', { exact: true }).check();
  await form.getByLabel('score', { exact: true }).fill('42.5');
  await form.getByLabel('owner', { exact: true }).fill('{"name": "Grace"');
  await form.getByText('Not valid JSON: the document keeps the last valid value').waitFor();
  await form.getByLabel('owner', { exact: true }).fill('{"name": "Grace", "team": "south"}');
  await form.getByLabel('Type of tags').selectOption('text');
  await form.getByRole('button', { name: 'Remove temporary' }).click();
  await form.getByLabel('New field name').fill('2bad');
  await form.getByText('Letters, digits and _').waitFor();
  await form.getByLabel('New field name').fill('note');
  await form.getByRole('button', { name: 'Add field' }).click();
  await form.getByLabel('note', { exact: true }).fill('added in the form');
  await dialog().screenshot({ path: join(IMAGES, 'dashboard-document-form.png') });

  // The JSON view shows the same document.
  await dialog().getByRole('tab', { name: 'JSON' }).click();
  const shown = JSON.parse(await jsonEditor(dialog(), /^Fields/).text()) as Record<string, unknown>;
  assert.equal(shown.title, 'Edited in the form');
  assert.equal(shown.note, 'added in the form');
  await dialog().getByRole('button', { name: 'Save changes' }).click();
  await dialog().waitFor({ state: 'detached' });
  const saved = await stored('wide-one');
  assert.equal(saved.title, 'Edited in the form');
  assert.equal(saved.done, true);
  assert.equal(saved.score, 42.5);
  assert.deepEqual(saved.owner, { name: 'Grace', team: 'south' });
  assert.equal(saved.tags, '["a","b"]');
  assert.equal(saved.note, 'added in the form');
  assert.ok(!('temporary' in saved), 'a removed field is deleted');
  assert.equal(saved.url, WIDE.url, 'untouched fields stay');
});

test('a 390 px wide phone: the documents page and a document do not scroll sideways', { skip: !run && 'Chromium is not installed' }, async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.reload();
    await page.locator('table.docs tbody tr').first().waitFor();
    const widths = await page.evaluate(() => {
      const wrap = document.querySelector('.table-wrap')!;
      return { page: [document.documentElement.scrollWidth, document.documentElement.clientWidth], table: [wrap.scrollWidth, wrap.clientWidth] };
    });
    assert.ok(widths.page[0]! <= widths.page[1]!, `the page scrolls sideways: ${JSON.stringify(widths)}`);
    assert.ok(widths.table[0]! <= widths.table[1]!, `the documents table scrolls sideways: ${JSON.stringify(widths)}`);
    // Every document's fields are there, each with its name.
    const first = page.locator('table.docs tbody tr').first();
    assert.equal(await first.locator('td[data-label=title]').count(), 1);
    await page.screenshot({ path: join(IMAGES, 'dashboard-phone-documents.png') });

    await first.getByRole('button', { name: /^Open/ }).click();
    await dialog().getByRole('tab', { name: 'Form' }).click();
    await dialog().locator('.doc-form').waitFor();
    const inDialog = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    assert.ok(inDialog[0]! <= inDialog[1]!, `a document's form scrolls sideways: ${inDialog}`);
    await page.screenshot({ path: join(IMAGES, 'dashboard-phone-document-form.png') });
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  assert.deepEqual(w.errors, []);
});

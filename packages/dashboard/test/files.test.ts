import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { OPERATOR, request } from '../../server/test/helpers/server.ts';
import { chromiumAvailable, launch, watch } from './browser.ts';

// The Files page (API.md §12) in Chromium against a real server process: drag-and-drop upload,
// an image preview, copy a signed link, delete.
const run = chromiumAvailable();
let server: ServerProcess;
let browser: Browser;
let page: Page;
let dir: string;
let dbId = '';
let w: ReturnType<typeof watch>;

before(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-files-'));
  server = await startProcess({ DATABASE_URL: `sqlite:${join(dir, 'svc.db')}`, RATE_LIMIT_PER_IP: '100000' });
  const signIn = await request(server, 'POST', '/admin/sign-in', { body: OPERATOR });
  const token = (signIn.json as { token: string }).token;
  const created = await request(server, 'POST', '/admin/databases', { key: token, body: { name: 'pictures' } });
  dbId = (created.json as { database: { id: string } }).database.id;
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  w = watch(page);
  await page.goto(server.url);
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Databases' }).waitFor();
});

after(async () => {
  if (!run) return;
  await browser?.close();
  await server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('files: drop an image into a new bucket, see its preview, copy a working link, delete it', { skip: !run }, async () => {
  await page.goto(`${server.url}/databases/${dbId}/files`);
  await page.getByText(/No files yet/).waitFor();
  await page.getByLabel('Bucket').fill('avatars');
  // A real drop: a DataTransfer holding a PNG the page draws itself.
  const dataTransfer = await page.evaluateHandle(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#c33';
    ctx.fillRect(0, 0, 64, 48);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], 'face.png', { type: 'image/png' }));
    return dt;
  });
  await page.dispatchEvent('[aria-label="Drop files here"]', 'drop', { dataTransfer });
  await page.getByText('face.png', { exact: true }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/databases/${dbId}/files/avatars`);
  const preview = page.locator('img.thumb');
  await preview.waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('img.thumb') as HTMLImageElement | null;
    return Boolean(img?.complete && img.naturalWidth > 0);
  });
  assert.equal(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth), 100, 'the preview is the 100x100 thumbnail');

  await page.getByRole('button', { name: 'Copy link' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /Copied a link/ })
    .waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const viaLink = await fetch(copied);
  assert.equal(viaLink.status, 200, 'the copied link works with no key');
  assert.equal(viaLink.headers.get('content-type'), 'image/png');

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: 'Delete file' }).click();
  await page.getByText(/This bucket is empty/).waitFor();
  assert.equal((await fetch(copied)).status, 404, 'a deleted file is gone from its link too');

  // The buckets' settings: saved into the database's settings.
  await page.getByLabel('settings.files').fill('{ "avatars": { "thumbs": ["64x64"], "public": true } }');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /Saved the buckets/ })
    .waitFor();
  const signIn = await request(server, 'POST', '/admin/sign-in', { body: OPERATOR });
  const db = await request(server, 'GET', `/admin/databases/${dbId}`, { key: (signIn.json as { token: string }).token });
  const stored = db.json as { database?: { settings: { files?: unknown } }; settings?: { files?: unknown } };
  assert.deepEqual((stored.database ?? stored).settings?.files, { avatars: { thumbs: ['64x64'], public: true } }, JSON.stringify(db.json));
  assert.deepEqual(w.errors, []);
});

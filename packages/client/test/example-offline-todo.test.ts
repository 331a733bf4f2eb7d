// Issue 28, item 4: the example app (examples/offline-todo) works as its README line says: served by
// its serve.mjs, in real Chromium, it adds a to-do online, keeps working offline and sends it later.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { fixture, type Fixture } from './helpers.ts';
import { freePort } from '../../server/test/helpers/server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SERVE = fileURLToPath(new URL('../../../examples/offline-todo/serve.mjs', import.meta.url));
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const missing = existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM}`;
if (missing && process.env.CI === 'true') throw new Error(`${missing}: under CI the browser test must run`);

let f: Fixture;
let serve: ChildProcess;
let browser: Browser;
let url: string;

before(async () => {
  if (missing) return;
  f = await fixture();
  await f.admin().rules.set({ todos: { read: true, create: true, update: true, delete: true } });
  const port = await freePort();
  serve = spawn(process.execPath, [SERVE], { env: { ...process.env, SVC_URL: f.server.url, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => serve.stdout?.once('data', () => resolve()));
  url = `http://127.0.0.1:${port}/?key=${f.publicKey}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});
after(async () => {
  await browser?.close();
  serve?.kill();
  await f?.close();
});

test('examples/offline-todo: add online, add offline (shown with a pending count), back online it reaches the server', { skip: missing }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.locator('#status', { hasText: 'online' }).waitFor({ timeout: 15_000 });
  await page.fill('#title', 'buy milk');
  await page.click('#add button');
  await page.locator('#list li', { hasText: 'buy milk' }).waitFor();
  // Sent: the server has it (the status said "0 waiting" before the click too).
  const titles = async () => (await f.admin().collection<{ title: string }>('todos').list({ sortBy: 'createdAt' })).documents.map((d) => d.title);
  for (let i = 0; (await titles()).length === 0; i++) {
    assert.ok(i < 200, 'the first to-do reached the server');
    await new Promise((r) => setTimeout(r, 50));
  }
  await page.locator('#status', { hasText: '0 change(s) waiting' }).waitFor({ timeout: 15_000 });
  await context.setOffline(true);
  await page.fill('#title', 'written offline');
  await page.click('#add button');
  await page.locator('#list li', { hasText: 'written offline' }).waitFor();
  await page.locator('#status', { hasText: '1 change(s) waiting' }).waitFor({ timeout: 15_000 });
  await context.setOffline(false);
  await page.locator('#status', { hasText: '0 change(s) waiting' }).waitFor({ timeout: 20_000 });
  assert.deepEqual(await titles(), ['buy milk', 'written offline']);
  assert.deepEqual(errors, []);
  await context.close();
});

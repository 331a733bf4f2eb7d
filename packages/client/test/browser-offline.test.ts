// Issue 28, item 3: the replica in real Chromium, kept in IndexedDB (API.md §3.1). The page loads
// the BUILT SDK (dist/) as plain ES modules, with an import map for its two dependencies.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { fixture, type Fixture } from './helpers.ts';
import { ManualClock } from '../../server/src/infra/clock.ts';
import { pruneChangesBefore } from '../../server/src/changes/retention.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOTS: Record<string, string> = {
  '/sdk/': fileURLToPath(new URL('../dist/', import.meta.url)),
  '/filter/': fileURLToPath(new URL('../../filter/dist/', import.meta.url)),
  '/idb/': fileURLToPath(new URL('../../../node_modules/idb/build/', import.meta.url)),
};
// The page is served by a route (as an app's service worker would serve it offline), which Chromium
// counts as a public address: its Local Network Access checks would then refuse the socket to svc on 127.0.0.1.
const ARGS = [
  '--disable-features=LocalNetworkAccessChecks',
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const missing = !existsSync(CHROMIUM)
  ? `Chromium is not installed at ${CHROMIUM}`
  : !existsSync(join(ROOTS['/sdk/'], 'index.js')) || !existsSync(join(ROOTS['/filter/'], 'index.js'))
    ? 'the SDK is not built (npm run build)'
    : undefined;
if (missing && process.env.CI === 'true') throw new Error(`${missing}: under CI the browser test must run`);

const PAGE = (publicKey: string) => `<!doctype html>
<meta charset="utf-8"><title>offline replica</title>
<script type="importmap">{ "imports": { "idb": "/idb/index.js", "@svc/filter": "/filter/index.js" } }</script>
<script type="module">
  import { createClient, IndexedDbStorage } from '/sdk/index.js';
  const svc = createClient({ url: location.origin, key: ${JSON.stringify(publicKey)} });
  const log = (window.log = { conflicts: [], resets: 0, errors: [] });
  const todos = svc.collection('todos').replica({ storage: new IndexedDbStorage('todos') });
  todos.on('conflict', (c) => log.conflicts.push({ status: c.error.status, local: c.local, server: c.server }));
  todos.on('reset', () => log.resets++);
  todos.on('error', (e) => log.errors.push(String(e)));
  await todos.ready;
  window.todos = todos;
</script>`;

/** The page, the built SDK and its dependencies, and /v1 passed through to svc (same origin). */
async function startPageServer(svcUrl: string, publicKey: string) {
  const types: Record<string, string> = { '.js': 'text/javascript', '.map': 'application/json' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(publicKey));
    const prefix = Object.keys(ROOTS).find((p) => url.pathname.startsWith(p));
    if (prefix) {
      const file = normalize(join(ROOTS[prefix], url.pathname.slice(prefix.length)));
      if (!file.startsWith(ROOTS[prefix]) || !existsSync(file)) return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    }
    if (!url.pathname.startsWith('/v1/')) return res.writeHead(404).end();
    const upstream = http.request(svcUrl + req.url, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type Todo = { id: string; title: string; n?: number };
type W = {
  todos: {
    query(q?: object): Todo[];
    pending: number;
    online: boolean;
    create(d: object): Promise<Todo>;
    update(id: string, p: object): Promise<unknown>;
    delete(id: string): Promise<void>;
    get(id: string): Todo | undefined;
    sync(): Promise<void>;
    flush(): Promise<void>;
  };
  log: { conflicts: Array<{ status: number; local: Todo | null; server: Todo | null }>; resets: number; errors: string[] };
};

const clock = new ManualClock();
let f: Fixture;
let pages: Awaited<ReturnType<typeof startPageServer>>;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  if (missing) return;
  f = await fixture({ clock });
  await f.admin().rules.set({ todos: { read: true, create: true, update: true, delete: true } });
  pages = await startPageServer(f.server.url, f.publicKey);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  context = await browser.newContext();
  // The page and the SDK's files come from the test even offline, as an app's service worker would serve them; /v1 goes to the network.
  await context.route(/\/(sdk|filter|idb)\/|\/$/, async (route) => {
    const r = await fetch(route.request().url());
    await route.fulfill({ status: r.status, headers: Object.fromEntries(r.headers), body: Buffer.from(await r.arrayBuffer()) });
  });
});
after(async () => {
  await browser?.close();
  await pages?.close();
  await f?.close();
});

const server = () => f.admin().collection<{ title: string; n?: number }>('todos');
const serverTitles = async () => (await server().list({ sortBy: 'title', limit: 1000 })).documents.map((d) => d.title);
const localTitles = (page: Page) => page.evaluate(() => (window as unknown as W).todos.query({ sortBy: 'title' }).map((d) => d.title));
async function open(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(pages.url);
  await page.waitForFunction(() => (window as unknown as W).todos !== undefined, undefined, { timeout: 15_000 });
  return page;
}

test('Chromium: offline create, edit, delete; reload offline; back online the server converges; two tabs; a conflict; an expired checkpoint', {
  skip: missing,
}, async () => {
  const a = await server().create({ title: 'a' });
  const b = await server().create({ title: 'b' });
  const page = await open();
  await page.waitForFunction(() => (window as unknown as W).todos.query().length === 2, undefined, { timeout: 15_000 });

  // Offline: create, edit and delete, all shown at once and queued.
  await context.setOffline(true);
  await page.evaluate(
    async ([aId, bId]) => {
      const t = (window as unknown as W).todos;
      await t.create({ title: 'c (offline)' });
      await t.update(aId, { title: 'a (edited offline)' });
      await t.delete(bId);
    },
    [a.id, b.id],
  );
  assert.deepEqual(await localTitles(page), ['a (edited offline)', 'c (offline)']);
  assert.equal(await page.evaluate(() => (window as unknown as W).todos.pending), 3);
  assert.deepEqual(await serverTitles(), ['a', 'b'], 'nothing reached the server');

  // Reloaded while offline: the copy and the queue come back from IndexedDB.
  await page.reload();
  await page.waitForFunction(() => (window as unknown as W).todos !== undefined, undefined, { timeout: 15_000 });
  assert.deepEqual(await localTitles(page), ['a (edited offline)', 'c (offline)']);
  assert.equal(await page.evaluate(() => (window as unknown as W).todos.pending), 3);

  // Online again: the queue is sent and the server converges.
  await context.setOffline(false);
  await page.waitForFunction(() => (window as unknown as W).todos.pending === 0, undefined, { timeout: 20_000 });
  assert.deepEqual(await serverTitles(), ['a (edited offline)', 'c (offline)']);

  // A second tab shares the copy; a write in one reaches the other through the server.
  const tab2 = await open();
  await tab2.waitForFunction(() => (window as unknown as W).todos.query().length === 2, undefined, { timeout: 15_000 });
  await tab2.evaluate(() => (window as unknown as W).todos.create({ title: 'd (tab 2)' }));
  await page.waitForFunction(() => (window as unknown as W).todos.query().some((d) => d.title === 'd (tab 2)'), undefined, { timeout: 15_000 });
  await tab2.close();

  // A conflict: edited offline here, changed meanwhile by another client.
  await context.setOffline(true);
  await page.evaluate((id) => (window as unknown as W).todos.update(id, { title: 'a (mine)' }), a.id);
  await server().update(a.id, { title: 'a (theirs)' });
  await context.setOffline(false);
  await page.waitForFunction(() => (window as unknown as W).log.conflicts.length === 1, undefined, { timeout: 20_000 });
  const [conflict] = await page.evaluate(() => (window as unknown as W).log.conflicts);
  assert.equal(conflict.status, 412);
  assert.equal(conflict.local?.title, 'a (mine)');
  assert.equal(conflict.server?.title, 'a (theirs)');
  await page.waitForFunction((id) => (window as unknown as W).todos.get(id)?.title === 'a (theirs)', a.id, { timeout: 15_000 });
  await page.close();

  // Away longer than retention: the stored checkpoint no longer catches up, so the page resets and snapshots again.
  await server().update(a.id, { n: 1 }); // after the page's checkpoint: retention will remove it
  clock.advance(721 * 3600_000);
  await server().create({ title: 'e (while away)' });
  const cutoff = new Date(clock.now() - f.server.config.eventRetentionHours * 3600_000).toISOString();
  assert.ok((await pruneChangesBefore(f.server.db.store, cutoff, 100_000)) > 0);
  const back = await open();
  await back.waitForFunction(() => (window as unknown as W).log.resets === 1, undefined, { timeout: 15_000 });
  await back.waitForFunction(() => (window as unknown as W).todos.query().length === 4, undefined, { timeout: 15_000 });
  assert.deepEqual(await localTitles(back), await serverTitles());
  assert.deepEqual(await back.evaluate(() => (window as unknown as W).log.errors), []);
});

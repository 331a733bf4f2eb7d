// One end-to-end test in real Chromium: a page loads the BUILT SDK (dist/) as plain ES modules,
// signs a user up with the PUBLIC key and receives a realtime event over the browser's WebSocket.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { fixture, type Fixture } from './helpers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
/** The SDK and its two dependencies (the page maps their names with an import map). */
const ROOTS: Record<string, string> = {
  '/sdk/': DIST,
  '/filter/': fileURLToPath(new URL('../../filter/dist/', import.meta.url)),
  '/idb/': fileURLToPath(new URL('../../../node_modules/idb/build/', import.meta.url)),
};
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const missing = !existsSync(CHROMIUM)
  ? `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`
  : !existsSync(join(DIST, 'index.js'))
    ? 'the SDK is not built (npm run build -w @svc/client)'
    : undefined;
if (missing && process.env.CI === 'true') throw new Error(`${missing}: under CI the browser test must run`);

const PAGE = (publicKey: string) => `<!doctype html>
<meta charset="utf-8"><title>svc SDK in a browser</title>
<script type="importmap">{ "imports": { "idb": "/idb/index.js", "@svc/filter": "/filter/index.js" } }</script>
<script type="module">
  import { createClient, SvcError } from '/sdk/index.js';
  const svc = createClient({ url: location.origin, key: ${JSON.stringify(publicKey)} });
  window.log = { states: [], events: [], errors: [] };
  try {
    const { user } = await svc.auth.signUp({ email: 'browser@example.com', password: 'browser-password', name: 'Browser' });
    window.log.user = user;
    window.log.stored = JSON.parse(localStorage.getItem('svc.session'))?.user?.email;
    window.log.me = (await svc.auth.getUser()).email;
    try { await svc.collection('messages').create({ text: 'no' }); } catch (e) { window.log.writeError = e instanceof SvcError ? e.code : String(e); }
    svc.realtime.subscribe(['messages'], (e) => window.log.events.push(e), { onState: (s) => window.log.states.push(s) });
  } catch (e) {
    window.log.errors.push(String(e && e.stack || e));
  }
</script>`;

/**
 * The tiny page server: the page, the built SDK under /sdk/, and /v1 passed through to svc so the
 * page's API calls are same-origin (the WebSocket goes straight to svc: sockets are not subject to CORS).
 */
async function startPageServer(svcUrl: string, publicKey: string) {
  const types: Record<string, string> = { '.js': 'text/javascript', '.map': 'application/json', '.html': 'text/html' };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(publicKey));
    const root = Object.entries(ROOTS).find(([prefix]) => url.pathname.startsWith(prefix));
    if (root) {
      const file = normalize(join(root[1], url.pathname.slice(root[0].length)));
      if (!file.startsWith(root[1]) || !existsSync(file)) return res.writeHead(404).end();
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

interface PageLog {
  states: string[];
  events: Array<{ id: string; event: string; collection: string; document: { text?: string } }>;
  errors: string[];
  user?: { email: string; name: string };
  stored?: string;
  me?: string;
  writeError?: string;
}

let f: Fixture;
let pages: Awaited<ReturnType<typeof startPageServer>>;
let browser: Browser;

before(async () => {
  if (missing) return;
  f = await fixture();
  pages = await startPageServer(f.server.url, f.publicKey);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});
after(async () => {
  await browser?.close();
  await pages?.close();
  await f?.close();
});

test('Chromium: the built SDK with a public key signs up and receives a realtime event', { skip: missing }, async () => {
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(pages.url);
  await page.waitForFunction(
    () => (window as unknown as { log?: PageLog }).log?.states.includes('open') || (window as unknown as { log?: PageLog }).log?.errors.length,
    undefined,
    { timeout: 15_000 },
  );
  let log = await page.evaluate(() => (window as unknown as { log: PageLog }).log);
  assert.deepEqual(log.errors, []);
  assert.equal(log.user?.email, 'browser@example.com');
  assert.equal(log.stored, 'browser@example.com', 'the session is kept in localStorage');
  assert.equal(log.me, 'browser@example.com');
  assert.equal(log.writeError, 'read_only_key');

  const doc = await f.admin().collection('messages').create({ text: 'hello, browser' });
  await page.waitForFunction(() => (window as unknown as { log: PageLog }).log.events.length > 0, undefined, { timeout: 10_000 });
  log = await page.evaluate(() => (window as unknown as { log: PageLog }).log);
  assert.equal(log.events.length, 1);
  assert.equal(log.events[0].event, 'document.created');
  assert.equal(log.events[0].collection, 'messages');
  assert.deepEqual(log.events[0].document, doc);
  assert.deepEqual(pageErrors, []);
  await page.close();
});

// auth.passkeys.* in real Chromium: a page on http://localhost:<port> loads the BUILT SDK and
// @simplewebauthn/browser (an import map names it) as plain ES modules, with a virtual
// authenticator (the DevTools Protocol's WebAuthn domain); /v1 is passed through to svc.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { fixture, type Fixture } from './helpers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const SWA = join(dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '../esm/');
// The SDK's own imports (its offline replica's query language and IndexedDB wrapper), as built.
const FILTER = fileURLToPath(new URL('../../filter/dist/', import.meta.url));
const IDB = join(dirname(createRequire(import.meta.url).resolve('idb')), '/');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const missing = !existsSync(CHROMIUM) ? `Chromium is not installed at ${CHROMIUM}` : !existsSync(join(DIST, 'index.js')) ? 'the SDK is not built' : undefined;
if (missing && process.env.CI === 'true') throw new Error(`${missing}: under CI the browser test must run`);

const PAGE = (publicKey: string) => `<!doctype html>
<meta charset="utf-8"><title>passkeys</title>
<script type="importmap">{ "imports": { "@simplewebauthn/browser": "/swa/index.js", "@svc/filter": "/filter/index.js", "idb": "/idb/index.js" } }</script>
<script type="module">
  import { createClient } from '/sdk/index.js';
  window.svc = createClient({ url: location.origin, key: ${JSON.stringify(publicKey)} });
  window.ready = true;
</script>`;

/** Serves the page, the SDK under /sdk/ (with @svc/filter and idb), @simplewebauthn/browser under /swa/, and passes /v1 to svc. */
async function startPageServer(svcUrl: string, publicKey: string) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(publicKey));
    for (const [prefix, root] of [
      ['/sdk/', DIST],
      ['/swa/', SWA],
      ['/filter/', FILTER],
      ['/idb/', IDB],
    ] as const) {
      if (!url.pathname.startsWith(prefix)) continue;
      const file = normalize(join(root, url.pathname.slice(prefix.length)));
      if (!file.startsWith(root) || !existsSync(file)) return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream' }).end(readFileSync(file));
    }
    const upstream = http.request(svcUrl + req.url, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
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

test('Chromium: auth.passkeys.register, sign out, auth.passkeys.signIn, list, remove', { skip: missing }, async () => {
  const op = await f.server.operatorToken();
  const dbs = (await (await fetch(`${f.server.base}/admin/databases`, { headers: { authorization: `Bearer ${op}` } })).json()) as {
    databases: Array<{ id: string }>;
  };
  const patch = await fetch(`${f.server.base}/admin/databases/${dbs.databases[0].id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${op}`, 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { auth: { passkeys: { rpId: 'localhost', origins: [pages.origin] } } } }),
  });
  assert.equal(patch.status, 200);

  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${pages.origin}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const { user } = await f.browser().auth.signUp({ email: 'passkey@example.com', password: 'correct horse battery' });
  await f.admin().users.update(user.id, { emailVerified: true });

  const result = await page.evaluate(async () => {
    type Svc = {
      auth: {
        signIn(p: { email: string; password: string }): Promise<unknown>;
        signOut(): Promise<void>;
        getUser(): Promise<{ id: string }>;
        passkeys: {
          register(p: { name: string }): Promise<{ id: string; name: string }>;
          signIn(): Promise<{ user: { id: string } }>;
          list(): Promise<Array<{ id: string }>>;
          remove(id: string): Promise<void>;
        };
      };
    };
    const svc = (window as unknown as { svc: Svc }).svc;
    await svc.auth.signIn({ email: 'passkey@example.com', password: 'correct horse battery' });
    const passkey = await svc.auth.passkeys.register({ name: 'This laptop' });
    await svc.auth.signOut();
    const signedIn = await svc.auth.passkeys.signIn();
    const me = await svc.auth.getUser();
    const listed = await svc.auth.passkeys.list();
    await svc.auth.passkeys.remove(passkey.id);
    return { passkey, signedIn: signedIn.user.id, me: me.id, listed: listed.map((p) => p.id), after: (await svc.auth.passkeys.list()).length };
  });
  assert.equal(result.passkey.name, 'This laptop');
  assert.equal(result.signedIn, user.id);
  assert.equal(result.me, user.id);
  assert.deepEqual(result.listed, [result.passkey.id]);
  assert.equal(result.after, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

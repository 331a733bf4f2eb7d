// Tabs kept in step (issue 29), in Chromium, on each store: two tabs of one browser profile share
// the session (localStorage); signing in or out in one is heard in the other (onAuthStateChange),
// whose realtime socket moves to the new session; a socket that can see nothing says so
// (`unreadable`); an `invalid_session` answer fires SIGNED_OUT, in both tabs. The page imports the
// SDK from the server (/sdk/svc.js), as the README's tutorial does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { forEachStore } from '../../server/test/helpers/stores.ts';
import { request, startServer, type TestServer } from '../../server/test/helpers/server.ts';
import { createClient, type AuthChangeEvent, type SessionStore, type StoredSession } from '../src/index.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const missing = existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`;
if (missing && process.env.CI === 'true') throw new Error(`${missing}: under CI the browser test must run`);

const own = { owner: { $auth: 'id' } };
const RULES = { todos: { defaults: own, read: own, create: own, update: own, delete: own } };
const EMAIL = 'ann@tabs.test';
const PASSWORD = 'correct horse battery';

const PAGE = (svcUrl: string, publicKey: string) => `<!doctype html>
<meta charset="utf-8"><title>tabs</title>
<script type="module">
  import { createClient } from '${svcUrl}/sdk/svc.js';
  const svc = createClient({ url: '${svcUrl}', key: '${publicKey}' });
  window.svc = svc;
  window.log = { auth: [], states: [], events: [] };
  svc.auth.onAuthStateChange((event, session) => log.auth.push([event, session?.user?.email ?? null]));
  svc.realtime.subscribe(['todos'], (e) => log.events.push(e.document.title), {
    onState: (state, info) => log.states.push([state, info.unreadable ?? null]),
  });
  window.ready = true;
</script>`;

type Log = { auth: Array<[AuthChangeEvent, string | null]>; states: Array<[string, string[] | null]>; events: string[] };
const log = (page: Page) => page.evaluate(() => (window as unknown as { log: Log }).log);
/** Waits until the page's log satisfies `cond` (evaluated in the page). */
const until = (page: Page, cond: string) => page.waitForFunction(cond, undefined, { timeout: 20_000 });
const lastState = `(() => { const s = log.states.at(-1); return s && s[0] === 'open' ? JSON.stringify(s[1]) : undefined; })()`;

forEachStore('tabs kept in step', (kind) => {
  let server: TestServer;
  let db: Awaited<ReturnType<TestServer['createDatabase']>>;
  let browser: Browser;
  let pages: http.Server;
  let pageUrl: string;

  before(async () => {
    server = await startServer(kind);
    db = await server.createDatabase();
    await request(server, 'PUT', '/rules', { key: db.secretKey, body: { rules: RULES } });
    await request(server, 'POST', '/auth/sign-up', { key: db.publicKey, body: { email: EMAIL, password: PASSWORD } });
    if (missing) return;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE(server.url, db.publicKey)));
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/`;
  });
  after(async () => {
    await browser?.close();
    pages?.closeAllConnections();
    await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
    await server?.close();
  });

  test('two tabs: sign-in and sign-out in one are heard in the other, whose socket follows; silent sockets say why', { skip: missing }, async () => {
    const context = await browser.newContext();
    const errors: string[] = [];
    const tab = async () => {
      const page = await context.newPage();
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pageUrl);
      await until(page, 'window.ready === true');
      return page;
    };
    const [one, two] = [await tab(), await tab()];

    // Signed out: each socket opens, and says it will see nothing of todos.
    for (const page of [one, two]) await until(page, `${lastState} === '["todos"]'`);

    await one.evaluate(([email, password]) => (window as any).svc.auth.signIn({ email, password }), [EMAIL, PASSWORD]);
    await until(two, `log.auth.some(([e, who]) => e === 'SIGNED_IN' && who === '${EMAIL}')`);
    // Tab two's socket reopened with the session: nothing unreadable, and the user's events arrive.
    await until(two, `${lastState} === 'null'`);
    await one.evaluate(() => (window as any).svc.collection('todos').create({ title: 'from tab one' }));
    await until(two, `log.events.includes('from tab one')`);

    await one.evaluate(() => (window as any).svc.auth.signOut());
    await until(two, `log.auth.at(-1)[0] === 'SIGNED_OUT'`);
    await until(two, `${lastState} === '["todos"]'`);

    // A session ended on the server: the next call's invalid_session signs both tabs out, once each.
    await one.evaluate(([email, password]) => (window as any).svc.auth.signIn({ email, password }), [EMAIL, PASSWORD]);
    await until(two, `log.auth.at(-1)[0] === 'SIGNED_IN'`);
    const userId = await two.evaluate(() => JSON.parse(localStorage.getItem('svc.session')!).user.id);
    const operator = await server.operatorToken();
    const ended = await request(server, 'POST', `/admin/databases/${db.databaseId}/users/${userId}/sign-out`, { key: operator });
    assert.ok(ended.status < 300, ended.text);
    const code = await two.evaluate(() =>
      (window as any).svc
        .collection('todos')
        .list()
        .then(
          () => 'ok',
          (e: { code: string }) => e.code,
        ),
    );
    assert.equal(code, 'invalid_session');
    for (const page of [one, two]) {
      await until(page, `log.auth.at(-1)[0] === 'SIGNED_OUT'`);
      await until(page, `${lastState} === '["todos"]'`);
      const events = (await log(page)).auth.map(([e]) => e);
      const last = events.lastIndexOf('SIGNED_IN');
      assert.deepEqual(events.slice(last + 1), ['SIGNED_OUT'], `one SIGNED_OUT after the last sign-in: ${events.join(', ')}`);
    }
    assert.deepEqual(errors, []);
  });
});

forEachStore('SIGNED_OUT without a stored session', (kind) => {
  let server: TestServer;
  let publicKey: string;
  before(async () => {
    server = await startServer(kind);
    const db = await server.createDatabase();
    publicKey = db.publicKey;
    await request(server, 'PUT', '/rules', { key: db.secretKey, body: { rules: RULES } });
  });
  after(() => server?.close());

  test('a store emptied behind the client (a cookie that expired, no watch): the next invalid_session fires SIGNED_OUT', async () => {
    let value: StoredSession | null = null;
    const cookie: SessionStore = { get: () => value, set: (s) => void (value = s) };
    const svc = createClient({ url: server.url, key: publicKey, sessionStore: cookie });
    const heard: AuthChangeEvent[] = [];
    svc.auth.onAuthStateChange((e) => heard.push(e));
    await svc.auth.signUp({ email: 'cookie@tabs.test', password: PASSWORD });
    value = null; // gone, and nobody told the client
    await assert.rejects(svc.collection('todos').list(), (e: { code?: string }) => e.code === 'invalid_session');
    assert.deepEqual(
      heard.filter((e) => e !== 'INITIAL_SESSION'),
      ['SIGNED_IN', 'SIGNED_OUT'],
    );
    await assert.rejects(svc.collection('todos').list(), (e: { code?: string }) => e.code === 'invalid_session');
    assert.deepEqual(
      heard.filter((e) => e !== 'INITIAL_SESSION'),
      ['SIGNED_IN', 'SIGNED_OUT'],
      'told once',
    );
  });
});

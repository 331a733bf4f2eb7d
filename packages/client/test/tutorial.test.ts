// The README's tutorial, run as written, in Chromium, on each store: the database made with the
// CLI, the rules (with `defaults`) set with curl, the page served by `python3 -m http.server`
// importing the SDK from the server (/sdk/svc.js), two tabs of one user kept in step, and a second
// user who sees none of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { forEachStore } from '../../server/test/helpers/stores.ts';
import { freePort, startServer, type TestServer } from '../../server/test/helpers/server.ts';
import { ROOT_README, sectionBlocks } from './readme-snippets.ts';

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
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const missing = existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`;
if (missing && process.env.CI === 'true') throw new Error(`${missing}: under CI the browser test must run`);

const blocks = sectionBlocks('Tutorial: a private to-do page in five minutes', ROOT_README);
const [createDatabase, setRules, serve] = blocks.filter((b) => b.lang === 'sh').map((b) => b.code);
const html = blocks.find((b) => b.lang === 'html')?.code;

/** Runs a shell snippet as written (bash), from the repository's root; resolves with its standard output. */
function sh(code: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', code], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => process.stderr.write(c));
    child.on('error', reject);
    child.on('close', (status) => resolve({ code: status, out }));
  });
}

test('the tutorial has its four snippets', () => {
  assert.ok(createDatabase && setRules && serve && html, 'three shell snippets and the page');
  assert.match(html!, /import \{ createClient \} from 'http:\/\/localhost:8700\/sdk\/svc\.js'/, 'the page imports the SDK from the server');
});

forEachStore('the README tutorial in Chromium', (kind) => {
  let server: TestServer;
  let browser: Browser;
  let pages: ChildProcess;
  let dir: string;
  let pageUrl: string;
  let secretKey: string;
  const errors: string[] = [];

  before(async () => {
    if (missing) return;
    server = await startServer(kind);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    dir = mkdtempSync(join(tmpdir(), 'svc-tutorial-'));
  });
  after(async () => {
    pages?.kill();
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A tab: its errors are collected (none may happen). */
  async function open(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${e.message}`));
    await page.goto(pageUrl);
    return page;
  }
  const items = (page: Page) => page.locator('#list li');
  const item = (page: Page, title: string) => page.locator('#list li', { hasText: title });
  async function signUp(page: Page, email: string) {
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'correct horse battery');
    await page.click('button[name=signUp]');
    await page.locator('#add').waitFor();
  }
  async function add(page: Page, title: string) {
    await page.fill('input[name=title]', title);
    await page.click('#add button:not([type])');
    await item(page, title).waitFor();
  }

  test('steps 1 to 4 as written: the CLI, curl, the page served by python3', { skip: missing }, async () => {
    const made = await sh(createDatabase!, { DATABASE_URL: server.db.url });
    assert.equal(made.code, 0, made.out);
    secretKey = /svc_sk_\w+/.exec(made.out)![0];
    const publicKey = /svc_pk_\w+/.exec(made.out)![0];

    const rules = await sh(setRules!.replace('svc_sk_…', secretKey).replaceAll('http://localhost:8700', server.url));
    assert.equal(rules.code, 0, rules.out);
    assert.deepEqual(Object.keys(JSON.parse(rules.out).rules.todos).sort(), ['create', 'defaults', 'delete', 'read', 'update'], rules.out);

    writeFileSync(join(dir, 'todo.html'), html!.replace("'svc_pk_…'", JSON.stringify(publicKey)).replaceAll('http://localhost:8700', server.url));
    const port = await freePort();
    pages = spawn('bash', ['-c', `exec ${serve!.replace('5500', String(port))}`], { cwd: dir, stdio: 'ignore' });
    pageUrl = `http://localhost:${port}/todo.html`;
    for (;;) {
      const up = await fetch(pageUrl).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  test('sign up, add: owner and done come from the defaults; a second tab is signed in and both stay in step', { skip: missing }, async () => {
    const ann = await browser.newContext();
    const tab1 = await open(ann);
    await signUp(tab1, 'ann@tutorial.test');
    await add(tab1, 'Buy milk');

    const stored = (await (await fetch(`${server.base}/todos/docs`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as {
      documents: Array<{ title: string; owner: string; done: boolean }>;
    };
    const annId = await tab1.evaluate(() => JSON.parse(localStorage.getItem('svc.session')!).user.id);
    assert.deepEqual(
      stored.documents.map((d) => [d.title, d.owner, d.done]),
      [['Buy milk', annId, false]],
    );

    const tab2 = await open(ann);
    await item(tab2, 'Buy milk').waitFor();
    await add(tab2, 'Walk the dog');
    await item(tab1, 'Walk the dog').waitFor();
    await item(tab1, 'Buy milk').locator('input[type=checkbox]').check();
    await item(tab2, 'Buy milk').locator('input[type=checkbox]:checked').waitFor();
    await item(tab2, 'Walk the dog').getByRole('button', { name: 'Delete' }).click();
    await item(tab1, 'Walk the dog').waitFor({ state: 'detached' });
    assert.equal(await items(tab1).count(), 1);

    // Another user, in another browser profile: an empty list, and nothing of theirs reaches ann.
    const bob = await open(await browser.newContext());
    await signUp(bob, 'bob@tutorial.test');
    assert.equal(await items(bob).count(), 0);
    await add(bob, 'Bob only');
    await add(tab1, 'Later'); // events arrive in commit order: had bob's been visible, it would be here first
    assert.deepEqual(
      (await items(tab1).allInnerTexts()).map((t) => t.trim()),
      ['Buy milk Delete', 'Later Delete'],
    );
    assert.equal(await items(bob).count(), 1);

    // Signing out in one tab signs out both.
    await tab1.click('#signOut');
    for (const tab of [tab1, tab2]) {
      await tab.locator('#account').waitFor();
      assert.equal(await tab.locator('#add').isHidden(), true);
      assert.equal(await items(tab).count(), 0);
    }

    // A wrong password is said in words.
    const other = await open(await browser.newContext());
    await other.fill('input[name=email]', 'ann@tutorial.test');
    await other.fill('input[name=password]', 'not the password');
    await other.click('button[name=signIn]');
    await other.locator('#account output', { hasText: 'Wrong e-mail or password' }).waitFor();
    assert.deepEqual(errors, []);
  });
});

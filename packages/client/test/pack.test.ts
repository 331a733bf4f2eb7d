// The SDK as a user installs it: `npm pack` makes the tarball, a fresh project outside the monorepo
// installs it (`npm install ./svc-client-X.tgz`, no registry needed: the SDK has no dependencies),
// then uses it from Node (ESM import, TypeScript types, calls to a real server) and from a plain
// HTML page in Chromium (an import map pointing at the installed package's ES module build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { fixture, type Fixture } from './helpers.ts';
import { sectionBlocks } from './readme-snippets.ts';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const FILTER = fileURLToPath(new URL('../../filter/', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserMissing = existsSync(CHROMIUM) ? undefined : `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`;
if (browserMissing && process.env.CI === 'true') throw new Error(`${browserMissing}: under CI the browser test must run`);

/** npm, quietly, in a folder (the user's and the repository's npm config left out of it). */
const npm = (cwd: string, ...args: string[]) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env: { ...process.env, npm_config_userconfig: '/dev/null' },
    maxBuffer: 16 << 20,
  });

let f: Fixture;
let project: string;
let tarball: string;
let files: string[];

before(async () => {
  assert.ok(existsSync(join(PACKAGE, 'dist', 'index.js')), 'the SDK is built (npm run build -w @svc/client; npm test does it first)');
  f = await fixture();
  project = mkdtempSync(join(tmpdir(), 'svc-sdk-user-'));
  // --ignore-scripts: `prepack` would rebuild dist/ under the other tests' feet; the test script built it.
  const packed = JSON.parse((await npm(PACKAGE, 'pack', '--json', '--ignore-scripts', '--pack-destination', project)).stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = join(project, packed[0].filename);
  files = packed[0].files.map((x) => x.path);
  // Its query language (the replica's local queries) is a package of this repository too, installed from its own tarball.
  const filter = JSON.parse((await npm(FILTER, 'pack', '--json', '--ignore-scripts', '--pack-destination', project)).stdout) as Array<{ filename: string }>;
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', private: true, type: 'module' }, null, 2));
  await npm(project, 'install', join(project, filter[0].filename), tarball);
});
after(async () => {
  await f?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

test('the tarball holds the build, its types, the sources of its maps and the README; no tests or scripts', () => {
  for (const want of ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/api.d.ts', 'src/index.ts']) {
    assert.ok(files.includes(want), `${want} is packed`);
  }
  assert.deepEqual(
    files.filter((x) => /^(test|scripts)\//.test(x) || x.includes('tsconfig')),
    [],
  );
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules/@svc/client/package.json'), 'utf8'));
  assert.equal(manifest.private, undefined, 'publishable');
  assert.match(manifest.version, /^\d+\.\d+\.\d+/);
  assert.equal(manifest.exports['.'].types, './dist/index.d.ts');
  assert.deepEqual(
    Object.keys(manifest.dependencies).sort(),
    ['@svc/filter', 'idb'],
    "two dependencies: the query language and IndexedDB's wrapper (the replica)",
  );
});

test("from Node: the README's ten-line example, pasted into the project, type-checks against the installed package and runs", async () => {
  const example = sectionBlocks('Install').find((b) => b.lang === 'ts');
  assert.ok(example && example.code.split('\n').filter(Boolean).length <= 10, 'the README starts with a ten-line example');
  writeFileSync(join(project, 'app.ts'), example.code);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, lib: ['ES2022', 'DOM'], types: [], outDir: 'out' },
    }),
  );
  // `process` is declared here, as @types/node isn't installed in this bare project.
  writeFileSync(join(project, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined> };\n');
  // The published types resolve (strict, NodeNext) and tsc compiles the example as a user's build would.
  await run(process.execPath, [TSC, '-p', project], { cwd: project });
  const { stdout } = await run(process.execPath, ['out/app.js'], { cwd: project, env: { ...process.env, SVC_URL: f.server.url, SVC_KEY: f.secretKey } });
  assert.deepEqual(stdout.trim().split('\n'), ["1 [ 'Buy milk' ]", 'not_found']);
  // It is the installed copy, not the workspace's: resolution from the project lands in its node_modules.
  const { stdout: where } = await run(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('@svc/client'))"], { cwd: project });
  assert.ok(where.trim().startsWith(`file://${project}/node_modules/@svc/client/dist/index.js`), where);
  // CommonJS code can use it too: Node ≥ 20.19 require()s an ES module (no separate CJS build).
  const { stdout: required } = await run(process.execPath, ['-e', "console.log(typeof require('@svc/client').createClient)"], { cwd: project });
  assert.equal(required.trim(), 'function');
});

/** Serves the user's project folder (its index.html and node_modules) as a static site would. */
async function serveFolder(root: string) {
  const types: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.map': 'application/json' };
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root + sep) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test('from a plain HTML page in Chromium: an import map names the installed build; the page reads with the public key', { skip: browserMissing }, async () => {
  await f.admin().collection('notes').create({ id: 'for-browser', text: 'read in a browser' });
  writeFileSync(
    join(project, 'index.html'),
    `<!doctype html>
<meta charset="utf-8"><title>my app</title>
<script type="importmap">{ "imports": { "@svc/client": "/node_modules/@svc/client/dist/index.js", "@svc/filter": "/node_modules/@svc/filter/dist/index.js", "idb": "/node_modules/idb/build/index.js" } }</script>
<script type="module">
  import { createClient, SvcError } from '@svc/client';
  const svc = createClient({ url: ${JSON.stringify(f.server.url)}, key: ${JSON.stringify(f.publicKey)} });
  try {
    const note = await svc.collection('notes').get('for-browser');
    let write = '';
    try { await svc.collection('notes').create({ text: 'no' }); } catch (e) { write = e instanceof SvcError ? e.code : String(e); }
    window.result = { text: note.text, write };
  } catch (e) {
    window.result = { error: String(e && e.stack || e) };
  }
</script>`,
  );
  const site = await serveFolder(project);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const loaded: string[] = [];
    page.on('response', (r) => loaded.push(`${r.status()} ${new URL(r.url()).pathname}`));
    await page.goto(site.url);
    await page.waitForFunction(() => (window as unknown as { result?: unknown }).result, undefined, { timeout: 15_000 });
    const result = await page.evaluate(() => (window as unknown as { result: unknown }).result);
    assert.deepEqual(result, { text: 'read in a browser', write: 'read_only_key' }, JSON.stringify({ result, errors }));
    assert.ok(loaded.includes('200 /node_modules/@svc/client/dist/index.js'), 'the module came from the installed package');
    assert.deepEqual(errors, []);
  } finally {
    await browser?.close();
    await site.close();
  }
});

// GET /docs (API.md §11): the API reference page, rendered from /v1/openapi.json by Swagger UI, in
// real Chromium. Every file it loads comes from the server itself (no CDN), and its CSP holds.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { chromiumAvailable, launch, watch } from '../../../dashboard/test/browser.ts';

const IMAGES = process.env.UPDATE_SCREENSHOTS ? '../../../../docs/images/' : '../../test-results/images/';

const run = chromiumAvailable();

forEachStore('API reference page', (kind) => {
  const t = useServer(kind);
  let browser: Browser;
  before(async () => {
    if (run) browser = await launch();
  });
  after(() => browser?.close());

  test("GET /docs is an HTML page with a CSP, no framing and no sniffing; its document is the API's own", async () => {
    for (const path of ['/docs', '/docs/']) {
      const r = await fetch(t.server.url + path);
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/);
      assert.match(csp, /script-src 'self'(;|$)/, 'no inline or remote scripts');
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(r.headers.get('x-frame-options'), 'DENY');
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.doesNotMatch(await r.text(), /https?:\/\//, 'the page names no other host');
    }
    const json = await fetch(`${t.server.url}/docs/json`);
    assert.deepEqual(await json.json(), await (await fetch(`${t.server.base}/openapi.json`)).json());
    // The page's routes stay out of the OpenAPI document, and /v1 is untouched.
    const doc = (await (await fetch(`${t.server.base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/docs')));
  });

  test('in Chromium, the page renders the routes from /v1/openapi.json, loading everything from the server itself', { skip: !run }, async () => {
    const page = await browser.newPage();
    const w = watch(page);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${t.server.url}/docs`);
    // Route names as Swagger UI shows them: the path of each operation, and its summary.
    await page.getByText('/v1/{collection}/docs', { exact: true }).first().waitFor();
    await page.getByText('/v1/admin/databases/{id}/keys', { exact: true }).first().waitFor();
    await page.getByText('Create a database, its first secret key (shown once) and its first public key').waitFor();
    const text = await page.locator('body').innerText();
    for (const route of ['/v1/auth/sign-up', '/v1/realtime/token', '/v1/webhooks']) assert.ok(text.includes(route), `${route} is listed`);
    const origin = new URL(t.server.url).origin;
    const foreign = requested.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'));
    assert.deepEqual(foreign, [], 'no request leaves the server (no CDN, no validator, no fonts)');
    assert.ok(
      requested.some((u) => u === `${origin}/v1/openapi.json`),
      'the page loaded /v1/openapi.json',
    );
    assert.deepEqual(w.errors, [], 'no console errors (a CSP violation would be one)');
    await page.close();
  });

  test("the page says svc, not Fastify or Swagger, and lists the data routes first, the operator's last", { skip: !run }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const w = watch(page);
    await page.goto(`${t.server.url}/docs`);
    await page.locator('.opblock-tag-section').first().waitFor();
    assert.equal(await page.title(), 'svc API reference');
    const sections = await page.locator('.opblock-tag-section h3').evaluateAll((hs) => hs.map((h) => h.getAttribute('data-tag')));
    assert.deepEqual(sections, ['documents', 'rules', 'files', 'realtime', 'auth', 'webhooks', 'admin', 'operations']);
    // The top bar's logo is svc's: an SVG naming it, where @fastify/swagger-ui puts Fastify's.
    const logo = page.locator('#swagger-ui .topbar a.link img');
    await logo.waitFor();
    const svg = Buffer.from((await logo.getAttribute('src'))!.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString();
    assert.match(svg, />svc</);
    assert.doesNotMatch(svg.toLowerCase(), /fastify/);
    const icon = await page.locator('link[rel=icon]').first().getAttribute('href');
    assert.match(icon ?? '', /favicon\.svg$/);
    const served = await fetch(new URL(icon!, `${t.server.url}/docs/`));
    assert.equal(served.headers.get('content-type'), 'image/svg+xml');
    assert.doesNotMatch((await page.content()).toLowerCase(), /fastify/);
    // docs/images/ only with UPDATE_SCREENSHOTS=1 (as the dashboard's tests): a test run leaves the repository as it was.
    if (kind === 'sqlite') await page.screenshot({ path: fileURLToPath(new URL(`${IMAGES}api-reference.png`, import.meta.url)) });
    assert.deepEqual(w.errors, []);
    await page.close();
  });
});

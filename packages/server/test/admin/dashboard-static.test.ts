import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { assertError } from '../helpers/api.ts';
import { installErrorHandling } from '../../src/errors.ts';
import { dashboardRoutes } from '../../src/dashboard/routes.ts';

const ASSETS = fileURLToPath(new URL('../../../dashboard/dist/assets/', import.meta.url));
const INDEX = fileURLToPath(new URL('../../../dashboard/dist/index.html', import.meta.url));
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

/** API.md §7: no framing (X-Frame-Options and the CSP's frame-ancestors), no sniffing, a CSP. */
function assertSecurityHeaders(headers: { get(name: string): string | null } | Headers, what: string): string {
  assert.equal(headers.get('x-frame-options'), 'DENY', what);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', what);
  const csp = headers.get('content-security-policy') ?? '';
  assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/, what);
  assert.match(csp, /(^|; )default-src /, what);
  assert.ok(!/script-src [^;]*'unsafe-(inline|eval)'/.test(csp), `${what}: no inline or eval'd scripts`);
  return csp;
}

forEachStore('dashboard at /', (kind) => {
  const t = useServer(kind);

  test('GET / and deep links a browser navigates to → the app (index.html, not cached)', {
    skip: !existsSync(ASSETS) && 'the dashboard is not built',
  }, async () => {
    for (const path of ['/', '/databases/abc/documents/posts', '/setup']) {
      const r = await request(t.server, 'GET', path, { root: true, headers: html });
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.text, /<div id="app">/);
      assert.equal(r.headers.get('cache-control'), 'no-cache');
    }
    const js = readdirSync(ASSETS).find((f) => f.endsWith('.js'))!;
    const asset = await request(t.server, 'GET', `/assets/${js}`, { root: true });
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  });

  test('the dashboard is sent with X-Frame-Options: DENY, nosniff and a CSP its build satisfies', {
    skip: !existsSync(ASSETS) && 'the dashboard is not built',
  }, async () => {
    for (const path of ['/', '/databases/abc/documents/posts']) {
      const csp = assertSecurityHeaders((await request(t.server, 'GET', path, { root: true, headers: html })).headers, path);
      assert.match(csp, /(^|; )script-src 'self'(;|$)/);
      assert.match(csp, /(^|; )style-src 'self'(;|$)/);
      assert.match(csp, new RegExp(`connect-src 'self' ${t.server.url} ws://${new URL(t.server.url).host}`), 'the realtime socket at PUBLIC_URL');
    }
    const js = readdirSync(ASSETS).find((f) => f.endsWith('.js'))!;
    assertSecurityHeaders((await request(t.server, 'GET', `/assets/${js}`, { root: true })).headers, 'an asset');
    // What the CSP allows is what the build needs: no inline script or style in index.html.
    const index = readFileSync(INDEX, 'utf8');
    assert.ok(!/<script(?![^>]*\ssrc=)[^>]*>/i.test(index), 'no inline <script> in dist/index.html');
    assert.ok(!/<style|\sstyle=|\son[a-z]+=/i.test(index), 'no inline style or event handler in dist/index.html');
    const api = await request(t.server, 'GET', '/health', { root: true, headers: html });
    assert.equal(api.headers.get('content-security-policy'), null, 'API answers are not the dashboard');
  });

  test('/v1, API clients, missing assets and escapes keep the JSON 404; /health and the API are untouched', async () => {
    for (const [path, headers] of [
      ['/v1/nope', html],
      ['/v1', html],
      ['/no/such/page', {}],
      ['/assets/missing.js', html],
      ['/..%2f..%2fpackage.json', html],
      ['/%2e%2e/%2e%2e/package.json', html],
    ] as const) {
      assertError(await request(t.server, 'GET', path, { root: true, headers }), 404, 'not_found', path);
    }
    assert.deepEqual((await request(t.server, 'GET', '/health', { root: true, headers: html })).json, { status: 'ok' });
    assert.equal((await request(t.server, 'GET', '/admin/setup', { headers: html })).status, 200);
  });
});

test('without a build, GET / still answers a page saying how to build the dashboard', async () => {
  const app = Fastify();
  installErrorHandling(app);
  dashboardRoutes(app, { dist: '/nonexistent/dist' });
  const r = await app.inject({ method: 'GET', url: '/' });
  assert.equal(r.statusCode, 200);
  assertSecurityHeaders(new Headers(r.headers as Record<string, string>), 'the placeholder');
  assert.match(r.headers['content-type'] as string, /^text\/html/);
  assert.match(r.body, /npm run build -w @svc\/dashboard/);
  assert.equal((await app.inject({ method: 'GET', url: '/databases/x', headers: html })).statusCode, 404);
  await app.close();
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { request, startServer, type TestServer } from '../helpers/server.ts';
import { openStore } from '../../src/store/open-store.ts';

type OpenApi = { openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> };

forEachStore('operations endpoints', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(kind);
  });
  after(() => server.close());

  test('GET /health → 200 {status: "ok"}, with no key', async () => {
    const r = await request(server, 'GET', '/health', { root: true });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { status: 'ok' });
  });

  test('GET /ready → 200 while the store answers, 503 when it does not, saying which dependency is down', async () => {
    const ok = await request(server, 'GET', '/ready', { root: true });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json, { status: 'ready', store: 'ok' }, 'no redis field without REDIS_URL');
    // A second server on its own connection to a store, whose connection is then closed.
    const db = await openTestStore(kind);
    const own = await openStore(db.url);
    const broken = await startServer(kind, { db: { ...db, store: own } });
    try {
      assert.equal((await request(broken, 'GET', '/ready', { root: true })).status, 200);
      await own.close();
      const r = await request(broken, 'GET', '/ready', { root: true });
      assert.equal(r.status, 503);
      assert.deepEqual(r.json, { status: 'unavailable', store: 'down', error: { code: 'unavailable', message: 'The store does not answer' } });
    } finally {
      await broken.close();
      await db.drop();
    }
  });

  test('GET /metrics is Prometheus text with request counts by route pattern and status', async () => {
    const db = await server.createDatabase();
    const doc = await request(server, 'POST', '/metered/docs', { key: db.secretKey, body: { a: 1 } });
    const id = (doc.json as { id: string }).id;
    await request(server, 'GET', `/metered/docs/${id}`, { key: db.secretKey });
    await request(server, 'GET', '/metered/docs/missing', { key: db.secretKey });
    const r = await request(server, 'GET', '/metrics', { root: true });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(r.text, /^# HELP svc_http_requests_total /m);
    assert.match(r.text, /^# TYPE svc_http_requests_total counter/m);
    assert.match(r.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs\/:id"[^}]*status="200"[^}]*\} 1$/m);
    assert.match(r.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs\/:id"[^}]*status="404"[^}]*\} 1$/m);
    assert.match(r.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs"[^}]*status="201"[^}]*\} 1$/m);
    assert.match(r.text, /^svc_http_request_duration_seconds_bucket\{/m);
    assert.ok(!r.text.includes(id), 'no document ids in labels');
    assert.ok(!r.text.includes(db.secretKey));
  });

  test('GET /metrics is open without METRICS_TOKEN; with it, only Authorization: Bearer <token> gets in (else 401 in the error shape)', async () => {
    assert.equal((await request(server, 'GET', '/metrics', { root: true, key: 'anything' })).status, 200, 'no token configured: open');
    const token = 'metrics-token-0123456789abcdef';
    const guarded = await startServer(kind, { env: { METRICS_TOKEN: token } });
    try {
      const refused: Array<[string, Record<string, string>]> = [
        ['no Authorization', {}], ['a wrong token', { authorization: 'Bearer metrics-token-0123456789abcdeX' }],
        ['a prefix of the token', { authorization: `Bearer ${token.slice(0, 10)}` }], ['the token and more', { authorization: `Bearer ${token}0` }],
        ['another scheme', { authorization: `Basic ${token}` }], ['an empty bearer', { authorization: 'Bearer ' }],
      ];
      for (const [what, headers] of refused) {
        const r = await request(guarded, 'GET', '/metrics', { root: true, headers });
        assert.equal(r.status, 401, what);
        assert.equal((r.json as { error: { code: string } }).error.code, 'invalid_token', what);
        assert.match((r.json as { error: { message: string } }).error.message, /METRICS_TOKEN/, what);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="metrics"', what);
        assert.ok(!r.text.includes('svc_http_requests_total'), what);
      }
      const ok = await request(guarded, 'GET', '/metrics', { root: true, headers: { authorization: `bearer ${token}` } });
      assert.equal(ok.status, 200);
      assert.match(ok.text, /^# TYPE svc_http_requests_total counter/m);
      assert.equal((await request(guarded, 'GET', '/health', { root: true })).status, 200, '/health stays open');
    } finally {
      await guarded.close();
    }
  });

  test('GET /v1/openapi.json is an OpenAPI 3.1 document listing the documents and admin routes', async () => {
    const r = await request(server, 'GET', '/openapi.json');
    assert.equal(r.status, 200);
    const doc = r.json as OpenApi;
    assert.match(doc.openapi, /^3\.1\./);
    assert.equal(typeof doc.info.title, 'string');
    const expected: Record<string, string[]> = {
      '/v1/{collection}/docs': ['get', 'post'],
      '/v1/{collection}/docs/{id}': ['delete', 'get', 'patch'],
      '/v1/{collection}/bulk': ['post'],
      '/v1/collections': ['get'],
      '/v1/admin/sign-in': ['post'],
      '/v1/admin/databases': ['get', 'post'],
      '/v1/admin/databases/{id}': ['delete', 'get', 'patch'],
      '/v1/admin/databases/{id}/keys': ['get', 'post'],
      '/v1/admin/databases/{id}/keys/{keyId}': ['delete'],
    };
    for (const [path, methods] of Object.entries(expected)) {
      assert.ok(doc.paths[path], `${path} is documented; have ${Object.keys(doc.paths).join(', ')}`);
      for (const m of methods) assert.ok(doc.paths[path][m], `${m.toUpperCase()} ${path}`);
    }
    const list = doc.paths['/v1/{collection}/docs'].get as { parameters: Array<{ name: string; in: string }> };
    const query = list.parameters.filter((p) => p.in === 'query').map((p) => p.name).sort();
    assert.deepEqual(query, ['filter', 'limit', 'offset', 'sortBy', 'sortOrder']);
    const create = doc.paths['/v1/{collection}/docs'].post as { responses: Record<string, unknown> };
    for (const status of ['201', '400', '401', '403', '409', '413']) assert.ok(create.responses[status], `POST docs documents ${status}`);
  });
});

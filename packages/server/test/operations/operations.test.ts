import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { openStore } from '../../src/store/open-store.ts';

type OpenApi = { openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> };

forEachStore('operations endpoints', (kind) => {
  const t = useServer(kind);
  /** No key: these routes are open (or take their own token). */
  const anon = apiClient(() => t.server);
  const root = { root: true };

  test('GET /health → 200 {status: "ok"}, with no key', async () => {
    assert.deepEqual(await anon.get('/health', 200, root), { status: 'ok' });
  });

  test('GET /ready → 200 while the store answers, 503 when it does not, saying which dependency is down', async () => {
    assert.deepEqual(await anon.get('/ready', 200, root), { status: 'ready', store: 'ok' }, 'no redis field without REDIS_URL');
    // A second server on its own connection to a store, whose connection is then closed: not useServer().
    const db = await openTestStore(kind);
    const own = await openStore(db.url);
    const broken = await startServer(kind, { db: { ...db, store: own } });
    try {
      await apiClient(broken).get('/ready', 200, root);
      await own.close();
      const r = await apiClient(broken).get('/ready', 503, root);
      assert.deepEqual(r, { status: 'unavailable', store: 'down', error: { code: 'unavailable', message: 'The store does not answer' } });
    } finally {
      await broken.close();
      await db.drop();
    }
  });

  test('GET /metrics is Prometheus text with request counts by route pattern and status', async () => {
    const secret = apiClient(t.server, t.db.secretKey);
    const { id } = await secret.post<{ id: string }>('/metered/docs', { a: 1 }, 201);
    await secret.get(`/metered/docs/${id}`);
    await secret.get('/metered/docs/missing', 404);
    const r = await anon.request('GET', '/metrics', root);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(r.text, /^# HELP svc_http_requests_total /m);
    assert.match(r.text, /^# TYPE svc_http_requests_total counter/m);
    assert.match(r.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs\/:id"[^}]*status="200"[^}]*\} 1$/m);
    assert.match(r.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs\/:id"[^}]*status="404"[^}]*\} 1$/m);
    assert.match(r.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs"[^}]*status="201"[^}]*\} 1$/m);
    assert.match(r.text, /^svc_http_request_duration_seconds_bucket\{/m);
    assert.ok(!r.text.includes(id), 'no document ids in labels');
    assert.ok(!r.text.includes(t.db.secretKey));
    // Counts are tallied between scrapes and added at each one: they keep growing, never reset.
    await secret.get(`/metered/docs/${id}`);
    const again = await anon.request('GET', '/metrics', root);
    assert.match(again.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs\/:id"[^}]*status="200"[^}]*\} 2$/m);
    assert.match(again.text, /^svc_http_requests_total\{[^}]*route="\/v1\/:collection\/docs"[^}]*status="201"[^}]*\} 1$/m);
    assert.match(again.text, /^svc_http_requests_total\{[^}]*route="\/metrics"[^}]*status="200"[^}]*\} 1$/m, 'the first scrape, counted once answered');
  });

  test('GET /metrics is open without METRICS_TOKEN; with it, only Authorization: Bearer <token> gets in (else 401 in the error shape)', async () => {
    assert.equal((await anon.request('GET', '/metrics', { root: true, key: 'anything' })).status, 200, 'no token configured: open');
    const token = 'metrics-token-0123456789abcdef';
    // A second server with METRICS_TOKEN, for this test only.
    const guarded = await startServer(kind, { env: { METRICS_TOKEN: token } });
    const guardedApi = apiClient(guarded);
    try {
      const refused: Array<[string, Record<string, string>]> = [
        ['no Authorization', {}],
        ['a wrong token', { authorization: 'Bearer metrics-token-0123456789abcdeX' }],
        ['a prefix of the token', { authorization: `Bearer ${token.slice(0, 10)}` }],
        ['the token and more', { authorization: `Bearer ${token}0` }],
        ['another scheme', { authorization: `Basic ${token}` }],
        ['an empty bearer', { authorization: 'Bearer ' }],
      ];
      for (const [what, headers] of refused) {
        const r = await guardedApi.request('GET', '/metrics', { root: true, headers });
        assertError(r, 401, 'invalid_token', what);
        assert.match((r.json as { error: { message: string } }).error.message, /METRICS_TOKEN/, what);
        assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="metrics"', what);
        assert.ok(!r.text.includes('svc_http_requests_total'), what);
      }
      const ok = await guardedApi.request('GET', '/metrics', { root: true, headers: { authorization: `bearer ${token}` } });
      assert.equal(ok.status, 200);
      assert.match(ok.text, /^# TYPE svc_http_requests_total counter/m);
      await guardedApi.get('/health', 200, root); // /health stays open
    } finally {
      await guarded.close();
    }
  });

  test('GET /v1/openapi.json is an OpenAPI 3.1 document listing the documents and admin routes', async () => {
    const doc = await anon.get<OpenApi>('/openapi.json');
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
    const query = list.parameters
      .filter((p) => p.in === 'query')
      .map((p) => p.name)
      .sort();
    assert.deepEqual(query, ['cursor', 'fields', 'filter', 'limit', 'offset', 'search', 'sortBy', 'sortOrder']);
    const create = doc.paths['/v1/{collection}/docs'].post as { responses: Record<string, unknown> };
    for (const status of ['201', '400', '401', '403', '409', '413']) assert.ok(create.responses[status], `POST docs documents ${status}`);
  });
});

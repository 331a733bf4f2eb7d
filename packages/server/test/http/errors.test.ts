import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer, type Response } from '../helpers/server.ts';
import { apiClient, assertError as assertErrorCode } from '../helpers/api.ts';

type Doc = Record<string, unknown> & { id: string };
const MIB = 1024 * 1024;

/** Every error answer has the §0 shape: JSON, `{error: {code, message}}`, the code matching the status. */
function assertError(r: Response, status: number, code: string, what: string): void {
  assertErrorCode(r, status, code, what);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/, what);
  assert.ok(!/\bat .*\.ts:\d+|SELECT |INSERT /.test(r.text), `${what}: no stack or SQL in the answer`);
}

/** An object nested `levels` objects deep (the outermost counts as one). */
const nested = (levels: number): unknown => Array.from({ length: levels - 1 }).reduce<unknown>((inner) => ({ a: inner }), { leaf: 1 });

forEachStore('error answers', (kind) => {
  // A 3 MiB body limit, so both the 1 MiB document limit and the body limit can be crossed cheaply.
  const t = useServer(kind, { env: { LIMIT_BODY_BYTES: String(3 * MIB) } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  const total = async (collection: string) => (await api.get<{ total: number }>(`/${collection}/docs`)).total;

  test('400 invalid_json for a body that is not JSON', async () => {
    for (const raw of ['{bad', '{"a":1', "{'a':1}", '{"a":1}}', 'undefined', '', '   ']) {
      assertError(await api.request('POST', '/posts/docs', { raw }), 400, 'invalid_json', `POST ${JSON.stringify(raw)}`);
    }
    assertError(await api.request('PATCH', '/posts/docs/x', { raw: '{nope' }), 400, 'invalid_json', 'PATCH');
    assertError(await api.request('POST', '/posts/bulk', { raw: '[{' }), 400, 'invalid_json', 'bulk');
    assert.equal(await total('posts'), 0);
  });

  test('400 when the body is JSON but not an object', async () => {
    const c = await api.post<Doc>('/shapes/docs', { v: 1 }, 201);
    for (const raw of ['[1,2]', '"text"', '42', 'true', 'null', '[]']) {
      assertError(await api.request('POST', '/shapes/docs', { raw }), 400, 'validation_failed', `POST ${raw}`);
      assertError(await api.request('PATCH', `/shapes/docs/${c.id}`, { raw }), 400, 'validation_failed', `PATCH ${raw}`);
    }
    assert.equal(await total('shapes'), 1);
    assert.equal((await api.get<Doc>(`/shapes/docs/${c.id}`)).v, 1);
  });

  test('400 invalid_collection_name and reserved_collection_name on every documents route', async () => {
    const invalid = ['1abc', '_a', '-a', 'a.b', 'a%20b', '%C3%A9t%C3%A9', 'a'.repeat(65), 'a$', "a'--"];
    const reserved = ['auth', 'realtime', 'webhooks', 'admin', 'collections', 'openapi.json'];
    const routes = (name: string): Array<[string, string, unknown]> => [
      ['POST', `/${name}/docs`, { a: 1 }],
      ['GET', `/${name}/docs`, undefined],
      ['GET', `/${name}/docs/x`, undefined],
      ['PATCH', `/${name}/docs/x`, { a: 1 }],
      ['DELETE', `/${name}/docs/x`, undefined],
      ['POST', `/${name}/bulk`, { documents: [{}] }],
    ];
    for (const name of invalid) {
      for (const [method, path, body] of routes(name))
        assertError(await api.request(method, path, { body }), 400, 'invalid_collection_name', `${method} ${path}`);
    }
    for (const name of reserved) {
      for (const [method, path, body] of routes(name)) {
        const r = await api.request(method, path, { body });
        // A feature that owns the prefix (GET /webhooks/:id, …) may answer first; it must never be a document write or read.
        const owned = ['auth', 'realtime', 'webhooks', 'admin'].includes(name) && errorCode(r) !== 'reserved_collection_name';
        if (owned) assert.ok(r.status >= 400, `${method} ${path} answered ${r.status}`);
        else assertError(r, 400, 'reserved_collection_name', `${method} ${path}`);
      }
    }
    await api.post(`/${'a'.repeat(64)}/docs`, {}, 201); // 64 characters is fine
    await api.post('/A-b_9/docs', {}, 201);
    const cols = (await api.get<{ collections: Array<{ name: string }> }>('/collections')).collections.map((c) => c.name);
    for (const name of [...reserved, ...invalid]) assert.ok(!cols.includes(name), name);
  });

  test('JSON nesting deeper than 32 → 400; 32 is accepted', async () => {
    await api.post('/deep/docs', nested(32), 201);
    assertError(await api.request('POST', '/deep/docs', { body: nested(33) }), 400, 'validation_failed', 'create 33');
    assertError(await api.request('POST', '/deep/docs', { body: { list: [[[[nested(30)]]]] } }), 400, 'validation_failed', 'arrays count');
    assertError(await api.request('POST', '/deep/bulk', { body: { documents: [{}, nested(33)] } }), 400, 'validation_failed', 'bulk');
    const id = (await api.get<{ documents: Doc[] }>('/deep/docs')).documents[0].id;
    assertError(await api.request('PATCH', `/deep/docs/${id}`, { body: { x: nested(32) } }), 400, 'validation_failed', 'patch');
    assert.equal(await total('deep'), 1);
    const huge = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    assertError(await api.request('POST', '/deep/docs', { raw: huge }), 400, 'validation_failed', '100k levels, no stack overflow');
  });

  test('a __proto__ key anywhere → 400 and nothing is stored or polluted', async () => {
    const c = await api.post<Doc>('/proto/docs', { safe: 1 }, 201);
    for (const raw of ['{"__proto__":{"polluted":true}}', '{"a":{"b":{"__proto__":{"polluted":true}}}}', '{"list":[{"__proto__":{}}]}']) {
      assertError(await api.request('POST', '/proto/docs', { raw }), 400, 'invalid_field_name', `POST ${raw}`);
      assertError(await api.request('PATCH', `/proto/docs/${c.id}`, { raw }), 400, 'invalid_field_name', `PATCH ${raw}`);
    }
    assertError(await api.request('POST', '/proto/bulk', { raw: '{"documents":[{"__proto__":{"polluted":true}}]}' }), 400, 'invalid_field_name', 'bulk');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(await total('proto'), 1);
    assert.deepEqual(await api.get(`/proto/docs/${c.id}`), c);
  });

  test('strings PostgreSQL cannot store (NUL, lone surrogates) → 400 on both stores, never 500', async () => {
    for (const raw of ['{"s":"a\\u0000b"}', '{"a\\u0000":1}', '{"s":"\\ud800"}', '{"s":"x\\udc00y"}', '{"deep":[{"s":"\\u0000"}]}']) {
      assertError(await api.request('POST', '/strings/docs', { raw }), 400, 'validation_failed', `POST ${raw}`);
      assertError(await api.request('POST', '/strings/bulk', { raw: `{"documents":[${raw}]}` }), 400, 'validation_failed', `bulk ${raw}`);
    }
    assertError(
      await request(t.server, 'POST', '/admin/sign-in', { raw: '{"email":"a\\u0000@b.c","password":"whatever-password"}' }),
      400,
      'validation_failed',
      'sign-in',
    );
    await api.post('/strings/docs', { s: 'emoji \u{1F600} and \ud83d\ude00, tab\t, é' }, 201); // well-formed Unicode is fine
    assert.equal(await total('strings'), 1);
    for (const filter of ['{"s":"a\\u0000b"}', '{"s":{"$in":["\\ud800"]}}']) {
      assertError(await api.request('GET', '/strings/docs', { query: { filter } }), 400, 'invalid_filter', filter);
    }
  });

  test('document ids in paths that cannot exist → 404 in the error shape, however long or odd', async () => {
    for (const id of ['%00', 'a%00b', 'x'.repeat(129), 'y'.repeat(3000), '%F0%9F%98%80', 'a.b', "a'b"]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { a: 1 }],
        ['DELETE', undefined],
      ] as const) {
        assertError(await api.request(method, `/strings/docs/${id}`, { body }), 404, 'not_found', `${method} ${id.slice(0, 20)}`);
      }
    }
    assertError(await api.request('GET', `/${'c'.repeat(300)}/docs`), 400, 'invalid_collection_name', 'a 300-character collection');
  });

  test('404 not_found for unknown routes (inside and outside /v1) and missing documents', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['GET', '/posts/docs/a/b'],
      // (PUT on a document is a 405 pointing at PATCH: test/http/teaching-errors.test.ts)
      ['POST', '/posts'],
      ['GET', '/posts/documents'],
    ]) {
      assertError(await api.request(method, path), 404, 'not_found', `${method} ${path}`);
    }
    assertError(await request(t.server, 'GET', '/no/such/page', { root: true }), 404, 'not_found', 'outside /v1');
    assertError(await api.request('GET', '/posts/docs/missing'), 404, 'not_found', 'missing document');
  });

  test('409 conflict for a duplicate document id', async () => {
    await api.post('/dups/docs', { id: 'one', v: 1 }, 201);
    assertError(await api.request('POST', '/dups/docs', { body: { id: 'one', v: 2 } }), 409, 'conflict', 'create');
    assertError(await api.request('POST', '/dups/bulk', { body: { documents: [{ id: 'two' }, { id: 'one' }] } }), 409, 'conflict', 'bulk');
    assert.equal(await total('dups'), 1);
  });

  test('413 for a document over 1 MiB on create and on a PATCH that grows it; exactly 1 MiB is fine', async () => {
    // JSON.stringify({s: "…"}) is the string's length + 8 bytes.
    const exact = { s: 'x'.repeat(MIB - 8) };
    await api.post('/big/docs', exact, 201); // a document of exactly 1 MiB
    assertError(await api.request('POST', '/big/docs', { body: { s: 'x'.repeat(MIB - 7) } }), 413, 'payload_too_large', '1 MiB + 1');
    assertError(await api.request('POST', '/big/docs', { body: { s: 'é'.repeat(MIB / 2) } }), 413, 'payload_too_large', 'bytes, not characters');
    assert.equal(await total('big'), 1);

    const small = await api.post<Doc>('/big/docs', { s: 'small', keep: true }, 201);
    assertError(await api.request('PATCH', `/big/docs/${small.id}`, { body: { more: 'y'.repeat(MIB) } }), 413, 'payload_too_large', 'patch grows');
    assert.deepEqual(await api.get(`/big/docs/${small.id}`), small, 'the document is unchanged');
    assert.equal(await total('big'), 2);
  });

  test('413 for a request body over the body limit', async () => {
    const r = await api.request('POST', '/huge/bulk', { body: { documents: Array.from({ length: 4 }, () => ({ s: 'z'.repeat(MIB) })) } });
    assertError(r, 413, 'payload_too_large', 'body over LIMIT_BODY_BYTES');
    assert.equal(await total('huge'), 0);
  });

  test('415 for a write without a JSON content type; JSON with parameters and merge-patch+json work', async () => {
    const body = JSON.stringify({ a: 1 });
    for (const contentType of ['text/plain', null, 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json']) {
      assertError(await api.request('POST', '/media/docs', { raw: body, contentType }), 415, 'unsupported_media_type', `POST ${contentType}`);
      assertError(
        await api.request('POST', '/media/bulk', { raw: JSON.stringify({ documents: [{}] }), contentType }),
        415,
        'unsupported_media_type',
        `bulk ${contentType}`,
      );
    }
    assert.equal(await total('media'), 0);
    const c = await api.request('POST', '/media/docs', { raw: body, contentType: 'application/json; charset=utf-8' });
    assert.equal(c.status, 201);
    const id = (c.json as Doc).id;
    for (const contentType of ['text/plain', null, 'application/x-www-form-urlencoded']) {
      assertError(await api.request('PATCH', `/media/docs/${id}`, { raw: '{"a":2}', contentType }), 415, 'unsupported_media_type', `PATCH ${contentType}`);
    }
    const p1 = await api.request('PATCH', `/media/docs/${id}`, { raw: '{"a":3}', contentType: 'application/merge-patch+json' });
    assert.equal(p1.status, 200);
    const p2 = await api.request('PATCH', `/media/docs/${id}`, { raw: '{"b":4}', contentType: 'Application/JSON; charset=UTF-8' });
    assert.equal(p2.status, 200);
    assert.deepEqual({ a: (p2.json as Doc).a, b: (p2.json as Doc).b }, { a: 3, b: 4 });
    await api.delete(`/media/docs/${id}`, 204); // a DELETE needs no content type
  });
});

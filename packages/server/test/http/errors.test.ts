import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type Response, type TestServer } from '../helpers/server.ts';

type Doc = Record<string, unknown> & { id: string };
const MIB = 1024 * 1024;

/** Every error answer has the §0 shape: JSON, `{error: {code, message}}`, the code matching the status. */
function assertError(r: Response, status: number, code: string, what: string): void {
  assert.equal(r.status, status, `${what}: ${r.text.slice(0, 200)}`);
  assert.equal(errorCode(r), code, what);
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/, what);
  const e = (r.json as { error: { message: unknown } }).error;
  assert.equal(typeof e.message, 'string', what);
  assert.ok(!/\bat .*\.ts:\d+|SELECT |INSERT /.test(r.text), `${what}: no stack or SQL in the answer`);
}

/** An object nested `levels` objects deep (the outermost counts as one). */
const nested = (levels: number): unknown => Array.from({ length: levels - 1 }).reduce<unknown>((inner) => ({ a: inner }), { leaf: 1 });

forEachStore('error answers', (kind) => {
  let server: TestServer;
  let key: string;
  before(async () => {
    // A 3 MiB body limit, so both the 1 MiB document limit and the body limit can be crossed cheaply.
    server = await startServer(kind, { env: { LIMIT_BODY_BYTES: String(3 * MIB) } });
    key = (await server.createDatabase()).secretKey;
  });
  after(() => server.close());

  const total = async (collection: string) => ((await request(server, 'GET', `/${collection}/docs`, { key })).json as { total: number }).total;

  test('400 invalid_json for a body that is not JSON', async () => {
    for (const raw of ['{bad', '{"a":1', "{'a':1}", '{"a":1}}', 'undefined', '', '   ']) {
      assertError(await request(server, 'POST', '/posts/docs', { key, raw }), 400, 'invalid_json', `POST ${JSON.stringify(raw)}`);
    }
    assertError(await request(server, 'PATCH', '/posts/docs/x', { key, raw: '{nope' }), 400, 'invalid_json', 'PATCH');
    assertError(await request(server, 'POST', '/posts/bulk', { key, raw: '[{' }), 400, 'invalid_json', 'bulk');
    assert.equal(await total('posts'), 0);
  });

  test('400 when the body is JSON but not an object', async () => {
    const c = (await request(server, 'POST', '/shapes/docs', { key, body: { v: 1 } })).json as Doc;
    for (const raw of ['[1,2]', '"text"', '42', 'true', 'null', '[]']) {
      assertError(await request(server, 'POST', '/shapes/docs', { key, raw }), 400, 'validation_failed', `POST ${raw}`);
      assertError(await request(server, 'PATCH', `/shapes/docs/${c.id}`, { key, raw }), 400, 'validation_failed', `PATCH ${raw}`);
    }
    assert.equal(await total('shapes'), 1);
    assert.equal(((await request(server, 'GET', `/shapes/docs/${c.id}`, { key })).json as Doc).v, 1);
  });

  test('400 invalid_collection_name and reserved_collection_name on every documents route', async () => {
    const invalid = ['1abc', '_a', '-a', 'a.b', 'a%20b', '%C3%A9t%C3%A9', 'a'.repeat(65), 'a$', "a'--"];
    const reserved = ['auth', 'realtime', 'webhooks', 'admin', 'collections', 'openapi.json'];
    const routes = (name: string): Array<[string, string, unknown]> => [
      ['POST', `/${name}/docs`, { a: 1 }], ['GET', `/${name}/docs`, undefined], ['GET', `/${name}/docs/x`, undefined],
      ['PATCH', `/${name}/docs/x`, { a: 1 }], ['DELETE', `/${name}/docs/x`, undefined], ['POST', `/${name}/bulk`, { documents: [{}] }],
    ];
    for (const name of invalid) {
      for (const [method, path, body] of routes(name)) assertError(await request(server, method, path, { key, body }), 400, 'invalid_collection_name', `${method} ${path}`);
    }
    for (const name of reserved) {
      for (const [method, path, body] of routes(name)) {
        const r = await request(server, method, path, { key, body });
        // A feature that owns the prefix (GET /webhooks/:id, …) may answer first; it must never be a document write or read.
        const owned = ['auth', 'realtime', 'webhooks', 'admin'].includes(name) && errorCode(r) !== 'reserved_collection_name';
        if (owned) assert.ok(r.status >= 400, `${method} ${path} answered ${r.status}`);
        else assertError(r, 400, 'reserved_collection_name', `${method} ${path}`);
      }
    }
    assert.equal((await request(server, 'POST', `/${'a'.repeat(64)}/docs`, { key, body: {} })).status, 201, '64 characters is fine');
    assert.equal((await request(server, 'POST', '/A-b_9/docs', { key, body: {} })).status, 201);
    const cols = ((await request(server, 'GET', '/collections', { key })).json as { collections: Array<{ name: string }> }).collections.map((c) => c.name);
    for (const name of [...reserved, ...invalid]) assert.ok(!cols.includes(name), name);
  });

  test('JSON nesting deeper than 32 → 400; 32 is accepted', async () => {
    assert.equal((await request(server, 'POST', '/deep/docs', { key, body: nested(32) })).status, 201);
    assertError(await request(server, 'POST', '/deep/docs', { key, body: nested(33) }), 400, 'validation_failed', 'create 33');
    assertError(await request(server, 'POST', '/deep/docs', { key, body: { list: [[[[nested(30)]]]] } }), 400, 'validation_failed', 'arrays count');
    assertError(await request(server, 'POST', '/deep/bulk', { key, body: { documents: [{}, nested(33)] } }), 400, 'validation_failed', 'bulk');
    const id = ((await request(server, 'GET', '/deep/docs', { key })).json as { documents: Doc[] }).documents[0].id;
    assertError(await request(server, 'PATCH', `/deep/docs/${id}`, { key, body: { x: nested(32) } }), 400, 'validation_failed', 'patch');
    assert.equal(await total('deep'), 1);
    const huge = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    assertError(await request(server, 'POST', '/deep/docs', { key, raw: huge }), 400, 'validation_failed', '100k levels, no stack overflow');
  });

  test('a __proto__ key anywhere → 400 and nothing is stored or polluted', async () => {
    const c = (await request(server, 'POST', '/proto/docs', { key, body: { safe: 1 } })).json as Doc;
    for (const raw of ['{"__proto__":{"polluted":true}}', '{"a":{"b":{"__proto__":{"polluted":true}}}}', '{"list":[{"__proto__":{}}]}']) {
      assertError(await request(server, 'POST', '/proto/docs', { key, raw }), 400, 'invalid_field_name', `POST ${raw}`);
      assertError(await request(server, 'PATCH', `/proto/docs/${c.id}`, { key, raw }), 400, 'invalid_field_name', `PATCH ${raw}`);
    }
    assertError(await request(server, 'POST', '/proto/bulk', { key, raw: '{"documents":[{"__proto__":{"polluted":true}}]}' }), 400, 'invalid_field_name', 'bulk');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(await total('proto'), 1);
    assert.deepEqual((await request(server, 'GET', `/proto/docs/${c.id}`, { key })).json, c);
  });

  test('strings PostgreSQL cannot store (NUL, lone surrogates) → 400 on both stores, never 500', async () => {
    for (const raw of ['{"s":"a\\u0000b"}', '{"a\\u0000":1}', '{"s":"\\ud800"}', '{"s":"x\\udc00y"}', '{"deep":[{"s":"\\u0000"}]}']) {
      assertError(await request(server, 'POST', '/strings/docs', { key, raw }), 400, 'validation_failed', `POST ${raw}`);
      assertError(await request(server, 'POST', '/strings/bulk', { key, raw: `{"documents":[${raw}]}` }), 400, 'validation_failed', `bulk ${raw}`);
    }
    assertError(await request(server, 'POST', '/admin/sign-in', { raw: '{"email":"a\\u0000@b.c","password":"whatever-password"}' }), 400, 'validation_failed', 'sign-in');
    const ok = await request(server, 'POST', '/strings/docs', { key, body: { s: 'emoji \u{1F600} and \ud83d\ude00, tab\t, é' } });
    assert.equal(ok.status, 201, 'well-formed Unicode is fine');
    assert.equal(await total('strings'), 1);
    for (const filter of ['{"s":"a\\u0000b"}', '{"s":{"$in":["\\ud800"]}}']) {
      assertError(await request(server, 'GET', '/strings/docs', { key, query: { filter } }), 400, 'invalid_filter', filter);
    }
  });

  test('document ids in paths that cannot exist → 404 in the error shape, however long or odd', async () => {
    for (const id of ['%00', 'a%00b', 'x'.repeat(129), 'y'.repeat(3000), '%F0%9F%98%80', 'a.b', "a'b"]) {
      for (const [method, body] of [['GET', undefined], ['PATCH', { a: 1 }], ['DELETE', undefined]] as const) {
        assertError(await request(server, method, `/strings/docs/${id}`, { key, body }), 404, 'not_found', `${method} ${id.slice(0, 20)}`);
      }
    }
    assertError(await request(server, 'GET', `/${'c'.repeat(300)}/docs`, { key }), 400, 'invalid_collection_name', 'a 300-character collection');
  });

  test('404 not_found for unknown routes (inside and outside /v1) and missing documents', async () => {
    for (const [method, path] of [['GET', '/nope'], ['GET', '/posts/docs/a/b'], ['PUT', '/posts/docs/x'], ['POST', '/posts'], ['GET', '/posts/documents']]) {
      assertError(await request(server, method, path, { key }), 404, 'not_found', `${method} ${path}`);
    }
    assertError(await request(server, 'GET', '/no/such/page', { root: true }), 404, 'not_found', 'outside /v1');
    assertError(await request(server, 'GET', '/posts/docs/missing', { key }), 404, 'not_found', 'missing document');
  });

  test('409 conflict for a duplicate document id', async () => {
    await request(server, 'POST', '/dups/docs', { key, body: { id: 'one', v: 1 } });
    assertError(await request(server, 'POST', '/dups/docs', { key, body: { id: 'one', v: 2 } }), 409, 'conflict', 'create');
    assertError(await request(server, 'POST', '/dups/bulk', { key, body: { documents: [{ id: 'two' }, { id: 'one' }] } }), 409, 'conflict', 'bulk');
    assert.equal(await total('dups'), 1);
  });

  test('413 for a document over 1 MiB on create and on a PATCH that grows it; exactly 1 MiB is fine', async () => {
    // JSON.stringify({s: "…"}) is the string's length + 8 bytes.
    const exact = { s: 'x'.repeat(MIB - 8) };
    const ok = await request(server, 'POST', '/big/docs', { key, body: exact });
    assert.equal(ok.status, 201, 'a document of exactly 1 MiB');
    assertError(await request(server, 'POST', '/big/docs', { key, body: { s: 'x'.repeat(MIB - 7) } }), 413, 'payload_too_large', '1 MiB + 1');
    assertError(await request(server, 'POST', '/big/docs', { key, body: { s: 'é'.repeat(MIB / 2) } }), 413, 'payload_too_large', 'bytes, not characters');
    assert.equal(await total('big'), 1);

    const small = (await request(server, 'POST', '/big/docs', { key, body: { s: 'small', keep: true } })).json as Doc;
    assertError(await request(server, 'PATCH', `/big/docs/${small.id}`, { key, body: { more: 'y'.repeat(MIB) } }), 413, 'payload_too_large', 'patch grows');
    assert.deepEqual((await request(server, 'GET', `/big/docs/${small.id}`, { key })).json, small, 'the document is unchanged');
    assert.equal(await total('big'), 2);
  });

  test('413 for a request body over the body limit', async () => {
    const r = await request(server, 'POST', '/huge/bulk', { key, body: { documents: Array.from({ length: 4 }, () => ({ s: 'z'.repeat(MIB) })) } });
    assertError(r, 413, 'payload_too_large', 'body over LIMIT_BODY_BYTES');
    assert.equal(await total('huge'), 0);
  });

  test('415 for a write without a JSON content type; JSON with parameters and merge-patch+json work', async () => {
    const body = JSON.stringify({ a: 1 });
    for (const contentType of ['text/plain', null, 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json']) {
      assertError(await request(server, 'POST', '/media/docs', { key, raw: body, contentType }), 415, 'unsupported_media_type', `POST ${contentType}`);
      assertError(await request(server, 'POST', '/media/bulk', { key, raw: JSON.stringify({ documents: [{}] }), contentType }), 415, 'unsupported_media_type', `bulk ${contentType}`);
    }
    assert.equal(await total('media'), 0);
    const c = await request(server, 'POST', '/media/docs', { key, raw: body, contentType: 'application/json; charset=utf-8' });
    assert.equal(c.status, 201);
    const id = (c.json as Doc).id;
    for (const contentType of ['text/plain', null, 'application/x-www-form-urlencoded']) {
      assertError(await request(server, 'PATCH', `/media/docs/${id}`, { key, raw: '{"a":2}', contentType }), 415, 'unsupported_media_type', `PATCH ${contentType}`);
    }
    const p1 = await request(server, 'PATCH', `/media/docs/${id}`, { key, raw: '{"a":3}', contentType: 'application/merge-patch+json' });
    assert.equal(p1.status, 200);
    const p2 = await request(server, 'PATCH', `/media/docs/${id}`, { key, raw: '{"b":4}', contentType: 'Application/JSON; charset=UTF-8' });
    assert.equal(p2.status, 200);
    assert.deepEqual({ a: (p2.json as Doc).a, b: (p2.json as Doc).b }, { a: 3, b: 4 });
    assert.equal((await request(server, 'DELETE', `/media/docs/${id}`, { key })).status, 204, 'a DELETE needs no content type');
  });
});

// Errors that teach: each mistake a newcomer from PocketBase or Supabase makes is answered
// in API.md's shape and codes, saying what svc takes instead, once.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { assertError } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';

type Details = { error: { message: string; details?: Array<{ path: string; message: string }> } };
const body = (r: { json: unknown }) => r.json as Details;

forEachStore('errors that teach', (kind) => {
  const t = useServer(kind);
  const list = (query: Record<string, string>) => request(t.server, 'GET', '/posts/docs', { key: t.db.secretKey, query });

  before(async () => {
    await request(t.server, 'POST', '/posts/docs', { key: t.db.secretKey, body: { title: 'a' } });
  });

  test('an enum names its values, once: sortOrder=descending → `asc` or `desc`', async () => {
    const r = await list({ sortOrder: 'descending' });
    assertError(r, 400, 'validation_failed');
    assert.deepEqual(body(r).error.details, [{ path: '/sortOrder', message: 'must be `asc` or `desc`' }]);
    assert.equal(body(r).error.message.match(/asc/g)?.length, 1, body(r).error.message);
  });

  test("unknown list parameters are a 400 naming each, with svc's name for a peer's spelling", async () => {
    const r = await list({ sort: '-createdAt', page: '2', perPage: '10', where: 'x', order: 'title.desc', color: 'red' });
    assertError(r, 400, 'validation_failed');
    const byPath = Object.fromEntries(body(r).error.details!.map((d) => [d.path, d.message]));
    assert.deepEqual(Object.keys(byPath).sort(), ['/color', '/order', '/page', '/perPage', '/sort', '/where']);
    assert.match(byPath['/sort'], /sortBy=createdAt&sortOrder=desc/, 'PocketBase: -field is descending');
    assert.match(byPath['/order'], /sortBy=title&sortOrder=desc/, 'Supabase: field.desc');
    assert.match(byPath['/page'], /offset/);
    assert.match(byPath['/perPage'], /\blimit\b/);
    assert.match(byPath['/where'], /\bfilter\b/);
    assert.match(byPath['/color'], /limit, offset, cursor, fields, sortBy, sortOrder, search, filter/);
    // The known ones still work, and a bad one of them is still its own error.
    assert.equal((await list({ sortBy: 'createdAt', sortOrder: 'desc', limit: '5' })).status, 200);
  });

  test("a filter that is not JSON says what svc's filter looks like", async () => {
    const r = await list({ filter: "status = 'open' && score >= 10" });
    assertError(r, 400, 'invalid_filter');
    assert.match(body(r).error.message, /JSON object/);
    assert.ok(body(r).error.message.includes('filter={"status":"open","score":{"$gte":10}}'), body(r).error.message);
  });

  test('PUT on a document → 405 with Allow, pointing at PATCH; POST on a document and PUT on a collection likewise', async () => {
    const put = await request(t.server, 'PUT', '/posts/docs/abc', { key: t.db.secretKey, body: { title: 'b' } });
    assertError(put, 405, 'method_not_allowed');
    assert.equal(put.headers.get('allow'), 'GET, PATCH, DELETE');
    assert.match(body(put).error.message, /PATCH/);
    const post = await request(t.server, 'POST', '/posts/docs/abc', { key: t.db.secretKey, body: {} });
    assertError(post, 405, 'method_not_allowed');
    assert.match(body(post).error.message, /POST to \/v1\/<collection>\/docs/);
    const putAll = await request(t.server, 'PUT', '/posts/docs', { key: t.db.secretKey, body: {} });
    assertError(putAll, 405, 'method_not_allowed');
    assert.equal(putAll.headers.get('allow'), 'GET, POST');
    const doc = (await request(t.server, 'GET', '/posts/docs', { key: t.db.secretKey })).json as { documents: Array<{ title: string }> };
    assert.deepEqual(
      doc.documents.map((d) => d.title),
      ['a'],
      'nothing was written',
    );
  });

  test('an avatar that is not an http(s) URL (a data: URL, short or long) is said once, as "an http(s) URL"', async () => {
    const user: SignedIn = await newUser(t.server, t.db.publicKey, 'avatar@teach.test');
    for (const avatar of ['data:image/png;base64,iVBORw0KGgo', `data:image/png;base64,${'A'.repeat(3000)}`, `https://img.example/${'a'.repeat(2100)}`]) {
      const r = await request(t.server, 'PATCH', '/auth/me', { key: t.db.publicKey, headers: { 'x-session-token': user.session.token }, body: { avatar } });
      assertError(r, 400, 'validation_failed');
      assert.equal(body(r).error.details?.length, 1, body(r).error.message);
      assert.equal(body(r).error.details![0].path, '/avatar');
      assert.equal(body(r).error.message.match(/an http\(s\) URL/g)?.length, 1, body(r).error.message);
    }
    const ok = await request(t.server, 'PATCH', '/auth/me', {
      key: t.db.publicKey,
      headers: { 'x-session-token': user.session.token },
      body: { avatar: 'https://img.example/ada.png' },
    });
    assert.equal(ok.status, 200);
  });

  test('an Authorization header without "Bearer " says so, not "unknown or revoked"', async () => {
    const bare = await request(t.server, 'GET', '/posts/docs', { headers: { authorization: t.db.secretKey } });
    assertError(bare, 401, 'invalid_api_key');
    assert.match(body(bare).error.message, /without the "Bearer " prefix/);
    assert.doesNotMatch(body(bare).error.message, /unknown or revoked/);
    const basic = await request(t.server, 'GET', '/posts/docs', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    assertError(basic, 401, 'invalid_api_key');
    assert.match(body(basic).error.message, /Basic scheme/);
    const unknown = await request(t.server, 'GET', '/posts/docs', { key: `svc_sk_${'x'.repeat(40)}` });
    assertError(unknown, 401, 'invalid_api_key');
  });
});

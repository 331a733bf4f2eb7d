import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';

forEachStore('empty JSON bodies', (kind) => {
  let server: TestServer;
  let db: Awaited<ReturnType<TestServer['createDatabase']>>;
  before(async () => {
    server = await startServer(kind);
    db = await server.createDatabase();
  });
  after(() => server.close());

  test('a bodyless POST that carries Content-Type: application/json is fine; a route that needs a body says so', async () => {
    const up = await request(server, 'POST', '/auth/sign-up', { key: db.publicKey, body: { email: 'empty@example.com', password: 'long-enough-1' } });
    assert.equal(up.status, 201, up.text);
    const token = (up.json as { session: { token: string } }).session.token;
    const refresh = await request(server, 'POST', '/auth/refresh', { key: db.publicKey, raw: '', headers: { 'x-session-token': token } });
    assert.equal(refresh.status, 200, refresh.text);
    const out = await request(server, 'POST', '/auth/sign-out', { key: db.publicKey, raw: '', headers: { 'x-session-token': token } });
    assert.equal(out.status, 204, out.text);
    const doc = await request(server, 'POST', '/posts/docs', { key: db.secretKey, raw: '' });
    assert.equal(doc.status, 400);
    assert.equal(errorCode(doc), 'invalid_json');
    assert.equal((await request(server, 'POST', '/posts/docs', { key: db.secretKey, raw: '{"a":' })).status, 400, 'bad JSON is still invalid_json');
  });
});

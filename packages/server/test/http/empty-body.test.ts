import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer } from '../helpers/server.ts';

forEachStore('empty JSON bodies', (kind) => {
  const t = useServer(kind);

  test('a bodyless POST that carries Content-Type: application/json is fine; a route that needs a body says so', async () => {
    const up = await request(t.server, 'POST', '/auth/sign-up', { key: t.db.publicKey, body: { email: 'empty@example.com', password: 'long-enough-1' } });
    assert.equal(up.status, 201, up.text);
    const token = (up.json as { session: { token: string } }).session.token;
    const refresh = await request(t.server, 'POST', '/auth/refresh', { key: t.db.publicKey, raw: '', headers: { 'x-session-token': token } });
    assert.equal(refresh.status, 200, refresh.text);
    const out = await request(t.server, 'POST', '/auth/sign-out', { key: t.db.publicKey, raw: '', headers: { 'x-session-token': token } });
    assert.equal(out.status, 204, out.text);
    const doc = await request(t.server, 'POST', '/posts/docs', { key: t.db.secretKey, raw: '' });
    assert.equal(doc.status, 400);
    assert.equal(errorCode(doc), 'invalid_json');
    assert.equal((await request(t.server, 'POST', '/posts/docs', { key: t.db.secretKey, raw: '{"a":' })).status, 400, 'bad JSON is still invalid_json');
  });
});

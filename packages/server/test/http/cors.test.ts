import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';

forEachStore('CORS', (kind) => {
  const t = useServer(kind);

  test('a browser on another origin may call the API with a key: preflight and actual request', async () => {
    const pre = await fetch(`${t.server.base}/posts/docs`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-session-token',
      },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /X-Session-Token/i);
    assert.equal(pre.headers.get('x-ratelimit-limit'), null, 'preflights are not counted');
    const r = await fetch(`${t.server.base}/posts/docs`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { origin: 'https://app.example.com', authorization: `Bearer ${t.db.secretKey}`, 'content-type': 'application/json' },
    });
    assert.equal(r.status, 201);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.match(r.headers.get('access-control-expose-headers') ?? '', /X-RateLimit-Remaining/);
  });
});

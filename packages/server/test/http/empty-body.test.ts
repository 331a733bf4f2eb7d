import { test } from 'node:test';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';

forEachStore('empty JSON bodies', (kind) => {
  const t = useServer(kind);
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  test('a bodyless POST that carries Content-Type: application/json is fine; a route that needs a body says so', async () => {
    const up = await pub.post<{ session: { token: string } }>('/auth/sign-up', { email: 'empty@example.com', password: 'long-enough-1' }, 201);
    const headers = { 'x-session-token': up.session.token };
    assertStatus(await pub.request('POST', '/auth/refresh', { raw: '', headers }), 200, 'POST /auth/refresh with an empty JSON body');
    assertStatus(await pub.request('POST', '/auth/sign-out', { raw: '', headers }), 204, 'POST /auth/sign-out with an empty JSON body');
    assertError(await api.request('POST', '/posts/docs', { raw: '' }), 400, 'invalid_json');
    assertError(await api.request('POST', '/posts/docs', { raw: '{"a":' }), 400, 'invalid_json', 'bad JSON is still invalid_json');
  });
});

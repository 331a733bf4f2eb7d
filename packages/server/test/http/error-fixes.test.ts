// Every refusal that depends on the server's configuration names the setting that changes it, so
// the person who hits it knows the fix: limits name their LIMIT_* variable, the SSRF
// guard names WEBHOOK_ALLOW_PRIVATE_URLS=true, the rate limit its RATE_LIMIT_* variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

const message = (r: { json: unknown }) => (r.json as { error: { message: string } }).error.message;

forEachStore('error messages name their fix', (kind) => {
  const t = useServer(kind, {
    env: { LIMIT_DOCUMENT_BYTES: '300', LIMIT_BULK_DOCUMENTS: '2', LIMIT_JSON_DEPTH: '4', LIMIT_REALTIME_COLLECTIONS: '2', LIMIT_WEBHOOKS_PER_DATABASE: '1' },
  });
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  test('a webhook to a private address is refused naming WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    for (const url of ['http://127.0.0.1:9999/hook', 'http://[::1]/hook', 'http://10.0.0.7/hook', 'http://169.254.169.254/latest']) {
      const r = await secret.request('POST', '/webhooks', { body: { url } });
      assertError(r, 400, 'url_not_allowed', url);
      assert.match(message(r), /is not a public address/);
      assert.match(message(r), /WEBHOOK_ALLOW_PRIVATE_URLS=true/, url);
    }
  });

  test('limits name their variable: document size, bulk size, JSON depth, realtime collections, webhooks per database', async () => {
    const big = await secret.request('POST', '/notes/docs', { body: { text: 'x'.repeat(400) } });
    assertError(big, 413, 'payload_too_large');
    assert.match(message(big), /at most 300 bytes.*LIMIT_DOCUMENT_BYTES/);

    const bulk = await secret.request('POST', '/notes/bulk', { body: { documents: [{}, {}, {}] } });
    assertError(bulk, 413, 'payload_too_large');
    assert.match(message(bulk), /at most 2 documents.*LIMIT_BULK_DOCUMENTS/);

    const deep = await secret.request('POST', '/notes/docs', { body: { a: { b: { c: { d: { e: 1 } } } } } });
    assertError(deep, 400, 'validation_failed');
    assert.match(message(deep), /deeper than 4 levels.*LIMIT_JSON_DEPTH/);

    const many = await secret.request('POST', '/realtime/token', { body: { collections: ['a', 'b', 'c'] } });
    assertError(many, 400, 'validation_failed');
    assert.match(message(many), /1 to 2 names.*LIMIT_REALTIME_COLLECTIONS/);

    // A database of its own, so that no document change here is ever delivered anywhere.
    const quiet = apiClient(t.server, (await t.server.createDatabase()).secretKey);
    await quiet.post('/webhooks', { url: 'https://93.184.216.34/hook' }, 201);
    const second = await quiet.request('POST', '/webhooks', { body: { url: 'https://93.184.216.34/other' } });
    assertError(second, 409, 'conflict');
    assert.match(message(second), /at most 1 webhooks.*LIMIT_WEBHOOKS_PER_DATABASE/);
  });

  test('per-database refusals name the database setting: redirect URLs, sign-up turned off', async () => {
    const r = await secret.request('POST', '/auth/magic-link', { body: { email: 'a@example.com', redirectUrl: 'https://app.example.com/in' } });
    assertError(r, 400, 'redirect_url_not_allowed');
    assert.match(message(r), /settings\.redirectUrls/);
    const op = apiClient(t.server, await t.server.operatorToken());
    await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { redirectUrls: ['https://app.example.com/auth'] } });
    const other = await secret.request('POST', '/auth/magic-link', { body: { email: 'a@example.com', redirectUrl: 'https://elsewhere.example.com/' } });
    assertError(other, 400, 'redirect_url_not_allowed');
    assert.match(message(other), /settings\.redirectUrls/);
    await op.patch(`/admin/databases/${t.db.databaseId}`, { settings: { auth: { allowSignUp: false } } });
    const closed = await secret.request('POST', '/auth/sign-up', { body: { email: 'b@example.com', password: 'a-long-password' } });
    assertError(closed, 403, 'signup_disabled');
    assert.match(message(closed), /auth\.allowSignUp/);
  });

  test('the body limit names LIMIT_BODY_BYTES, and the rate limit names RATE_LIMIT_PER_KEY and RATE_LIMIT_PER_IP', async () => {
    const server = await startServer(kind, { env: { LIMIT_BODY_BYTES: '2000', RATE_LIMIT_PER_KEY: '3' } });
    try {
      const { secretKey } = await server.createDatabase();
      const api = apiClient(server, secretKey);
      const r = await api.request('POST', '/notes/docs', { body: { text: 'y'.repeat(3000) } });
      assertError(r, 413, 'payload_too_large');
      assert.match(message(r), /LIMIT_BODY_BYTES/);
      let limited = r;
      for (let i = 0; i < 5 && limited.status !== 429; i += 1) limited = await api.request('GET', '/notes/docs');
      assertError(limited, 429, 'rate_limited');
      assert.match(message(limited), /over 3 a minute.*RATE_LIMIT_PER_KEY.*RATE_LIMIT_PER_IP/);
    } finally {
      await server.close();
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

const KIB = 1024;

/** `levels` nested arrays, closed (valid JSON) or left open (not JSON at all). */
const brackets = (levels: number, closed = true): string => '['.repeat(levels) + (closed ? ']'.repeat(levels) : '');

forEachStore('body limits and nesting depth (API.md §8)', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );

  test('nesting deeper than 32 is refused before parsing: a deep body that is not even JSON is refused for its depth', async () => {
    // JSON.parse would call these invalid_json; only a check that runs before it sees the depth.
    for (const raw of [brackets(40, false), `{"a":${brackets(100_000, false)}`, `${brackets(33)}x`]) {
      const r = await api.request('POST', '/deep/docs', { raw });
      assertError(r, 400, 'validation_failed', raw.slice(0, 40));
      assert.match(r.text, /nests deeper than 32 levels/);
    }
    // Brackets inside strings are text, not nesting; 32 levels are fine.
    const inString = { s: '['.repeat(1000), t: '{"\\"['.repeat(100), nested: JSON.parse(brackets(31)) };
    const ok = await api.post<typeof inString>('/deep/docs', inString, 201);
    assert.deepEqual(ok.s, inString.s);
  });

  test('a 16 MB nesting bomb is refused with 400 while /health keeps answering', async () => {
    const bomb = brackets(8_000_000);
    const refused = api.request('POST', '/deep/docs', { raw: bomb });
    const health = request(t.server, 'GET', '/health', { root: true });
    const [r, h] = await Promise.all([refused, health]);
    assertError(r, 400, 'validation_failed', 'the bomb');
    assert.deepEqual(h.json, { status: 'ok' });
    // On a small-body route the same bomb is not even read: 413.
    assertError(await pub.request('POST', '/auth/sign-in', { raw: bomb }), 413, 'payload_too_large', 'the bomb on /auth/sign-in');
  });

  test('routes whose bodies are small refuse a body over 64 KiB with 413; documents still take large ones', async () => {
    const big = { email: 'big@example.com', password: 'long-enough-1', name: 'x'.repeat(70 * KIB) };
    const op = await t.server.operatorToken();
    const cases: Array<[string, string, string | undefined]> = [
      ['POST', '/auth/sign-up', t.db.publicKey],
      ['POST', '/auth/sign-in', t.db.publicKey],
      ['PATCH', '/auth/me', t.db.publicKey],
      ['POST', '/auth/forgot-password', t.db.publicKey],
      ['POST', '/realtime/token', t.db.publicKey],
      ['POST', '/webhooks', t.db.secretKey],
      ['PATCH', '/webhooks/abc', t.db.secretKey],
      ['POST', '/admin/sign-in', undefined],
      ['POST', '/admin/setup', undefined],
      ['POST', '/admin/operators', op],
    ];
    for (const [method, path, key] of cases) {
      const r = await request(t.server, method, path, { key, body: big });
      assertError(r, 413, 'payload_too_large', `${method} ${path}`);
      assert.match(r.text, /65536 bytes/, 'the message names the limit');
    }
    await pub.post('/auth/sign-up', { ...big, name: 'x'.repeat(200) }, 201);
    await api.post('/big/docs', { s: 'x'.repeat(512 * KIB) }, 201); // documents keep the 16 MiB body limit
  });
});

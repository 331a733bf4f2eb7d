import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, missingServices, REDIS_URL } from '../helpers/stores.ts';
import { startServer, useServer, type Response } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

const redisMissing = await missingServices({ redis: true });

const int = (r: Response, name: string): number => {
  const v = r.headers.get(name);
  assert.match(v ?? '', /^\d+$/, `${name} is a whole number, got ${v}`);
  return Number(v);
};

/** The §5 headers of one answer. */
function limitHeaders(r: Response) {
  return { limit: int(r, 'x-ratelimit-limit'), remaining: int(r, 'x-ratelimit-remaining'), reset: int(r, 'x-ratelimit-reset') };
}

/** A 429 in the §0/§5 shape: rate_limited, top-level retryAfter equal to Retry-After, remaining 0. */
function assertLimited(r: Response): void {
  assertError(r, 429, 'rate_limited');
  const retryAfter = (r.json as { retryAfter: unknown }).retryAfter;
  assert.ok(Number.isInteger(retryAfter) && (retryAfter as number) >= 1 && (retryAfter as number) <= 60, `retryAfter ${String(retryAfter)}`);
  assert.equal(r.headers.get('retry-after'), String(retryAfter));
  assert.equal(limitHeaders(r).remaining, 0);
}

/** Fires `n` requests at once and sorts the answers by status. */
async function burst(n: number, send: (i: number) => Promise<Response>) {
  const all = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  const byStatus = new Map<number, Response[]>();
  for (const r of all) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), r]);
  return byStatus;
}

forEachStore('rate limits', (kind) => {
  const t = useServer(kind, { env: { RATE_LIMIT_PER_KEY: '40', RATE_LIMIT_PER_IP: '25' } });
  /** Raw answers (the tests read their headers); the key, if any, per request. */
  const api = apiClient(() => t.server);

  test('every /v1 answer carries X-RateLimit-Limit/Remaining/Reset, errors included', async () => {
    const { db } = t;
    const cases: Array<[number, string, string, { key?: string; body?: unknown }]> = [
      [201, 'POST', '/h/docs', { key: db.secretKey, body: { a: 1 } }],
      [200, 'GET', '/h/docs', { key: db.secretKey }],
      [400, 'GET', '/h/docs', { key: db.secretKey, body: undefined }],
      [404, 'GET', '/h/docs/missing', { key: db.secretKey }],
      [403, 'POST', '/h/docs', { key: db.publicKey, body: {} }],
      [401, 'GET', '/h/docs', {}],
      [401, 'GET', '/h/docs', { key: 'svc_sk_unknownunknownunknownunknownunknown' }],
      [404, 'GET', '/no/such/route', { key: db.secretKey }],
      [200, 'GET', '/openapi.json', {}],
    ];
    let lastSecretRemaining = Infinity;
    for (const [status, method, path, opts] of cases) {
      const r = await api.request(method, path, { ...opts, query: status === 400 ? { limit: 1001 } : undefined });
      assert.equal(r.status, status, `${method} ${path}`);
      const h = limitHeaders(r);
      assert.ok(h.reset <= 60, `reset ${h.reset}`);
      assert.ok(h.remaining < h.limit);
      if (opts.key === db.secretKey && path !== '/no/such/route') {
        assert.equal(h.limit, 40, 'a valid key is limited per key');
        assert.ok(h.remaining < lastSecretRemaining, 'each request is counted');
        lastSecretRemaining = h.remaining;
      }
      if (!opts.key || opts.key.includes('unknown')) assert.equal(h.limit, 25, 'without a valid key: per IP');
    }
  });

  test('a concurrent burst of 60 with RATE_LIMIT_PER_KEY=40: exactly 40 pass, 20 get 429, 40 documents written', async () => {
    const db = await t.server.createDatabase(); // counters of its own
    const got = await burst(60, (i) => api.request('POST', '/burst/docs', { key: db.secretKey, body: { i } }));
    assert.deepEqual([...got.keys()].sort(), [201, 429]);
    assert.equal(got.get(201)!.length, 40);
    assert.equal(got.get(429)!.length, 20);
    got.get(429)!.forEach(assertLimited);
    const remaining = got
      .get(201)!
      .map((r) => limitHeaders(r).remaining)
      .sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 40 }, (_, i) => i),
      'each success saw a distinct remaining count',
    );
    // The public key has its own counter, so it still reads.
    assert.equal((await api.get<{ total: number }>('/burst/docs', 200, { key: db.publicKey })).total, 40, 'the refused writes wrote nothing');
    assertLimited(await api.request('GET', '/burst/docs', { key: db.secretKey }));
  });

  test('requests without a valid key are limited per IP; a valid key is not affected', async () => {
    const db = await t.server.createDatabase();
    const probe = await api.request('GET', '/ip/docs');
    assert.equal(probe.status, 401);
    const left = limitHeaders(probe).remaining;
    assert.ok(left > 0 && left < 25, `remaining ${left}`);
    const got = await burst(left + 10, (i) => api.request('GET', '/ip/docs', i % 2 ? {} : { key: `svc_pk_${'Z'.repeat(32)}${i}` }));
    assert.equal(got.get(401)?.length, left, 'the rest of the IP allowance');
    assert.equal(got.get(429)?.length, 10);
    got.get(429)!.forEach(assertLimited);
    assertLimited(await api.request('POST', '/admin/sign-in', { body: { email: 'a@b.c', password: 'whatever-password' } }));
    const ok = await api.request('GET', '/ip/docs', { key: db.secretKey });
    assert.equal(ok.status, 200, 'a valid key has its own allowance');
    assert.equal(limitHeaders(ok).limit, 40);
  });

  test('with the Redis limiter: the same exact burst, shared by two instances', { skip: redisMissing }, async () => {
    // Two instances on one store: not useServer().
    const env = { RATE_LIMIT_PER_KEY: '40', RATE_LIMIT_PER_IP: '1000000', REDIS_URL };
    const a = await startServer(kind, { redis: true, env });
    const b = await startServer(kind, { redis: true, env, db: a.db });
    try {
      // Fresh random keys: counters left in Redis by earlier runs cannot interfere.
      const db = await a.createDatabase();
      const [onA, onB] = [apiClient(a, db.secretKey), apiClient(b, db.secretKey)];
      const got = await burst(60, (i) => (i % 2 ? onA : onB).request('POST', '/redis/docs', { body: { i } }));
      assert.equal(got.get(201)?.length, 40, 'exactly 40 across both instances');
      assert.equal(got.get(429)?.length, 20);
      got.get(429)!.forEach(assertLimited);
      const remaining = got
        .get(201)!
        .map((r) => limitHeaders(r).remaining)
        .sort((x, y) => x - y);
      assert.deepEqual(
        remaining,
        Array.from({ length: 40 }, (_, i) => i),
      );
      assert.equal((await apiClient(b, db.publicKey).get<{ total: number }>('/redis/docs')).total, 40);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

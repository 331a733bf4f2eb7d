import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, REDIS_URL, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { openWs } from '../helpers/ws.ts';
import { closeCode } from '../realtime/upgrade.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

/**
 * API.md §3/§5 and DESIGN.md: two real server processes on one PostgreSQL database and one
 * Redis behave as one service.
 */
describe('two instances on one PostgreSQL and one Redis', { skip: await missingServices({ postgres: true, redis: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let receiver: Receiver;
  let op: string;
  let databaseId: string;

  before(async () => {
    db = await postgresTestStore();
    const env = {
      DATABASE_URL: db.url,
      REDIS_URL,
      RATE_LIMIT_PER_KEY: '40',
      RATE_LIMIT_PER_IP: '100000',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_BASE_MS: '200',
    };
    [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
    receiver = await startReceiver();
    const signIn = await request(a, 'POST', '/admin/sign-in', { body: OPERATOR });
    op = (signIn.json as { token: string }).token;
    const created = await request(a, 'POST', '/admin/databases', { key: op, body: { name: 'two' } });
    databaseId = (created.json as { database: { id: string } }).database.id;
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await receiver?.close();
    await db?.drop();
  });

  const newKey = async (kind: 'secret' | 'public') => {
    const r = await request(a, 'POST', `/admin/databases/${databaseId}/keys`, { key: op, body: { kind } });
    assert.equal(r.status, 201, r.text);
    return r.json as { key: string; id: string };
  };

  test('a key made on A works on B; a document written on A is read on B; a revocation on A holds on B', async () => {
    const { key, id } = await newKey('secret');
    const w = await request(a, 'POST', '/shared/docs', { key, body: { from: 'A' } });
    assert.equal(w.status, 201);
    const r = await request(b, 'GET', `/shared/docs/${(w.json as { id: string }).id}`, { key });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, w.json);
    assert.equal((await request(a, 'DELETE', `/admin/databases/${databaseId}/keys/${id}`, { key: op })).status, 204);
    assert.equal((await request(b, 'GET', '/shared/docs', { key })).status, 401, 'revoked on A: refused on B at once');
  });

  test("a socket on B receives A's writes, in order, once", async () => {
    const { key } = await newKey('secret');
    const t = await request(b, 'POST', '/realtime/token', { key, body: { collections: ['feed'] } });
    const c = await openWs((t.json as { url: string }).url);
    await c.waitFor((m) => m.type === 'ready');
    const written: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const via = i % 2 ? b : a;
      written.push(((await request(via, 'POST', '/feed/docs', { key, body: { i } })).json as { id: string }).id);
    }
    const events = await c.waitFor((m) => m.type === 'event', 20);
    assert.deepEqual(
      events.map((e) => e.document.id),
      written,
    );
    await c.close();
  });

  test('a key revoked through A closes its socket on B with 4401', async () => {
    const { key, id } = await newKey('public');
    const t = await request(b, 'POST', '/realtime/token', { key, body: { collections: ['feed'] } });
    const c = await openWs((t.json as { url: string }).url);
    await c.waitFor((m) => m.type === 'ready');
    assert.equal((await request(a, 'DELETE', `/admin/databases/${databaseId}/keys/${id}`, { key: op })).status, 204);
    assert.equal(await closeCode(c.closed), 4401);
  });

  test('a rate limit of 40 per key is shared: of 60 concurrent requests across both, exactly 40 pass', async () => {
    const { key } = await newKey('public');
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => request(i % 2 ? a : b, 'GET', '/limited/docs', { key })));
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429).length;
    assert.equal(ok, 40);
    assert.equal(limited, 20);
  });

  test('each webhook delivery arrives once per attempt, whichever instance took the write', async () => {
    const { key } = await newKey('secret');
    const hook = await request(a, 'POST', '/webhooks', { key, body: { url: receiver.url, collections: ['hooked'] } });
    assert.equal(hook.status, 201, hook.text);
    const n = 30; // the key's limit is 40 a minute
    await Promise.all(Array.from({ length: n }, (_, i) => request(i % 2 ? a : b, 'POST', '/hooked/docs', { key, body: { i } })));
    await receiver.waitFor(n, 20_000);
    await new Promise((r) => setTimeout(r, 1000)); // room for a duplicate to show up
    const deliveries = receiver.received.map((r) => r.headers['x-service-delivery']);
    assert.equal(deliveries.length, n, `${deliveries.length} requests for ${n} events`);
    assert.equal(new Set(deliveries).size, n, 'no delivery arrived twice');
  });
});

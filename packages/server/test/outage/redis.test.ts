import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, missingServices, REDIS_URL } from '../helpers/stores.ts';
import { startServer, type TestDatabase, type TestServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { openWs, type WsClient } from '../helpers/ws.ts';
import { call, outageWait, type Answer } from './outage-helpers.ts';

const redisMissing = await missingServices({ redis: true });

/** A server's log, kept to count the lines about Redis. */
class LogLines {
  readonly lines: string[] = [];
  write(line: string): void {
    this.lines.push(line);
  }
  count(pattern: RegExp): number {
    return this.lines.filter((l) => pattern.test(l)).length;
  }
}
const WENT = /Redis is unreachable/;
const BACK = /Redis is reachable again/;

/** The §5 headers of an answer, as numbers. */
const limitHeaders = (r: Answer) => ({
  limit: Number(r.headers.get('x-ratelimit-limit')),
  remaining: Number(r.headers.get('x-ratelimit-remaining')),
  reset: Number(r.headers.get('x-ratelimit-reset')),
});

/**
 * API.md §11: Redis is never required to serve requests. Two instances share Redis through a
 * TCP proxy that is stopped (connections cut and refused) or frozen (accepted, nothing answered):
 * requests are served (never 500, never a hang) with rate limits counted per instance, a realtime
 * socket on one instance still receives the other's writes (from the change log), /ready reports
 * Redis down, the log says so once each way, and all of it comes back without a restart.
 */
forEachStore('Redis outage', (kind) => {
  if (redisMissing) {
    test('Redis outage', { skip: redisMissing }, () => undefined);
    return;
  }
  let proxy: TcpProxy;
  let a: TestServer;
  let b: TestServer;
  let database: TestDatabase;
  const logA = new LogLines();
  const ready = async (s: TestServer) => await call(`${s.url}/ready`);
  const redisIs = async (s: TestServer, state: 'ok' | 'down') => (await ready(s)).json?.redis === state;

  // Two instances sharing one store and Redis: not useServer() (B must close before A drops the store).
  before(async () => {
    const target = new URL(REDIS_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const env = { REDIS_URL: proxy.url(REDIS_URL), RATE_LIMIT_PER_KEY: '40', RATE_LIMIT_PER_IP: '100000', LOG_LEVEL: 'info' };
    a = await startServer(kind, { redis: true, env, logStream: logA });
    b = await startServer(kind, { redis: true, env: { ...env, LOG_LEVEL: 'silent' }, db: a.db });
    database = await a.createDatabase();
    await eventually(async () => (await redisIs(a, 'ok')) && (await redisIs(b, 'ok')), outageWait('Redis ready on both'));
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await proxy?.close();
  });

  /** A realtime socket on B, subscribed to `collection`. */
  async function socketOnB(collection: string): Promise<WsClient> {
    const { url } = await apiClient(b, database.secretKey).post<{ url: string }>('/realtime/token', { collections: [collection] }, 201);
    const c = await openWs(url);
    await c.waitFor((m) => m.type === 'ready');
    return c;
  }

  /** Writes on A reach the socket on B. */
  async function assertRealtimeAcross(c: WsClient, collection: string, already: number): Promise<void> {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const w = await call(`${a.base}/${collection}/docs`, { method: 'POST', key: database.secretKey, body: { i } });
      assert.equal(w.status, 201, 'a write does not wait on Redis');
      ids.push(w.json!.id);
    }
    const events = await c.waitFor((m) => m.type === 'event', already + 3, 15_000);
    assert.deepEqual(
      events.slice(already).map((e) => e.document.id),
      ids,
    );
  }

  test('stopped: served with per-instance limits, realtime across instances, /ready reports it, logged once each way', async () => {
    const c = await socketOnB('live');
    try {
      assert.deepEqual((await ready(a)).json, { status: 'ready', store: 'ok', redis: 'ok' });
      const went = logA.count(WENT);

      await proxy.stop();
      await eventually(() => redisIs(a, 'down'), outageWait('/ready to report Redis down'));
      const r = await ready(a);
      assert.equal(r.status, 200, 'the store answers: still ready to serve');
      assert.deepEqual(r.json, { status: 'degraded', store: 'ok', redis: 'down' });

      // A key nobody used yet: 50 requests at once, counted by this instance alone.
      const burst = await Promise.all(Array.from({ length: 50 }, () => call(`${a.base}/limited/docs`, { key: database.publicKey })));
      const byStatus = (s: number) => burst.filter((x) => x.status === s).length;
      assert.equal(byStatus(200), 40);
      assert.equal(byStatus(429), 10);
      for (const x of burst) assert.equal(limitHeaders(x).limit, 40, 'every answer carries the limit headers');

      await assertRealtimeAcross(c, 'live', 0);
      assert.equal(logA.count(WENT), went + 1, 'Redis going away is logged once, not per request');

      const back = logA.count(BACK);
      await proxy.start();
      await eventually(() => redisIs(a, 'ok'), outageWait('/ready to report Redis back'));
      assert.deepEqual((await ready(a)).json, { status: 'ready', store: 'ok', redis: 'ok' });
      await eventually(() => logA.count(BACK) === back + 1, outageWait('the log line about Redis being back'));

      // Counting is shared again: the key's Redis counter never saw the outage's requests.
      const onA = await call(`${a.base}/limited/docs`, { key: database.publicKey });
      assert.equal(onA.status, 200);
      assert.equal(limitHeaders(onA).remaining, 39);
      const onB = await call(`${b.base}/limited/docs`, { key: database.publicKey });
      assert.equal(limitHeaders(onB).remaining, 38, 'one counter across both instances');
      await assertRealtimeAcross(c, 'live', 3);
      assert.equal(logA.count(WENT), went + 1);
    } finally {
      await c.close();
    }
  });

  test('frozen (accepts, answers nothing): requests still answer, with limit headers; /ready reports it; back after', async () => {
    const went = logA.count(WENT);
    proxy.freeze();
    try {
      for (let i = 0; i < 5; i += 1) {
        const r = await call(`${a.base}/frozen/docs`, { key: database.secretKey });
        assert.equal(r.status, 200);
        assert.equal(limitHeaders(r).limit, 40);
      }
      const w = await call(`${a.base}/frozen/docs`, { method: 'POST', key: database.secretKey, body: { a: 1 } });
      assert.equal(w.status, 201);
      await eventually(() => redisIs(a, 'down'), outageWait('/ready to report Redis down'));
      assert.equal((await ready(a)).status, 200);
      await eventually(() => logA.count(WENT) === went + 1, outageWait('the log line about Redis going away'));
    } finally {
      proxy.thaw();
    }
    await eventually(() => redisIs(a, 'ok'), outageWait('/ready to report Redis back'));
    assert.equal(logA.count(WENT), went + 1, 'logged once for the whole outage');
  });
});

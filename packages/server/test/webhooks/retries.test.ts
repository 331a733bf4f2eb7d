import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, startServer, type TestServer } from '../helpers/server.ts';
import { eventually, startReceiver, type Receiver } from './receiver.ts';

type Db = Awaited<ReturnType<TestServer['createDatabase']>>;
interface Detail {
  id: string; status: string; attempts: number; nextAttemptAt: string | null; lastAttemptAt: string | null; responseStatus: number | null;
  attemptLog: Array<{ at: string; responseStatus: number | null; durationMs: number; error: string | null; responseBody: string | null }>;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

forEachStore('webhook retries', (kind) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_TIMEOUT_MS: '300' } });
  });
  after(() => server.close());

  /** A webhook to `url` and one document write; returns the delivery once it is no longer pending. */
  async function deliverOnce(url: string, db?: Db): Promise<{ db: Db; hookId: string; detail: Detail }> {
    db ??= await server.createDatabase();
    const h = await request(server, 'POST', '/webhooks', { key: db.secretKey, body: { url } });
    const hookId = (h.json as { id: string }).id;
    await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { n: 1 } });
    const detail = await eventually(async () => {
      const l = await request(server, 'GET', `/webhooks/${hookId}/deliveries`, { key: db.secretKey });
      const d = (l.json as { deliveries: Array<{ id: string; status: string }> }).deliveries[0];
      if (!d || d.status === 'pending') return undefined;
      return (await request(server, 'GET', `/webhooks/${hookId}/deliveries/${d.id}`, { key: db.secretKey })).json as Detail;
    }, 15_000, 'the delivery to finish');
    return { db, hookId, detail };
  }

  test('a 5xx is retried with backoff until a 2xx; every attempt is recorded with status, duration and answer', async () => {
    const rx = await startReceiver((_r, i) => (i < 2 ? { status: 500, body: `boom ${i} ` + 'x'.repeat(3000) } : { status: 201, body: 'finally' }));
    try {
      const { detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'succeeded');
      assert.equal(detail.attempts, 3);
      assert.equal(detail.responseStatus, 201);
      assert.deepEqual(detail.attemptLog.map((a) => a.responseStatus), [500, 500, 201]);
      assert.deepEqual(detail.attemptLog.map((a) => a.error), ['HTTP 500', 'HTTP 500', null]);
      assert.equal(detail.attemptLog[0].responseBody!.length, 1024, 'the first 1 KiB of the answer');
      assert.ok(detail.attemptLog[0].responseBody!.startsWith('boom 0 '));
      assert.equal(detail.attemptLog[2].responseBody, 'finally');
      for (const a of detail.attemptLog) assert.ok(Number.isInteger(a.durationMs) && a.durationMs >= 0);
      const gaps = rx.received.slice(1).map((r, i) => r.at - rx.received[i].at);
      assert.ok(gaps[0] >= 25, `first retry waited ${gaps[0]} ms (base 40 ms, -20 % jitter)`);
      assert.ok(gaps[1] >= 55, `second retry waited ${gaps[1]} ms (doubled)`);
      const ids = new Set(rx.received.map((r) => r.headers['x-service-delivery']));
      assert.equal(ids.size, 1, 'X-Service-Delivery is the same on every attempt');
    } finally {
      await rx.close();
    }
  });

  test('time-outs are failed attempts; after WEBHOOK_MAX_ATTEMPTS the delivery is failed', async () => {
    const rx = await startReceiver(() => 'hang');
    try {
      const { detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'failed');
      assert.equal(detail.attempts, 3);
      assert.equal(detail.nextAttemptAt, null);
      assert.equal(detail.responseStatus, null);
      assert.deepEqual(detail.attemptLog.map((a) => a.error), Array(3).fill('timed out after 300 ms'));
      for (const a of detail.attemptLog) assert.ok(a.durationMs >= 290 && a.durationMs < 2000, `duration ${a.durationMs}`);
      assert.equal(rx.received.length, 3);
    } finally {
      await rx.close();
    }
  });

  test('connection refused: attempts recorded, then failed', async () => {
    const { detail } = await deliverOnce(`http://127.0.0.1:${await closedPort()}/hook`);
    assert.equal(detail.status, 'failed');
    assert.deepEqual(detail.attemptLog.map((a) => a.error), Array(3).fill('connection refused'));
  });

  test('a redirect is not followed and fails the attempt', async () => {
    const target = await startReceiver();
    const rx = await startReceiver(() => ({ status: 302, headers: { location: target.url } }));
    try {
      const { detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'failed');
      assert.deepEqual(detail.attemptLog.map((a) => a.responseStatus), [302, 302, 302]);
      assert.match(detail.attemptLog[0].error!, /redirect .* not followed/);
      assert.equal(target.received.length, 0);
    } finally {
      await rx.close();
      await target.close();
    }
  });

  test('manual retry: 202 and a new series of attempts; 409 while pending; 404s', async () => {
    let up = false;
    const rx = await startReceiver(() => (up ? { status: 200 } : { status: 503 }));
    try {
      const { db, hookId, detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'failed');
      up = true;
      const r = await request(server, 'POST', `/webhooks/${hookId}/deliveries/${detail.id}/retry`, { key: db.secretKey });
      assert.equal(r.status, 202);
      const { delivery } = r.json as { delivery: Detail };
      assert.equal(delivery.id, detail.id);
      assert.equal(delivery.status, 'pending');
      // Pending now (or already sent): a second retry while pending is a conflict.
      const again = await request(server, 'POST', `/webhooks/${hookId}/deliveries/${detail.id}/retry`, { key: db.secretKey });
      if (again.status !== 202) {
        assert.equal(again.status, 409);
        assert.equal(errorCode(again), 'conflict');
      }
      const done = await eventually(async () => {
        const d = (await request(server, 'GET', `/webhooks/${hookId}/deliveries/${detail.id}`, { key: db.secretKey })).json as Detail;
        return d.status === 'succeeded' ? d : undefined;
      });
      assert.equal(done.attemptLog.length, done.attempts);
      assert.deepEqual(done.attemptLog.slice(0, 4).map((a) => a.responseStatus), [503, 503, 503, 200]);
      const missing = await request(server, 'POST', `/webhooks/${hookId}/deliveries/nope/retry`, { key: db.secretKey });
      assert.equal(missing.status, 404);
      assert.equal((await request(server, 'GET', `/webhooks/${hookId}/deliveries/nope`, { key: db.secretKey })).status, 404);
      const other = await server.createDatabase();
      assert.equal((await request(server, 'GET', `/webhooks/${hookId}/deliveries/${detail.id}`, { key: other.secretKey })).status, 404, 'another database cannot see it');
    } finally {
      await rx.close();
    }
  });

  test('a pending delivery answers 409 to a manual retry', async () => {
    const rx = await startReceiver(() => 'hang');
    const db = await server.createDatabase();
    try {
      const h = await request(server, 'POST', '/webhooks', { key: db.secretKey, body: { url: rx.url } });
      const hookId = (h.json as { id: string }).id;
      const t = await request(server, 'POST', `/webhooks/${hookId}/test`, { key: db.secretKey });
      const { delivery } = t.json as { delivery: { id: string } };
      const r = await request(server, 'POST', `/webhooks/${hookId}/deliveries/${delivery.id}/retry`, { key: db.secretKey });
      assert.equal(r.status, 409);
      assert.equal(errorCode(r), 'conflict');
    } finally {
      await rx.close();
    }
  });
});

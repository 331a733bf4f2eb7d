import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver } from './receiver.ts';

interface Detail {
  id: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  responseStatus: number | null;
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
  const t = useServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_TIMEOUT_MS: '300' } });

  /** A client with the secret key of a new database of its own. */
  const newDatabase = async (): Promise<ApiClient> => apiClient(t.server, (await t.server.createDatabase()).secretKey);

  /** A webhook to `url` and one document write in a new database; returns the delivery once it is no longer pending. */
  async function deliverOnce(url: string): Promise<{ api: ApiClient; hookId: string; detail: Detail }> {
    const api = await newDatabase();
    const hookId = (await api.post<{ id: string }>('/webhooks', { url }, 201)).id;
    await api.post('/posts/docs', { n: 1 }, 201);
    const detail = await eventually(
      async () => {
        const [d] = (await api.get<{ deliveries: Array<{ id: string; status: string }> }>(`/webhooks/${hookId}/deliveries`)).deliveries;
        assert.ok(d && d.status !== 'pending', `the delivery is ${d?.status ?? 'not made yet'}`);
        return api.get<Detail>(`/webhooks/${hookId}/deliveries/${d.id}`);
      },
      { timeoutMs: 15_000, what: 'the delivery to finish' },
    );
    return { api, hookId, detail };
  }

  test('a 5xx is retried with backoff until a 2xx; every attempt is recorded with status, duration and answer', async () => {
    const rx = await startReceiver((_r, i) => (i < 2 ? { status: 500, body: `boom ${i} ` + 'x'.repeat(3000) } : { status: 201, body: 'finally' }));
    try {
      const { detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'succeeded');
      assert.equal(detail.attempts, 3);
      assert.equal(detail.responseStatus, 201);
      assert.deepEqual(
        detail.attemptLog.map((a) => a.responseStatus),
        [500, 500, 201],
      );
      assert.deepEqual(
        detail.attemptLog.map((a) => a.error),
        ['HTTP 500', 'HTTP 500', null],
      );
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
      assert.deepEqual(
        detail.attemptLog.map((a) => a.error),
        Array(3).fill('timed out after 300 ms'),
      );
      for (const a of detail.attemptLog) assert.ok(a.durationMs >= 290 && a.durationMs < 2000, `duration ${a.durationMs}`);
      assert.equal(rx.received.length, 3);
    } finally {
      await rx.close();
    }
  });

  test('connection refused: attempts recorded, then failed', async () => {
    const { detail } = await deliverOnce(`http://127.0.0.1:${await closedPort()}/hook`);
    assert.equal(detail.status, 'failed');
    assert.deepEqual(
      detail.attemptLog.map((a) => a.error),
      Array(3).fill('connection refused'),
    );
  });

  test('a redirect is not followed and fails the attempt', async () => {
    const target = await startReceiver();
    const rx = await startReceiver(() => ({ status: 302, headers: { location: target.url } }));
    try {
      const { detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'failed');
      assert.deepEqual(
        detail.attemptLog.map((a) => a.responseStatus),
        [302, 302, 302],
      );
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
      const { api, hookId, detail } = await deliverOnce(rx.url);
      assert.equal(detail.status, 'failed');
      up = true;
      const { delivery } = await api.post<{ delivery: Detail }>(`/webhooks/${hookId}/deliveries/${detail.id}/retry`, undefined, 202);
      assert.equal(delivery.id, detail.id);
      assert.equal(delivery.status, 'pending');
      // Pending now (or already sent): a second retry while pending is a conflict.
      const again = await api.request('POST', `/webhooks/${hookId}/deliveries/${detail.id}/retry`);
      if (again.status !== 202) assertError(again, 409, 'conflict', 'a second retry');
      const done = await eventually(async () => {
        const d = await api.get<Detail>(`/webhooks/${hookId}/deliveries/${detail.id}`);
        assert.equal(d.status, 'succeeded');
        return d;
      });
      assert.equal(done.attemptLog.length, done.attempts);
      assert.deepEqual(
        done.attemptLog.slice(0, 4).map((a) => a.responseStatus),
        [503, 503, 503, 200],
      );
      await api.post(`/webhooks/${hookId}/deliveries/nope/retry`, undefined, 404);
      await api.get(`/webhooks/${hookId}/deliveries/nope`, 404);
      const other = await newDatabase();
      await other.get(`/webhooks/${hookId}/deliveries/${detail.id}`, 404); // another database cannot see it
    } finally {
      await rx.close();
    }
  });

  test('a pending delivery answers 409 to a manual retry', async () => {
    const rx = await startReceiver(() => 'hang');
    const api = await newDatabase();
    try {
      const hookId = (await api.post<{ id: string }>('/webhooks', { url: rx.url }, 201)).id;
      const { delivery } = await api.post<{ delivery: { id: string } }>(`/webhooks/${hookId}/test`, undefined, 202);
      assertError(await api.request('POST', `/webhooks/${hookId}/deliveries/${delivery.id}/retry`), 409, 'conflict');
    } finally {
      await rx.close();
    }
  });
});

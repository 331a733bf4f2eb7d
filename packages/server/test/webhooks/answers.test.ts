import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, type ApiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { startReceiver } from './receiver.ts';

type Detail = {
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  attemptLog: Array<{ at: string; responseStatus: number | null; error: string | null; responseBody: string | null }>;
};

/** A receiver that sends its status line at once, then its body one byte every 100 ms for 3 s. */
async function tricklingReceiver(): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      let sent = 0;
      const drip = setInterval(() => {
        if (res.destroyed || ++sent > 30) {
          clearInterval(drip);
          res.end();
          return;
        }
        res.write('.');
      }, 100);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    count: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The only delivery of a webhook, once `ok` accepts it. */
async function theDelivery(api: ApiClient, hookId: string, ok: (d: Detail) => void, what: string): Promise<Detail> {
  return eventually(
    async () => {
      const [d] = (await api.get<{ deliveries: Array<{ id: string }> }>(`/webhooks/${hookId}/deliveries`)).deliveries;
      assert.ok(d, 'no delivery yet');
      const detail = await api.get<Detail>(`/webhooks/${hookId}/deliveries/${d.id}`);
      ok(detail);
      return detail;
    },
    { timeoutMs: 15_000, what },
  );
}

forEachStore('webhook answers', (kind) => {
  describe('slow bodies', () => {
    const t = useServer(kind, {
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '800', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_MAX_ATTEMPTS: '3' },
    });

    test('a 2xx status in time whose body trickles past the time-out succeeds; the rest is discarded, nothing is sent twice', async () => {
      const rx = await tricklingReceiver();
      try {
        const api = apiClient(t.server, t.db.secretKey);
        const { id } = await api.post<{ id: string }>('/webhooks', { url: rx.url }, 201);
        await api.post('/posts/docs', {}, 201);
        const d = await theDelivery(api, id, (x) => assert.notEqual(x.status, 'pending'), 'the delivery to finish');
        assert.equal(d.status, 'succeeded');
        assert.equal(d.attempts, 1);
        assert.equal(d.attemptLog[0].responseStatus, 200);
        assert.equal(d.attemptLog[0].error, null);
        assert.match(d.attemptLog[0].responseBody ?? '', /^\.+$/, 'what came of the body before the time-out is kept');
        assert.ok((d.attemptLog[0].responseBody ?? '').length < 30, 'the body was cut at the time-out');
        assert.equal(rx.count(), 1, 'no second delivery');
      } finally {
        await rx.close();
      }
    });
  });

  describe('Retry-After', () => {
    const clock = new ManualClock();
    const t = useServer(kind, { clock, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '1000', WEBHOOK_MAX_ATTEMPTS: '3' } });

    /** A webhook whose receiver answers `first` once, then 200; one write; the delivery after its first attempt. */
    async function afterFirst(first: { status: number; headers?: Record<string, string> }) {
      const rx = await startReceiver((_r, i) => (i === 0 ? first : { status: 200 }));
      const api = apiClient(t.server, t.db.secretKey);
      // A collection of its own: the other tests' webhooks in this database don't see its write.
      const collection = `c${Math.random().toString(36).slice(2, 8)}`;
      const { id } = await api.post<{ id: string }>('/webhooks', { url: rx.url, collections: [collection] }, 201);
      await api.post(`/${collection}/docs`, {}, 201);
      const d = await theDelivery(api, id, (x) => assert.equal(x.attempts, 1), 'the first attempt recorded');
      return { rx, api, id, d, wait: Date.parse(d.nextAttemptAt!) - Date.parse(d.attemptLog[0].at) };
    }

    test('a 503 with Retry-After in seconds: no attempt before then, one after', async () => {
      const { rx, api, id, d, wait } = await afterFirst({ status: 503, headers: { 'retry-after': '120' } });
      try {
        assert.equal(d.status, 'pending');
        assert.equal(d.attemptLog[0].responseStatus, 503);
        assert.equal(wait, 120_000, 'the next attempt waits what Retry-After asked (the backoff would be about 1 s)');
        clock.advance(60_000);
        await sleep(1500); // past the dispatcher's 1 s poll
        assert.equal(rx.received.length, 1, 'nothing before Retry-After');
        clock.advance(61_000);
        await rx.waitFor(2);
        await theDelivery(api, id, (x) => assert.equal(x.status, 'succeeded'), 'the second attempt to succeed');
      } finally {
        await rx.close();
      }
    });

    test('a 429 with Retry-After as an HTTP date two hours away waits one hour; a Retry-After shorter than the backoff waits the backoff', async () => {
      const far = await afterFirst({ status: 429, headers: { 'retry-after': new Date(clock.now() + 7_200_000).toUTCString() } });
      const near = await afterFirst({ status: 503, headers: { 'retry-after': '0' } });
      const other = await afterFirst({ status: 500, headers: { 'retry-after': '600' } });
      try {
        assert.equal(far.d.attemptLog[0].responseStatus, 429);
        assert.equal(far.wait, 3_600_000, 'at most an hour');
        assert.ok(near.wait >= 800 && near.wait <= 1200, `the backoff (1 s ± 20 %) when it is longer: ${near.wait} ms`);
        assert.ok(other.wait >= 800 && other.wait <= 1200, `only 429 and 503 are read: ${other.wait} ms`);
      } finally {
        await Promise.all([far.rx.close(), near.rx.close(), other.rx.close()]);
      }
    });
  });
});

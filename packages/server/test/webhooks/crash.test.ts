import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { OPERATOR } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver } from './receiver.ts';

const ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_RETRY_BASE_MS: '200',
  RATE_LIMIT_PER_KEY: '1000000',
  RATE_LIMIT_PER_IP: '1000000',
};

forEachStore('webhook crash', (kind) => {
  test('SIGKILL while 200 deliveries are pending: after a restart every event reaches the receiver', { timeout: 90_000 }, async () => {
    const db = await openTestStore(kind);
    const rx = await startReceiver(() => ({ status: 200, delayMs: 150 }));
    /** The ids of the events the receiver got, each once however often it was delivered. */
    const received = () => new Set(rx.received.map((r) => JSON.parse(r.body).id));
    let first: ServerProcess | undefined;
    let second: ServerProcess | undefined;
    try {
      first = await startProcess({ ...ENV, DATABASE_URL: db.url });
      const { token } = await apiClient(first).post<{ token: string }>('/admin/sign-in', OPERATOR, 200);
      const created = await apiClient(first, token).post<{ key: { key: string } }>('/admin/databases', { name: 'crash' }, 201);
      const api = apiClient(first, created.key.key);
      await api.post('/webhooks', { url: rx.url }, 201);
      await api.post('/posts/bulk', { documents: Array.from({ length: 200 }, (_, i) => ({ i })) }, 201);
      await rx.waitFor(20, 20_000);
      await first.kill('SIGKILL');
      const before = received().size;
      assert.ok(before < 200, `killed with deliveries pending (${before} of 200 events arrived)`);
      const pending = await db.store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
      assert.ok(Number(pending!.n) > 0);

      second = await startProcess({ ...ENV, DATABASE_URL: db.url }, first.port);
      await eventually(() => assert.equal(received().size, 200), { timeoutMs: 60_000, what: 'every event after the restart' });
      assert.deepEqual(
        [...received()].map(Number).sort((a, b) => a - b),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      await eventually(
        async () => {
          const succeeded = await db.store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'");
          assert.equal(Number(succeeded!.n), 200);
        },
        { timeoutMs: 20_000, what: 'every delivery succeeded' },
      );
      assert.equal(await second.kill('SIGTERM'), 0, `a clean shutdown: ${second.output()}`);
    } finally {
      await first?.kill('SIGKILL');
      await second?.kill('SIGTERM');
      await rx.close();
      await db.drop();
    }
  });
});

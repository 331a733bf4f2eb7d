import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { eventually, startReceiver } from './receiver.ts';

const ENV = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_BASE_MS: '200', RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000' };

forEachStore('webhook crash', (kind) => {
  test('SIGKILL while 200 deliveries are pending: after a restart every event reaches the receiver', { timeout: 90_000 }, async () => {
    const db = await openTestStore(kind);
    const rx = await startReceiver(() => ({ status: 200, delayMs: 150 }));
    let first: ServerProcess | undefined;
    let second: ServerProcess | undefined;
    try {
      first = await startProcess({ ...ENV, DATABASE_URL: db.url });
      const signIn = await request(first, 'POST', '/admin/sign-in', { body: OPERATOR });
      const op = (signIn.json as { token: string }).token;
      const created = await request(first, 'POST', '/admin/databases', { key: op, body: { name: 'crash' } });
      const key = (created.json as { key: { key: string } }).key.key;
      const h = await request(first, 'POST', '/webhooks', { key, body: { url: rx.url } });
      assert.equal(h.status, 201, h.text);
      const bulk = await request(first, 'POST', '/posts/bulk', { key, body: { documents: Array.from({ length: 200 }, (_, i) => ({ i })) } });
      assert.equal(bulk.status, 201);
      await rx.waitFor(20, 20_000);
      await first.kill('SIGKILL');
      const before = new Set(rx.received.map((r) => JSON.parse(r.body).id)).size;
      assert.ok(before < 200, `killed with deliveries pending (${before} of 200 events arrived)`);
      const pending = await db.store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
      assert.ok(Number(pending!.n) > 0);

      second = await startProcess({ ...ENV, DATABASE_URL: db.url }, first.port);
      await eventually(async () => new Set(rx.received.map((r) => JSON.parse(r.body).id)).size === 200, 60_000, 'every event after the restart');
      const events = new Set(rx.received.map((r) => JSON.parse(r.body).id));
      assert.deepEqual([...events].map(Number).sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 1));
      await eventually(async () => Number((await db.store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'"))!.n) === 200,
        20_000, 'every delivery succeeded');
      assert.equal(await second.kill('SIGTERM'), 0, `a clean shutdown: ${second.output()}`);
    } finally {
      await first?.kill('SIGKILL');
      await second?.kill('SIGTERM');
      await rx.close();
      await db.drop();
    }
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { forEachStore } from '../helpers/stores.ts';
import { useServer, type TestServer } from '../helpers/server.ts';
import { apiClient, type ApiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver } from './receiver.ts';

type Detail = { status: string; attempts: number; attemptLog: Array<{ error: string | null; responseStatus: number | null; durationMs: number }> };

/** `global.gc` without restarting the test process with --expose-gc: the flag is set, then a new context hands out the function. */
function fullGc(): void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
}

/** A new database of `server` with a webhook to `url`: its client and the webhook's id. */
async function databaseWithHook(server: TestServer, url: string): Promise<{ api: ApiClient; hookId: string }> {
  const api = apiClient(server, (await server.createDatabase()).secretKey);
  const hookId = (await api.post<{ id: string }>('/webhooks', { url }, 201)).id;
  return { api, hookId };
}

async function deliveries(api: ApiClient, hookId: string): Promise<Detail[]> {
  const { deliveries: list } = await api.get<{ deliveries: Array<{ id: string }> }>(`/webhooks/${hookId}/deliveries`, 200, { query: { limit: '100' } });
  return Promise.all(list.map((d) => api.get<Detail>(`/webhooks/${hookId}/deliveries/${d.id}`)));
}

forEachStore('webhook attempts under GC and hanging receivers', (kind) => {
  describe('time-out', () => {
    // 4 slots: one per database, so database A's later deliveries go out only once its first attempt gave its slot back.
    const t = useServer(kind, {
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_CONCURRENCY: '4', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_MAX_ATTEMPTS: '3' },
    });

    test('a full GC during a hanging attempt: it still fails at the time-out, its slot is freed, another database gets its deliveries', async () => {
      const hanging = await startReceiver((_r, i) => (i === 0 ? 'hang' : { status: 200 }));
      const healthy = await startReceiver();
      try {
        const a = await databaseWithHook(t.server, hanging.url);
        const b = await databaseWithHook(t.server, healthy.url);
        await a.api.post('/posts/docs', { n: 1 }, 201);
        await a.api.post('/posts/docs', { n: 2 }, 201);
        await hanging.waitFor(1);
        // The attempt is in flight: a full collection now is what used to take its time-out away.
        fullGc();
        for (let i = 0; i < 3; i++) await b.api.post('/posts/docs', { i }, 201);
        await healthy.waitFor(3);
        const done = await eventually(
          async () => {
            const ds = await deliveries(a.api, a.hookId);
            assert.equal(ds.length, 2);
            for (const d of ds) assert.equal(d.status, 'succeeded', `delivery attempts: ${JSON.stringify(d.attemptLog)}`);
            return ds;
          },
          { timeoutMs: 20_000, what: "database A's deliveries to succeed" },
        );
        const logs = done.map((d) => d.attemptLog);
        const timedOut = logs.find((l) => l.length === 2);
        assert.ok(timedOut, `one delivery was attempted twice: ${JSON.stringify(logs)}`);
        assert.equal(timedOut[0].error, 'timed out after 1500 ms', 'the hanging attempt was recorded as a time-out (not lost with its lease)');
        assert.equal(timedOut[0].responseStatus, null);
        assert.ok(timedOut[0].durationMs >= 1500);
        assert.equal(hanging.received.length, 3, 'the hanging attempt, its retry and the other delivery: nothing sent twice');
      } finally {
        await hanging.close();
        await healthy.close();
      }
    });
  });

  describe('fair share', () => {
    // The default pool (64 attempts, 16 per database); attempts that hang far longer than the test.
    const t = useServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '300000' } });

    test("databases whose receivers hang hold at most their share; another database's deliveries go out while they hang", { timeout: 120_000 }, async () => {
      const hanging = await startReceiver(() => 'hang');
      const healthy = await startReceiver();
      try {
        // Five databases with 20 hanging deliveries each: 100 attempts wanted, more than the pool.
        const stuck = await Promise.all(Array.from({ length: 5 }, () => databaseWithHook(t.server, hanging.url)));
        for (const s of stuck) for (let i = 0; i < 20; i++) await s.api.post('/posts/docs', { i }, 201);
        // 4 × 16 fill the pool; the fifth database still gets one attempt over it.
        await hanging.waitFor(65, 30_000);
        const b = await databaseWithHook(t.server, healthy.url);
        for (let i = 0; i < 3; i++) await b.api.post('/posts/docs', { i }, 201);
        await healthy.waitFor(3, 30_000);
        await eventually(async () => {
          const ds = await deliveries(b.api, b.hookId);
          assert.deepEqual(
            ds.map((d) => d.status),
            ['succeeded', 'succeeded', 'succeeded'],
          );
        });
        // No hanging attempt ended meanwhile: the healthy database did not wait for them.
        for (const s of stuck) for (const d of await deliveries(s.api, s.hookId)) assert.equal(d.attempts, 0);
        const perDatabase = new Map<string, number>();
        for (const r of hanging.received) {
          const db = (JSON.parse(r.body) as { database: string }).database;
          perDatabase.set(db, (perDatabase.get(db) ?? 0) + 1);
        }
        assert.equal(perDatabase.size, 5);
        for (const [db, n] of perDatabase) assert.ok(n <= 16, `database ${db} has ${n} attempts in flight, over its share of 16`);
        assert.equal(hanging.received.length, 65, '64 in the pool, and one over it for the database that had none');
      } finally {
        await hanging.close();
        await healthy.close();
      }
    });
  });
});

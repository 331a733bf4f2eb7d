import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { startServer, useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { claimDue, insertDeliveries, recordAttempt, recordAttemptStepwise, recordAttemptWithCte } from '../../src/webhooks/deliveries.ts';
import { Retention } from '../../src/webhooks/retention.ts';
import { startReceiver } from './receiver.ts';
import type { FastifyBaseLogger } from 'fastify';

const iso = (ms: number) => new Date(ms).toISOString();
const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

forEachStore('webhook queue', (kind) => {
  test('a claim holds a lease: nobody else takes the row until it ends; a lost lease records nothing', async () => {
    const db = await openTestStore(kind);
    try {
      const { store } = db;
      const t = Date.parse('2030-01-01T00:00:00.000Z');
      await store.run("INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES ('d1', 'd', '{}', ?, ?)", [iso(t), iso(t)]);
      await store.run(
        "INSERT INTO webhooks (id, database_id, url, events, collections, enabled, secret, created_at, updated_at) VALUES ('w1', 'd1', 'http://x/', '[\"*\"]', '[]', 1, 'whsec_AAAA', ?, ?)",
        [iso(t), iso(t)],
      );
      await insertDeliveries(store, [{ webhookId: 'w1', eventId: '1', event: 'document.created', payload: '{}' }], iso(t));
      const claim = (now: number) =>
        claimDue(store, { now: iso(now), leaseUntil: iso(now + 10_000), limit: 10, take: () => true, skipWebhooks: [], skipDatabases: [] });
      const a = await claim(t);
      assert.equal(a.claimed.length, 1);
      assert.equal((await claim(t + 5_000)).claimed.length, 0, 'leased: not claimable');
      const b = await claim(t + 10_001);
      assert.equal(b.claimed.length, 1, 'the lease ended (the first claimer died): claimable again');
      const record = { at: iso(t), status: 'succeeded' as const, nextAttemptAt: null, responseStatus: 200, durationMs: 1, error: null, responseBody: '' };
      assert.equal(await store.transaction((tx) => recordAttempt(tx, store.dialect, a.claimed[0], record)), false, 'the old claim lost its lease');
      assert.equal(await store.transaction((tx) => recordAttempt(tx, store.dialect, b.claimed[0], record)), true);
      const rows = await store.all<{ n: number }>('SELECT n FROM webhook_attempts');
      assert.deepEqual(
        rows.map((r) => Number(r.n)),
        [1],
      );
      assert.equal((await claim(t + 60_000)).claimed.length, 0, 'succeeded rows are never claimed');
      // The caller's `take` decides: of 5 due rows, only 2 are taken when it has room for 2, and it is told each row's database.
      await insertDeliveries(
        store,
        Array.from({ length: 5 }, (_, i) => ({ webhookId: 'w1', eventId: String(i + 2), event: 'document.created', payload: '{}' })),
        iso(t),
      );
      const asked: string[] = [];
      const take = (w: string, d: string) => asked.push(`${w}/${d}`) <= 2;
      const limited = await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 10, take, skipWebhooks: [], skipDatabases: [] });
      assert.equal(limited.claimed.length, 2);
      assert.deepEqual(new Set(asked), new Set(['w1/d1']));
      assert.deepEqual(
        limited.claimed.map((c) => c.databaseId),
        ['d1', 'd1'],
      );
      assert.equal(limited.more, true);
      assert.equal(
        (await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 10, take: () => true, skipWebhooks: ['w1'], skipDatabases: [] })).claimed
          .length,
        0,
        'a full webhook is skipped',
      );
      assert.equal(
        (await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 10, take: () => true, skipWebhooks: [], skipDatabases: ['d1'] })).claimed
          .length,
        0,
        'a full database is skipped',
      );
    } finally {
      await db.drop();
    }
  });

  // PostgreSQL runs both record paths; SQLite (no UPDATE inside WITH) the stepwise one.
  const recorders: Array<[string, typeof recordAttemptStepwise]> =
    kind === 'postgres'
      ? [
          ['recordAttemptWithCte', recordAttemptWithCte],
          ['recordAttemptStepwise', recordAttemptStepwise],
        ]
      : [['recordAttemptStepwise', recordAttemptStepwise]];
  for (const [name, record] of recorders) {
    test(`${name}: the current lease records the attempt and the delivery's state; a stale lease records nothing`, async () => {
      const db = await openTestStore(kind);
      try {
        const { store } = db;
        const t = Date.parse('2030-01-01T00:00:00.000Z');
        await store.run("INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES ('d1', 'd', '{}', ?, ?)", [iso(t), iso(t)]);
        await store.run(
          "INSERT INTO webhooks (id, database_id, url, events, collections, enabled, secret, created_at, updated_at) VALUES ('w1', 'd1', 'http://x/', '[\"*\"]', '[]', 1, 'whsec_AAAA', ?, ?)",
          [iso(t), iso(t)],
        );
        const [id] = await insertDeliveries(store, [{ webhookId: 'w1', eventId: '1', event: 'document.created', payload: '{}' }], iso(t));
        const {
          claimed: [c],
        } = await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 1, take: () => true, skipWebhooks: [], skipDatabases: [] });
        const attempt = {
          at: iso(t),
          status: 'pending' as const,
          nextAttemptAt: iso(t + 60_000),
          responseStatus: 500,
          durationMs: 7,
          error: 'HTTP 500',
          responseBody: 'no',
        };
        assert.equal(await store.transaction((tx) => record(tx, c, { ...attempt, status: 'pending' })), true);
        assert.equal(await store.transaction((tx) => record(tx, c, attempt)), false, 'recording released the lease: the same claim counts once');
        const row = await store.get<{
          status: string;
          attempts: number | string;
          next_attempt_at: string;
          response_status: number | string;
          lease_token: string | null;
        }>('SELECT status, attempts, next_attempt_at, response_status, lease_token FROM webhook_deliveries WHERE id = ?', [id]);
        assert.deepEqual(
          { ...row, attempts: Number(row?.attempts), response_status: Number(row?.response_status) },
          { status: 'pending', attempts: 1, next_attempt_at: iso(t + 60_000), response_status: 500, lease_token: null },
        );
        const log = await store.all<{ n: number | string; error: string; duration_ms: number | string }>(
          'SELECT n, error, duration_ms FROM webhook_attempts WHERE delivery_id = ?',
          [id],
        );
        assert.deepEqual(
          log.map((r) => [Number(r.n), r.error, Number(r.duration_ms)]),
          [[1, 'HTTP 500', 7]],
        );
      } finally {
        await db.drop();
      }
    });
  }

  // One server per scenario below: each has its own settings and a clock it moves.
  describe('backoff', () => {
    const clock = new ManualClock();
    const t = useServer(kind, { clock, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '60000', WEBHOOK_MAX_ATTEMPTS: '2' } });
    test('backoff runs on the injected clock: no retry until the clock passes nextAttemptAt', async () => {
      const api = apiClient(t.server, t.db.secretKey);
      const rx = await startReceiver(() => ({ status: 500 }));
      try {
        const { id } = await api.post<{ id: string }>('/webhooks', { url: rx.url }, 201);
        await api.post('/posts/docs', {}, 201);
        await rx.waitFor(1);
        const pending = await eventually(
          async () => {
            const [d] = (await api.get<{ deliveries: Array<{ attempts: number; nextAttemptAt: string }> }>(`/webhooks/${id}/deliveries`)).deliveries;
            assert.equal(d?.attempts, 1);
            return d;
          },
          { what: 'the first attempt recorded' },
        );
        const wait = Date.parse(pending.nextAttemptAt) - clock.now();
        assert.ok(wait >= 48_000 && wait <= 72_000, `first retry in ${wait} ms (60 s ± 20 %)`);
        await sleep(400);
        assert.equal(rx.received.length, 1, 'nothing before the clock moves');
        clock.advance(73_000);
        await rx.waitFor(2, 5000);
        await eventually(
          async () => {
            const [d] = (await api.get<{ deliveries: Array<{ status: string }> }>(`/webhooks/${id}/deliveries`)).deliveries;
            assert.equal(d.status, 'failed');
          },
          { what: 'the delivery to fail' },
        );
      } finally {
        await rx.close();
      }
    });
  });

  describe('auto-disable', () => {
    const clock = new ManualClock();
    const t = useServer(kind, {
      clock,
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_HOURS: '24' },
    });
    test('auto-disable: N failed deliveries in a row spanning the window disable the webhook, with the reason in its record', async () => {
      type Hook = { enabled: boolean; disabledReason: string | null };
      const api = apiClient(t.server, t.db.secretKey);
      const rx = await startReceiver(() => ({ status: 500 }));
      try {
        const { id } = await api.post<{ id: string }>('/webhooks', { url: rx.url }, 201);
        const failed = (n: number) =>
          eventually(
            async () => {
              const { total } = await api.get<{ total: number }>(`/webhooks/${id}/deliveries`, 200, { query: { status: 'failed' } });
              assert.ok(total >= n, `${total} failed so far`);
            },
            { what: `${n} failed deliveries` },
          );
        for (let i = 0; i < 3; i += 1) await api.post('/posts/docs', { i }, 201);
        await failed(3);
        assert.equal((await api.get<Hook>(`/webhooks/${id}`)).enabled, true, '3 failures within minutes: still enabled');
        clock.advance(25 * 3_600_000);
        await api.post('/posts/docs', { i: 3 }, 201);
        await failed(4);
        const w = await eventually(
          async () => {
            const hook = await api.get<Hook>(`/webhooks/${id}`);
            assert.equal(hook.enabled, false);
            return hook;
          },
          { what: 'the webhook to be disabled' },
        );
        assert.match(String(w.disabledReason), /^Disabled automatically at .*: the last 4 deliveries failed/);
        await api.post('/posts/docs', { i: 4 }, 201);
        const all = await api.get<{ total: number }>(`/webhooks/${id}/deliveries`);
        assert.equal(all.total, 4, 'a disabled webhook gets no new deliveries');
        const on = await api.patch<Hook>(`/webhooks/${id}`, { enabled: true });
        assert.equal(on.enabled, true);
        assert.equal(on.disabledReason, null);
      } finally {
        await rx.close();
      }
    });
  });

  describe('retention', () => {
    const clock = new ManualClock();
    const t = useServer(kind, { clock, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    test('retention prunes finished deliveries and events past their age, keeps pending deliveries and recent rows', async () => {
      const api = apiClient(t.server, t.db.secretKey);
      const rx = await startReceiver();
      try {
        await api.post('/webhooks', { url: rx.url }, 201);
        await api.post('/posts/bulk', { documents: [{}, {}, {}] }, 201);
        await rx.waitFor(3);
        const { store } = t.server.db;
        const count = async (sql: string) => Number((await store.get<{ n: number }>(sql))!.n);
        await eventually(async () => assert.equal(await count("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'"), 3), {
          what: '3 succeeded deliveries',
        });
        // Age the rows as if written 31 days ago (events take the document's wall-clock time).
        const old = iso(clock.now() - 31 * 86_400_000);
        await store.run('UPDATE events SET created_at = ?', [old]);
        await store.run('UPDATE webhook_deliveries SET created_at = ?', [old]);
        await store.run(
          "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id IN (SELECT id FROM webhook_deliveries ORDER BY id LIMIT 1)",
          [iso(clock.now() + 86_400_000)],
        );
        const retention = new Retention({ store, clock, log: silent, deliveryMaxAgeMs: 30 * 86_400_000, eventMaxAgeMs: 30 * 86_400_000 });
        assert.deepEqual(await retention.runOnce(), { deliveries: 2, events: 3 });
        assert.equal(await count('SELECT count(*) AS n FROM webhook_deliveries'), 1, 'the pending one stays');
        assert.equal(await count('SELECT count(*) AS n FROM webhook_attempts'), 1, 'attempts go with their deliveries');
        await api.post('/posts/docs', {}, 201);
        const short = new Retention({ store, clock, log: silent, deliveryMaxAgeMs: 1, eventMaxAgeMs: 1 });
        assert.equal((await short.runOnce()).events, 0, 'events are kept at least an hour whatever the setting');
      } finally {
        await rx.close();
      }
    });
  });

  if (kind === 'postgres') {
    test('two dispatchers on one PostgreSQL database never send the same attempt twice', async () => {
      // Two instances on one store: not useServer().
      const a = await startServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
      const b = await startServer(kind, { db: a.db, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
      const rx = await startReceiver(() => ({ status: 200, delayMs: 3 }));
      try {
        const { secretKey } = await a.createDatabase();
        const [onA, onB] = [apiClient(a, secretKey), apiClient(b, secretKey)];
        await onA.post('/webhooks', { url: rx.url }, 201);
        const docs = (n: number) => ({ documents: Array.from({ length: n }, (_, i) => ({ i })) });
        await Promise.all([...[0, 1, 2].map(() => onA.post('/posts/bulk', docs(100), 201)), ...[0, 1, 2].map(() => onB.post('/posts/bulk', docs(100), 201))]);
        await rx.waitFor(600, 30_000);
        await sleep(500);
        const ids = rx.received.map((r) => String(r.headers['x-service-delivery']));
        assert.equal(ids.length, 600, 'exactly one request per delivery');
        assert.equal(new Set(ids).size, 600);
        assert.equal(new Set(rx.received.map((r) => JSON.parse(r.body).id)).size, 600, 'every event once');
        const attempts = await a.db.store.all<{ n: number }>('SELECT n FROM webhook_attempts');
        assert.equal(attempts.length, 600);
        assert.ok(attempts.every((r) => Number(r.n) === 1));
        const metrics = async (server: typeof a) => {
          const m = await apiClient(server).request('GET', '/metrics', { root: true });
          assert.equal(m.status, 200);
          return m.text;
        };
        const sent = async (server: typeof a) => Number(/svc_webhook_deliveries_total\{outcome="succeeded"\} (\d+)/.exec(await metrics(server))?.[1] ?? 0);
        const [na, nb] = [await sent(a), await sent(b)];
        assert.equal(na + nb, 600);
        assert.ok(na > 0 && nb > 0, `both instances delivered (${na} + ${nb})`);
        assert.match(await metrics(a), /svc_webhook_queue_depth 0/);
      } finally {
        await rx.close();
        await b.close();
        await a.close();
      }
    });
  }
});

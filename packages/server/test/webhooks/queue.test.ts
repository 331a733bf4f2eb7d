import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { request, startServer } from '../helpers/server.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { claimDue, insertDeliveries, recordAttempt, recordAttemptStepwise, recordAttemptWithCte } from '../../src/webhooks/deliveries.ts';
import { Retention } from '../../src/webhooks/retention.ts';
import { eventually, startReceiver } from './receiver.ts';
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
      await store.run("INSERT INTO webhooks (id, database_id, url, events, collections, enabled, secret, created_at, updated_at) VALUES ('w1', 'd1', 'http://x/', '[\"*\"]', '[]', 1, 'whsec_AAAA', ?, ?)", [iso(t), iso(t)]);
      await insertDeliveries(store, [{ webhookId: 'w1', eventId: '1', event: 'document.created', payload: '{}' }], iso(t));
      const claim = (now: number) => claimDue(store, { now: iso(now), leaseUntil: iso(now + 10_000), limit: 10, room: () => 10, full: [] });
      const a = await claim(t);
      assert.equal(a.claimed.length, 1);
      assert.equal((await claim(t + 5_000)).claimed.length, 0, 'leased: not claimable');
      const b = await claim(t + 10_001);
      assert.equal(b.claimed.length, 1, 'the lease ended (the first claimer died): claimable again');
      const record = { at: iso(t), status: 'succeeded' as const, nextAttemptAt: null, responseStatus: 200, durationMs: 1, error: null, responseBody: '' };
      assert.equal(await store.transaction((tx) => recordAttempt(tx, store.dialect, a.claimed[0], record)), false, 'the old claim lost its lease');
      assert.equal(await store.transaction((tx) => recordAttempt(tx, store.dialect, b.claimed[0], record)), true);
      const rows = await store.all<{ n: number }>('SELECT n FROM webhook_attempts');
      assert.deepEqual(rows.map((r) => Number(r.n)), [1]);
      assert.equal((await claim(t + 60_000)).claimed.length, 0, 'succeeded rows are never claimed');
      // Per-webhook room: of 5 due rows, only 2 are taken when the webhook has 2 free slots.
      await insertDeliveries(store, Array.from({ length: 5 }, (_, i) => ({ webhookId: 'w1', eventId: String(i + 2), event: 'document.created', payload: '{}' })), iso(t));
      const limited = await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 10, room: () => 2, full: [] });
      assert.equal(limited.claimed.length, 2);
      assert.equal(limited.more, true);
      assert.equal((await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 10, room: () => 10, full: ['w1'] })).claimed.length, 0, 'a full webhook is skipped');
    } finally {
      await db.drop();
    }
  });

  // PostgreSQL runs both record paths; SQLite (no UPDATE inside WITH) the stepwise one.
  const recorders: Array<[string, typeof recordAttemptStepwise]> = kind === 'postgres'
    ? [['recordAttemptWithCte', recordAttemptWithCte], ['recordAttemptStepwise', recordAttemptStepwise]]
    : [['recordAttemptStepwise', recordAttemptStepwise]];
  for (const [name, record] of recorders) {
    test(`${name}: the current lease records the attempt and the delivery's state; a stale lease records nothing`, async () => {
      const db = await openTestStore(kind);
      try {
        const { store } = db;
        const t = Date.parse('2030-01-01T00:00:00.000Z');
        await store.run("INSERT INTO databases (id, name, settings, created_at, updated_at) VALUES ('d1', 'd', '{}', ?, ?)", [iso(t), iso(t)]);
        await store.run("INSERT INTO webhooks (id, database_id, url, events, collections, enabled, secret, created_at, updated_at) VALUES ('w1', 'd1', 'http://x/', '[\"*\"]', '[]', 1, 'whsec_AAAA', ?, ?)", [iso(t), iso(t)]);
        const [id] = await insertDeliveries(store, [{ webhookId: 'w1', eventId: '1', event: 'document.created', payload: '{}' }], iso(t));
        const { claimed: [c] } = await claimDue(store, { now: iso(t), leaseUntil: iso(t + 10_000), limit: 1, room: () => 1, full: [] });
        const attempt = { at: iso(t), status: 'pending' as const, nextAttemptAt: iso(t + 60_000), responseStatus: 500, durationMs: 7, error: 'HTTP 500', responseBody: 'no' };
        assert.equal(await store.transaction((tx) => record(tx, c, { ...attempt, status: 'pending' })), true);
        assert.equal(await store.transaction((tx) => record(tx, c, attempt)), false, 'recording released the lease: the same claim counts once');
        const row = await store.get<{ status: string; attempts: number | string; next_attempt_at: string; response_status: number | string; lease_token: string | null }>(
          'SELECT status, attempts, next_attempt_at, response_status, lease_token FROM webhook_deliveries WHERE id = ?', [id]);
        assert.deepEqual({ ...row, attempts: Number(row?.attempts), response_status: Number(row?.response_status) },
          { status: 'pending', attempts: 1, next_attempt_at: iso(t + 60_000), response_status: 500, lease_token: null });
        const log = await store.all<{ n: number | string; error: string; duration_ms: number | string }>('SELECT n, error, duration_ms FROM webhook_attempts WHERE delivery_id = ?', [id]);
        assert.deepEqual(log.map((r) => [Number(r.n), r.error, Number(r.duration_ms)]), [[1, 'HTTP 500', 7]]);
      } finally {
        await db.drop();
      }
    });
  }

  test('backoff runs on the injected clock: no retry until the clock passes nextAttemptAt', async () => {
    const clock = new ManualClock();
    const server = await startServer(kind, { clock, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '60000', WEBHOOK_MAX_ATTEMPTS: '2' } });
    const rx = await startReceiver(() => ({ status: 500 }));
    try {
      const db = await server.createDatabase();
      const h = await request(server, 'POST', '/webhooks', { key: db.secretKey, body: { url: rx.url } });
      const id = (h.json as { id: string }).id;
      await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: {} });
      await rx.waitFor(1);
      const pending = await eventually(async () => {
        const l = (await request(server, 'GET', `/webhooks/${id}/deliveries`, { key: db.secretKey })).json as { deliveries: Array<{ attempts: number; nextAttemptAt: string }> };
        return l.deliveries[0]?.attempts === 1 ? l.deliveries[0] : undefined;
      });
      const wait = Date.parse(pending.nextAttemptAt) - clock.now();
      assert.ok(wait >= 48_000 && wait <= 72_000, `first retry in ${wait} ms (60 s ± 20 %)`);
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(rx.received.length, 1, 'nothing before the clock moves');
      clock.advance(73_000);
      await rx.waitFor(2, 5000);
      const done = await eventually(async () => {
        const l = (await request(server, 'GET', `/webhooks/${id}/deliveries`, { key: db.secretKey })).json as { deliveries: Array<{ status: string }> };
        return l.deliveries[0].status === 'failed' ? l.deliveries[0] : undefined;
      });
      assert.equal(done.status, 'failed');
    } finally {
      await rx.close();
      await server.close();
    }
  });

  test('auto-disable: N failed deliveries in a row spanning the window disable the webhook, with the reason in its record', async () => {
    const clock = new ManualClock();
    const server = await startServer(kind, { clock, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_DISABLE_AFTER_FAILURES: '3', WEBHOOK_DISABLE_AFTER_HOURS: '24' } });
    const rx = await startReceiver(() => ({ status: 500 }));
    try {
      const db = await server.createDatabase();
      const h = await request(server, 'POST', '/webhooks', { key: db.secretKey, body: { url: rx.url } });
      const id = (h.json as { id: string }).id;
      const failed = async (n: number) => eventually(async () => {
        const l = (await request(server, 'GET', `/webhooks/${id}/deliveries`, { key: db.secretKey, query: { status: 'failed' } })).json as { total: number };
        return l.total >= n;
      }, 10_000, `${n} failed deliveries`);
      for (let i = 0; i < 3; i += 1) await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { i } });
      await failed(3);
      let w = (await request(server, 'GET', `/webhooks/${id}`, { key: db.secretKey })).json as { enabled: boolean; disabledReason: string | null };
      assert.equal(w.enabled, true, '3 failures within minutes: still enabled');
      clock.advance(25 * 3_600_000);
      await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { i: 3 } });
      await failed(4);
      w = await eventually(async () => {
        const r = (await request(server, 'GET', `/webhooks/${id}`, { key: db.secretKey })).json as typeof w;
        return r.enabled ? undefined : r;
      });
      assert.match(String(w.disabledReason), /^Disabled automatically at .*: the last 4 deliveries failed/);
      await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { i: 4 } });
      const all = (await request(server, 'GET', `/webhooks/${id}/deliveries`, { key: db.secretKey })).json as { total: number };
      assert.equal(all.total, 4, 'a disabled webhook gets no new deliveries');
      const on = (await request(server, 'PATCH', `/webhooks/${id}`, { key: db.secretKey, body: { enabled: true } })).json as typeof w;
      assert.equal(on.enabled, true);
      assert.equal(on.disabledReason, null);
    } finally {
      await rx.close();
      await server.close();
    }
  });

  test('retention prunes finished deliveries and events past their age, keeps pending deliveries and recent rows', async () => {
    const clock = new ManualClock();
    const server = await startServer(kind, { clock, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    const rx = await startReceiver();
    try {
      const db = await server.createDatabase();
      await request(server, 'POST', '/webhooks', { key: db.secretKey, body: { url: rx.url } });
      await request(server, 'POST', '/posts/bulk', { key: db.secretKey, body: { documents: [{}, {}, {}] } });
      await rx.waitFor(3);
      const { store } = server.db;
      await eventually(async () => Number((await store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'"))!.n) === 3);
      // Age the rows as if written 31 days ago (events take the document's wall-clock time).
      const old = iso(clock.now() - 31 * 86_400_000);
      await store.run('UPDATE events SET created_at = ?', [old]);
      await store.run('UPDATE webhook_deliveries SET created_at = ?', [old]);
      await store.run("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ? WHERE id IN (SELECT id FROM webhook_deliveries ORDER BY id LIMIT 1)", [iso(clock.now() + 86_400_000)]);
      const retention = new Retention({ store, clock, log: silent, deliveryMaxAgeMs: 30 * 86_400_000, eventMaxAgeMs: 30 * 86_400_000 });
      assert.deepEqual(await retention.runOnce(), { deliveries: 2, events: 3 });
      assert.equal(Number((await store.get<{ n: number }>('SELECT count(*) AS n FROM webhook_deliveries'))!.n), 1, 'the pending one stays');
      assert.equal(Number((await store.get<{ n: number }>('SELECT count(*) AS n FROM webhook_attempts'))!.n), 1, 'attempts go with their deliveries');
      await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: {} });
      const short = new Retention({ store, clock, log: silent, deliveryMaxAgeMs: 1, eventMaxAgeMs: 1 });
      assert.equal((await short.runOnce()).events, 0, 'events are kept at least an hour whatever the setting');
    } finally {
      await rx.close();
      await server.close();
    }
  });

  if (kind === 'postgres') {
    test('two dispatchers on one PostgreSQL database never send the same attempt twice', async () => {
      const a = await startServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
      const b = await startServer(kind, { db: a.db, env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
      const rx = await startReceiver(() => ({ status: 200, delayMs: 3 }));
      try {
        const db = await a.createDatabase();
        await request(a, 'POST', '/webhooks', { key: db.secretKey, body: { url: rx.url } });
        const docs = (n: number) => ({ documents: Array.from({ length: n }, (_, i) => ({ i })) });
        await Promise.all([
          ...[0, 1, 2].map(() => request(a, 'POST', '/posts/bulk', { key: db.secretKey, body: docs(100) })),
          ...[0, 1, 2].map(() => request(b, 'POST', '/posts/bulk', { key: db.secretKey, body: docs(100) })),
        ]);
        await rx.waitFor(600, 30_000);
        await new Promise((r) => setTimeout(r, 500));
        const ids = rx.received.map((r) => String(r.headers['x-service-delivery']));
        assert.equal(ids.length, 600, 'exactly one request per delivery');
        assert.equal(new Set(ids).size, 600);
        assert.equal(new Set(rx.received.map((r) => JSON.parse(r.body).id)).size, 600, 'every event once');
        const attempts = await a.db.store.all<{ n: number }>('SELECT n FROM webhook_attempts');
        assert.equal(attempts.length, 600);
        assert.ok(attempts.every((r) => Number(r.n) === 1));
        const sent = async (s: typeof a) => {
          const m = await request(s, 'GET', '/metrics', { root: true });
          return Number(/svc_webhook_deliveries_total\{outcome="succeeded"\} (\d+)/.exec(m.text)?.[1] ?? 0);
        };
        const [na, nb] = [await sent(a), await sent(b)];
        assert.equal(na + nb, 600);
        assert.ok(na > 0 && nb > 0, `both instances delivered (${na} + ${nb})`);
        const depth = await request(a, 'GET', '/metrics', { root: true });
        assert.match(depth.text, /svc_webhook_queue_depth 0/);
      } finally {
        await rx.close();
        await b.close();
        await a.close();
      }
    });
  }
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { forEachStore } from '../helpers/stores.ts';
import { startServer, useServer, type TestDatabase as Db } from '../helpers/server.ts';
import { apiClient, type ApiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver, type Receiver, type Received } from './receiver.ts';

interface Created {
  id: string;
  secret: string;
}
type Deliveries = { deliveries: Array<Record<string, unknown>>; total: number };

const body = (r: Received) => JSON.parse(r.body) as Record<string, unknown>;

forEachStore('webhook deliveries', (kind) => {
  const t = useServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '50' } });
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  /** A new database of its own (the receiver is shared) and a client with its secret key. */
  async function newDatabase(): Promise<{ db: Db; api: ApiClient }> {
    const db = await t.server.createDatabase();
    return { db, api: apiClient(t.server, db.secretKey) };
  }
  const hook = (api: ApiClient, extra: Record<string, unknown> = {}, url = receiver.url) => api.post<Created>('/webhooks', { url, ...extra }, 201);
  const mine = (db: Db) => receiver.received.filter((r) => body(r).database === db.databaseId);
  /** Waits until the receiver got `n` deliveries for this database. */
  const receivedFor = (db: Db, n: number) =>
    eventually(() => assert.ok(mine(db).length >= n, `${mine(db).length} of ${n} deliveries`), { what: `${n} deliveries` });

  test('created, updated and deleted events arrive with the §4 body and headers, verified by both libraries', async () => {
    const { db, api } = await newDatabase();
    const h = await hook(api);
    const doc = await api.post<{ id: string; createdAt: string }>('/posts/docs', { title: 'a' }, 201);
    await api.patch(`/posts/docs/${doc.id}`, { title: 'b' });
    await api.delete(`/posts/docs/${doc.id}`);
    await receivedFor(db, 3);
    const got = mine(db).sort((a, b) => Number(body(a).id) - Number(body(b).id));
    assert.deepEqual(
      got.map((r) => body(r).type),
      ['document.created', 'document.updated', 'document.deleted'],
    );
    const [created, updated, deleted] = got.map(body);
    assert.deepEqual(created, { id: '1', type: 'document.created', timestamp: doc.createdAt, database: db.databaseId, collection: 'posts', document: doc });
    assert.deepEqual(updated.previous, doc);
    assert.equal((updated.document as { title: string }).title, 'b');
    assert.equal((deleted.document as { title: string }).title, 'b', 'a deleted event carries the document as it was');
    assert.equal('previous' in deleted, false);

    const sw = new StandardWebhook(h.secret);
    for (const r of got) {
      assert.equal(r.headers['content-type'], 'application/json');
      assert.equal(r.headers['x-service-event'], body(r).type);
      assert.match(String(r.headers['x-service-delivery']), /^[0-9a-f-]{36}$/);
      assert.equal(r.headers['webhook-id'], r.headers['x-service-delivery']);
      assert.match(String(r.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
      assert.equal(await verifyGithubStyle(h.secret, r.body, String(r.headers['x-service-signature'])), true);
      assert.equal(await verifyGithubStyle('whsec_wrong', r.body, String(r.headers['x-service-signature'])), false);
      const verified = sw.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      assert.deepEqual(verified, body(r));
      assert.throws(() =>
        sw.verify(r.body + ' ', {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        }),
      );
    }
    const { deliveries, total } = await api.get<Deliveries>(`/webhooks/${h.id}/deliveries`);
    assert.equal(total, 3);
    assert.deepEqual(
      deliveries.map((d) => d.eventId),
      ['3', '2', '1'],
      'newest first',
    );
    await eventually(async () => {
      const succeeded = await api.get<Deliveries>(`/webhooks/${h.id}/deliveries`, 200, { query: { status: 'succeeded' } });
      assert.equal(succeeded.total, 3, 'succeeded deliveries');
    });
    const detail = await api.get<Record<string, unknown> & { attemptLog: Array<Record<string, unknown>> }>(`/webhooks/${h.id}/deliveries/${deliveries[0].id}`);
    assert.deepEqual(Object.keys(detail).sort(), [
      'attemptLog',
      'attempts',
      'createdAt',
      'event',
      'eventId',
      'id',
      'lastAttemptAt',
      'nextAttemptAt',
      'responseStatus',
      'status',
      'webhookId',
    ]);
    assert.equal(detail.status, 'succeeded');
    assert.equal(detail.attempts, 1);
    assert.equal(detail.responseStatus, 200);
    assert.equal(detail.nextAttemptAt, null);
    assert.equal(detail.attemptLog.length, 1);
    assert.deepEqual(Object.keys(detail.attemptLog[0]).sort(), ['at', 'durationMs', 'error', 'responseBody', 'responseStatus']);
    assert.equal(detail.attemptLog[0].responseBody, 'ok');
    assert.equal(detail.attemptLog[0].error, null);
  });

  test('events and collections filters; several webhooks each get their own delivery', async () => {
    const { db, api } = await newDatabase();
    const onlyCreatedPosts = await hook(api, { events: ['document.created'], collections: ['posts'] });
    const everything = await hook(api);
    const deletes = await hook(api, { events: ['document.deleted', 'document.updated'] });
    const a = await api.post<{ id: string }>('/posts/docs', { n: 1 }, 201);
    await api.post('/notes/docs', { n: 2 }, 201);
    await api.delete(`/posts/docs/${a.id}`);
    const events = async (id: string) => (await api.get<Deliveries>(`/webhooks/${id}/deliveries`)).deliveries.map((d) => d.event).reverse();
    assert.deepEqual(await events(onlyCreatedPosts.id), ['document.created']);
    assert.deepEqual(await events(everything.id), ['document.created', 'document.created', 'document.deleted']);
    assert.deepEqual(await events(deletes.id), ['document.deleted']);
    await receivedFor(db, 5);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(mine(db).length, 5);
  });

  test('a disabled webhook gets no deliveries; enabling it again delivers later changes', async () => {
    const { db, api } = await newDatabase();
    const h = await hook(api);
    const off = await api.patch<{ enabled: boolean }>(`/webhooks/${h.id}`, { enabled: false });
    assert.equal(off.enabled, false);
    await api.post('/posts/docs', { n: 1 }, 201);
    assert.equal((await api.get<Deliveries>(`/webhooks/${h.id}/deliveries`)).total, 0);
    await api.patch(`/webhooks/${h.id}`, { enabled: true });
    await api.post('/posts/docs', { n: 2 }, 201);
    await eventually(() => assert.equal(mine(db).length, 1), { what: 'one delivery' });
    assert.equal((body(mine(db)[0]).document as { n: number }).n, 2);
  });

  test('test delivery: 202 with the delivery, body { id, type: webhook.test, timestamp, database }', async () => {
    const { db, api } = await newDatabase();
    const h = await hook(api);
    const { delivery } = await api.post<{ delivery: Record<string, unknown> }>(`/webhooks/${h.id}/test`, undefined, 202);
    assert.equal(delivery.event, 'webhook.test');
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.webhookId, h.id);
    await eventually(() => assert.equal(mine(db).length, 1), { what: 'the test delivery' });
    const got = mine(db)[0];
    const b = body(got);
    assert.deepEqual(Object.keys(b).sort(), ['database', 'id', 'timestamp', 'type']);
    assert.equal(b.type, 'webhook.test');
    assert.equal(b.id, delivery.eventId);
    assert.equal(got.headers['x-service-delivery'], delivery.id);
    assert.equal(got.headers['x-service-event'], 'webhook.test');
    assert.equal(await verifyGithubStyle(h.secret, got.body, String(got.headers['x-service-signature'])), true);
  });

  test('rotation: a pending delivery is signed at its next attempt with the new secret', async () => {
    // Its own server with a slower retry, so the rotation surely lands between two attempts.
    const slow = await startServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '400' } });
    const db = await slow.createDatabase();
    let fail = true;
    const flaky = await startReceiver(() => (fail ? { status: 503, body: 'down' } : { status: 204 }));
    try {
      const api = apiClient(slow, db.secretKey);
      const h = await api.post<Created>('/webhooks', { url: flaky.url }, 201);
      await api.post('/posts/docs', { n: 1 }, 201);
      const [first] = await flaky.waitFor(1);
      assert.equal(await verifyGithubStyle(h.secret, first.body, String(first.headers['x-service-signature'])), true);
      const rot = await api.post<{ id: string; secret: string }>(`/webhooks/${h.id}/rotate-secret`, undefined, 200);
      const { secret } = rot;
      assert.deepEqual(Object.keys(rot).sort(), ['id', 'secret']);
      assert.notEqual(secret, h.secret);
      fail = false;
      const all = await flaky.waitFor(2);
      const last = all[all.length - 1];
      assert.equal(last.headers['x-service-delivery'], first.headers['x-service-delivery'], 'the same delivery id on every attempt');
      assert.equal(last.body, first.body, 'the same bytes on every attempt');
      assert.equal(await verifyGithubStyle(secret, last.body, String(last.headers['x-service-signature'])), true);
      assert.equal(await verifyGithubStyle(h.secret, last.body, String(last.headers['x-service-signature'])), false);
      new StandardWebhook(secret).verify(last.body, {
        'webhook-id': String(last.headers['webhook-id']),
        'webhook-timestamp': String(last.headers['webhook-timestamp']),
        'webhook-signature': String(last.headers['webhook-signature']),
      });
    } finally {
      await flaky.close();
      await slow.close();
    }
  });
});

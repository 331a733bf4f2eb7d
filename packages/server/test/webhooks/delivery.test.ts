import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { forEachStore } from '../helpers/stores.ts';
import { request, startServer, type TestServer } from '../helpers/server.ts';
import { eventually, startReceiver, type Receiver, type Received } from './receiver.ts';

type Db = Awaited<ReturnType<TestServer['createDatabase']>>;
interface Created { id: string; secret: string }

const body = (r: Received) => JSON.parse(r.body) as Record<string, unknown>;

forEachStore('webhook deliveries', (kind) => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startServer(kind, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '50' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  async function hook(db: Db, extra: Record<string, unknown> = {}, url = receiver.url): Promise<Created> {
    const r = await request(server, 'POST', '/webhooks', { key: db.secretKey, body: { url, ...extra } });
    assert.equal(r.status, 201, r.text);
    return r.json as Created;
  }
  const mine = (db: Db) => receiver.received.filter((r) => body(r).database === db.databaseId);

  test('created, updated and deleted events arrive with the §4 body and headers, verified by both libraries', async () => {
    const db = await server.createDatabase();
    const h = await hook(db);
    const c = await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { title: 'a' } });
    const doc = c.json as { id: string };
    await request(server, 'PATCH', `/posts/docs/${doc.id}`, { key: db.secretKey, body: { title: 'b' } });
    await request(server, 'DELETE', `/posts/docs/${doc.id}`, { key: db.secretKey });
    await eventually(async () => mine(db).length >= 3, 10_000, 'three deliveries');
    const got = mine(db).sort((a, b) => Number(body(a).id) - Number(body(b).id));
    assert.deepEqual(got.map((r) => body(r).type), ['document.created', 'document.updated', 'document.deleted']);
    const [created, updated, deleted] = got.map(body);
    assert.deepEqual(created, { id: '1', type: 'document.created', timestamp: (c.json as { createdAt: string }).createdAt, database: db.databaseId, collection: 'posts', document: c.json });
    assert.deepEqual(updated.previous, c.json);
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
        'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']),
      });
      assert.deepEqual(verified, body(r));
      assert.throws(() => sw.verify(r.body + ' ', {
        'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']),
      }));
    }
    const list = await request(server, 'GET', `/webhooks/${h.id}/deliveries`, { key: db.secretKey });
    const { deliveries, total } = list.json as { deliveries: Array<Record<string, unknown>>; total: number };
    assert.equal(total, 3);
    assert.deepEqual(deliveries.map((d) => d.eventId), ['3', '2', '1'], 'newest first');
    await eventually(async () => {
      const l = await request(server, 'GET', `/webhooks/${h.id}/deliveries`, { key: db.secretKey, query: { status: 'succeeded' } });
      return (l.json as { total: number }).total === 3;
    });
    const d = await request(server, 'GET', `/webhooks/${h.id}/deliveries/${deliveries[0].id}`, { key: db.secretKey });
    const detail = d.json as Record<string, unknown> & { attemptLog: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(detail).sort(), ['attemptLog', 'attempts', 'createdAt', 'event', 'eventId', 'id', 'lastAttemptAt', 'nextAttemptAt', 'responseStatus', 'status', 'webhookId']);
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
    const db = await server.createDatabase();
    const onlyCreatedPosts = await hook(db, { events: ['document.created'], collections: ['posts'] });
    const everything = await hook(db);
    const deletes = await hook(db, { events: ['document.deleted', 'document.updated'] });
    const a = await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { n: 1 } });
    await request(server, 'POST', '/notes/docs', { key: db.secretKey, body: { n: 2 } });
    await request(server, 'DELETE', `/posts/docs/${(a.json as { id: string }).id}`, { key: db.secretKey });
    const events = async (id: string) => {
      const r = await request(server, 'GET', `/webhooks/${id}/deliveries`, { key: db.secretKey });
      return (r.json as { deliveries: Array<{ event: string }> }).deliveries.map((d) => d.event).reverse();
    };
    assert.deepEqual(await events(onlyCreatedPosts.id), ['document.created']);
    assert.deepEqual(await events(everything.id), ['document.created', 'document.created', 'document.deleted']);
    assert.deepEqual(await events(deletes.id), ['document.deleted']);
    await eventually(async () => mine(db).length >= 5, 10_000, 'five deliveries');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(mine(db).length, 5);
  });

  test('a disabled webhook gets no deliveries; enabling it again delivers later changes', async () => {
    const db = await server.createDatabase();
    const h = await hook(db);
    const off = await request(server, 'PATCH', `/webhooks/${h.id}`, { key: db.secretKey, body: { enabled: false } });
    assert.equal(off.status, 200);
    assert.equal((off.json as { enabled: boolean }).enabled, false);
    await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { n: 1 } });
    const none = await request(server, 'GET', `/webhooks/${h.id}/deliveries`, { key: db.secretKey });
    assert.equal((none.json as { total: number }).total, 0);
    await request(server, 'PATCH', `/webhooks/${h.id}`, { key: db.secretKey, body: { enabled: true } });
    await request(server, 'POST', '/posts/docs', { key: db.secretKey, body: { n: 2 } });
    await eventually(async () => mine(db).length === 1, 10_000, 'one delivery');
    assert.equal((body(mine(db)[0]).document as { n: number }).n, 2);
  });

  test('test delivery: 202 with the delivery, body { id, type: webhook.test, timestamp, database }', async () => {
    const db = await server.createDatabase();
    const h = await hook(db);
    const r = await request(server, 'POST', `/webhooks/${h.id}/test`, { key: db.secretKey });
    assert.equal(r.status, 202);
    const { delivery } = r.json as { delivery: Record<string, unknown> };
    assert.equal(delivery.event, 'webhook.test');
    assert.equal(delivery.status, 'pending');
    assert.equal(delivery.webhookId, h.id);
    await eventually(async () => mine(db).length === 1, 10_000, 'the test delivery');
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
      const r = await request(slow, 'POST', '/webhooks', { key: db.secretKey, body: { url: flaky.url } });
      const h = r.json as Created;
      await request(slow, 'POST', '/posts/docs', { key: db.secretKey, body: { n: 1 } });
      const [first] = await flaky.waitFor(1);
      assert.equal(await verifyGithubStyle(h.secret, first.body, String(first.headers['x-service-signature'])), true);
      const rot = await request(slow, 'POST', `/webhooks/${h.id}/rotate-secret`, { key: db.secretKey });
      assert.equal(rot.status, 200);
      const { secret } = rot.json as { id: string; secret: string };
      assert.deepEqual(Object.keys(rot.json as object).sort(), ['id', 'secret']);
      assert.notEqual(secret, h.secret);
      fail = false;
      const all = await flaky.waitFor(2);
      const last = all[all.length - 1];
      assert.equal(last.headers['x-service-delivery'], first.headers['x-service-delivery'], 'the same delivery id on every attempt');
      assert.equal(last.body, first.body, 'the same bytes on every attempt');
      assert.equal(await verifyGithubStyle(secret, last.body, String(last.headers['x-service-signature'])), true);
      assert.equal(await verifyGithubStyle(h.secret, last.body, String(last.headers['x-service-signature'])), false);
      new StandardWebhook(secret).verify(last.body, {
        'webhook-id': String(last.headers['webhook-id']), 'webhook-timestamp': String(last.headers['webhook-timestamp']), 'webhook-signature': String(last.headers['webhook-signature']),
      });
    } finally {
      await flaky.close();
      await slow.close();
    }
  });
});

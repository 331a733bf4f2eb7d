import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startReceiver, type Receiver } from '../../server/test/webhooks/receiver.ts';
import { SvcError, verifyWebhook } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

describe('verifyWebhook', () => {
  const secret = 'whsec_c2VjcmV0LXNlY3JldA==';
  const body = '{"id":"1","type":"document.created"}';
  const good = 'sha256=' + createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');

  test('accepts the HMAC-SHA256 of the raw body (string, bytes or ArrayBuffer)', async () => {
    assert.equal(await verifyWebhook(secret, body, good), true);
    const bytes = new TextEncoder().encode(body);
    assert.equal(await verifyWebhook(secret, bytes, good), true);
    assert.equal(await verifyWebhook(secret, Buffer.from(body), [good]), true);
    assert.equal(await verifyWebhook(secret, bytes.buffer.slice(0), good.toUpperCase().replace('SHA256=', 'sha256=')), true);
  });

  test('refuses a changed body, another secret, a malformed or missing header', async () => {
    assert.equal(await verifyWebhook(secret, body + ' ', good), false);
    assert.equal(await verifyWebhook(secret + 'x', body, good), false);
    assert.equal(await verifyWebhook(secret, body, good.slice(0, -2)), false);
    assert.equal(await verifyWebhook(secret, body, good.replace('sha256=', 'sha1=')), false);
    assert.equal(await verifyWebhook(secret, body, 'sha256=zz' + good.slice(9)), false);
    assert.equal(await verifyWebhook(secret, body, undefined), false);
    assert.equal(await verifyWebhook(secret, body, null), false);
  });
});

describe('webhooks', () => {
  let f: Fixture;
  let receiver: Receiver;
  before(async () => {
    f = await fixture({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_BASE_MS: '50' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await f.close();
    await receiver.close();
  });

  test('create, a real delivery verified with verifyWebhook, deliveries, rotate, test, update, retry, delete', async () => {
    const svc = f.admin();
    const hook = await svc.webhooks.create({ url: receiver.url, events: ['document.created'], collections: ['orders'], description: 'orders' });
    assert.match(hook.secret, /^whsec_/);
    assert.deepEqual(
      (await svc.webhooks.list()).map((w) => w.id),
      [hook.id],
    );
    const { secret: _s, ...shown } = hook;
    assert.deepEqual(await svc.webhooks.get(hook.id), shown);

    const order = await svc.collection('orders').create({ total: 42 });
    const [delivery] = await receiver.waitFor(1);
    assert.equal(await verifyWebhook(hook.secret, delivery.body, delivery.headers['x-service-signature']), true);
    assert.equal(await verifyWebhook(hook.secret, delivery.body.replace('42', '43'), delivery.headers['x-service-signature']), false);
    const payload = JSON.parse(delivery.body) as { type: string; document: { id: string } };
    assert.equal(payload.type, 'document.created');
    assert.equal(payload.document.id, order.id);

    let list = await svc.webhooks.deliveries(hook.id);
    for (let i = 0; i < 50 && list.deliveries[0]?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      list = await svc.webhooks.deliveries(hook.id);
    }
    assert.equal(list.total, 1);
    assert.equal(list.deliveries[0].status, 'succeeded');
    assert.equal(list.deliveries[0].id, delivery.headers['x-service-delivery']);
    const detail = await svc.webhooks.delivery(hook.id, list.deliveries[0].id);
    assert.equal(detail.attemptLog.length, 1);
    assert.equal(detail.attemptLog[0].responseStatus, 200);
    assert.equal((await svc.webhooks.deliveries(hook.id, { status: 'failed' })).total, 0);

    const rotated = await svc.webhooks.rotateSecret(hook.id);
    assert.notEqual(rotated.secret, hook.secret);
    const test1 = await svc.webhooks.test(hook.id);
    assert.equal(test1.event, 'webhook.test');
    const [, testDelivery] = await receiver.waitFor(2);
    assert.equal(JSON.parse(testDelivery.body).type, 'webhook.test');
    assert.equal(await verifyWebhook(rotated.secret, testDelivery.body, testDelivery.headers['x-service-signature']), true, 'signed with the new secret');
    assert.equal(await verifyWebhook(hook.secret, testDelivery.body, testDelivery.headers['x-service-signature']), false);

    const retried = await svc.webhooks.retry(hook.id, list.deliveries[0].id);
    assert.equal(retried.status, 'pending');
    await receiver.waitFor(3);

    const updated = await svc.webhooks.update(hook.id, { enabled: false, description: null });
    assert.equal(updated.enabled, false);
    assert.equal(updated.description, null);
    await svc.webhooks.delete(hook.id);
    await assert.rejects(svc.webhooks.get(hook.id), (e: unknown) => e instanceof SvcError && e.status === 404 && e.code === 'not_found');
  });

  test('validation errors carry details; a public key is refused', async () => {
    await assert.rejects(
      f.admin().webhooks.create({ url: receiver.url, events: ['nope' as 'document.created'] }),
      (e: unknown) => e instanceof SvcError && e.status === 400 && e.code === 'validation_failed' && Array.isArray(e.details) && e.details.length > 0,
    );
    await assert.rejects(f.browser().webhooks.list(), (e: unknown) => e instanceof SvcError && e.status === 403 && e.code === 'read_only_key');
  });
});

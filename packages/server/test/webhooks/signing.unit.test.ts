import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { newSecret, SECRET_PREFIX, signatureHeaders } from '../../src/webhooks/signing.ts';
import { backoffMs } from '../../src/webhooks/dispatcher.ts';

// Unit tests of the pure pieces of delivery: both signature schemes checked by the receivers'
// own libraries, and the retry schedule.

test('a new secret is whsec_ and 24 random bytes, different every time', () => {
  const a = newSecret();
  assert.ok(a.startsWith(SECRET_PREFIX));
  assert.equal(Buffer.from(a.slice(SECRET_PREFIX.length), 'base64').length, 24);
  assert.notEqual(a, newSecret());
});

test('X-Service-Signature verifies with @octokit/webhooks-methods, and only for the exact body and secret', async () => {
  const secret = newSecret();
  const body = JSON.stringify({ id: '1', type: 'document.created', note: 'ünïcode' });
  const h = signatureHeaders(secret, 'dlv_1', body, 1_700_000_000);
  assert.match(h['x-service-signature'], /^sha256=[0-9a-f]{64}$/);
  assert.equal(await verify(secret, body, h['x-service-signature']), true);
  assert.equal(await verify(secret, `${body} `, h['x-service-signature']), false);
  assert.equal(await verify(newSecret(), body, h['x-service-signature']), false);
});

test('the Standard Webhooks headers verify with the standardwebhooks library', () => {
  const secret = newSecret();
  const body = '{"hello":"world"}';
  const now = Math.floor(Date.now() / 1000);
  const h = signatureHeaders(secret, 'dlv_2', body, now);
  assert.equal(h['webhook-id'], 'dlv_2');
  assert.equal(h['webhook-timestamp'], String(now));
  assert.deepEqual(new Webhook(secret.slice(SECRET_PREFIX.length)).verify(body, h), JSON.parse(body));
  assert.throws(() => new Webhook(secret.slice(SECRET_PREFIX.length)).verify('{"hello":"there"}', h));
});

test('backoff doubles per failed attempt from the base, within ±20 % jitter', () => {
  assert.equal(
    backoffMs(1000, 1, () => 0.5),
    1000,
  );
  assert.equal(
    backoffMs(1000, 2, () => 0.5),
    2000,
  );
  assert.equal(
    backoffMs(1000, 4, () => 0.5),
    8000,
  );
  assert.equal(
    backoffMs(1000, 3, () => 0),
    3200,
    'lowest jitter: 80 %',
  );
  assert.equal(
    backoffMs(1000, 3, () => 1),
    4800,
    'highest jitter: 120 %',
  );
});

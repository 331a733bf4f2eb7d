import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver } from './receiver.ts';
import { UrlGuard, isPublicAddress } from '../../src/webhooks/url-guard.ts';

const WEBHOOK_KEYS = ['collections', 'createdAt', 'description', 'disabledReason', 'enabled', 'events', 'id', 'updatedAt', 'url'];

forEachStore('webhook routes', (kind) => {
  // Default SSRF settings; public-looking URLs that need no DNS.
  const t = useServer(kind, { env: { LIMIT_WEBHOOKS_PER_DATABASE: '3' } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  test('create, read, list, patch, delete with the §4 shapes; the secret only in create and rotate-secret', async () => {
    const created = await api.post<Record<string, unknown>>('/webhooks', { url: 'https://93.184.216.34/hook', description: 'mine' }, 201);
    assert.deepEqual(Object.keys(created).sort(), [...WEBHOOK_KEYS, 'secret'].sort());
    assert.match(String(created.secret), /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.deepEqual(created.events, ['*']);
    assert.deepEqual(created.collections, []);
    assert.equal(created.enabled, true);
    assert.equal(created.disabledReason, null);
    const id = String(created.id);

    const g = await api.request('GET', `/webhooks/${id}`);
    assert.equal(g.status, 200);
    assert.deepEqual(Object.keys(g.json as object).sort(), WEBHOOK_KEYS);
    assert.ok(!g.text.includes(String(created.secret)));
    const l = await api.request('GET', '/webhooks');
    assert.equal(l.status, 200);
    assert.deepEqual(
      (l.json as { webhooks: Array<{ id: string }> }).webhooks.map((w) => w.id),
      [id],
    );
    assert.ok(!l.text.includes(String(created.secret)));

    const patched = await api.patch<Record<string, unknown>>(`/webhooks/${id}`, {
      events: ['document.created'],
      collections: ['posts'],
      description: null,
      enabled: false,
    });
    assert.deepEqual([patched.events, patched.collections, patched.description, patched.enabled], [['document.created'], ['posts'], null, false]);
    assert.ok(String(patched.updatedAt) >= String(created.updatedAt));

    const rotated = await api.post<{ id: string; secret: string }>(`/webhooks/${id}/rotate-secret`, undefined, 200);
    assert.equal(rotated.id, id);
    assert.match(rotated.secret, /^whsec_/);

    await api.delete(`/webhooks/${id}`, 204);
    await api.get(`/webhooks/${id}`, 404);
    await api.delete(`/webhooks/${id}`, 404);
    await api.post(`/webhooks/${id}/rotate-secret`, undefined, 404);
    await api.post(`/webhooks/${id}/test`, undefined, 404);
    await api.get(`/webhooks/${id}/deliveries`, 404);
  });

  test('secret key only: a public key gets 403 read_only_key on every route, no key 401', async () => {
    const paths: Array<[string, string]> = [
      ['GET', '/webhooks'],
      ['POST', '/webhooks'],
      ['GET', '/webhooks/x'],
      ['PATCH', '/webhooks/x'],
      ['DELETE', '/webhooks/x'],
      ['POST', '/webhooks/x/rotate-secret'],
      ['POST', '/webhooks/x/test'],
      ['GET', '/webhooks/x/deliveries'],
      ['GET', '/webhooks/x/deliveries/y'],
      ['POST', '/webhooks/x/deliveries/y/retry'],
    ];
    for (const [method, path] of paths) {
      const body = method === 'POST' && path === '/webhooks' ? { url: 'https://93.184.216.34/' } : method === 'PATCH' ? {} : undefined;
      assertError(await request(t.server, method, path, { key: t.db.publicKey, body }), 403, 'read_only_key', `${method} ${path}`);
      assert.equal((await request(t.server, method, path, { body })).status, 401);
    }
  });

  test('validation: bad events, collections, unknown fields, paging → 400 validation_failed', async () => {
    const bad = [
      {},
      { url: 'https://93.184.216.34/', events: [] },
      { url: 'https://93.184.216.34/', events: ['document.exploded'] },
      { url: 'https://93.184.216.34/', collections: ['1bad'] },
      { url: 'https://93.184.216.34/', secret: 'mine' },
    ];
    for (const body of bad) {
      assertError(await api.request('POST', '/webhooks', { body }), 400, 'validation_failed', JSON.stringify(body));
    }
    const { id } = await api.post<{ id: string }>('/webhooks', { url: 'https://93.184.216.34/' }, 201);
    assert.equal(errorCode(await api.request('PATCH', `/webhooks/${id}`, { body: { enabled: 'yes' } })), 'validation_failed');
    for (const query of [{ limit: 0 }, { offset: -1 }, { status: 'lost' }, { other: 1 }] as Array<Record<string, string | number>>) {
      assert.equal((await api.request('GET', `/webhooks/${id}/deliveries`, { query })).status, 400, JSON.stringify(query));
    }
    await api.delete(`/webhooks/${id}`);
  });

  test('SSRF: non-http(s) and loopback, private, link-local, metadata, multicast, unspecified URLs → 400 url_not_allowed', async () => {
    const refused = [
      'ftp://93.184.216.34/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://10.0.0.5/',
      'http://172.16.3.4/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/',
      'http://224.0.0.1/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://255.255.255.255/',
    ];
    for (const url of refused) {
      assertError(await api.request('POST', '/webhooks', { body: { url } }), 400, 'url_not_allowed', url);
    }
    const { id } = await api.post<{ id: string }>('/webhooks', { url: 'https://93.184.216.34/' }, 201);
    assert.equal(errorCode(await api.request('PATCH', `/webhooks/${id}`, { body: { url: 'http://127.0.0.1/' } })), 'url_not_allowed');
    await api.delete(`/webhooks/${id}`);
  });

  test('SSRF: every IPv6 spelling of a private IPv4 address is refused, and the refusal names the setting that allows it', async () => {
    const table: Array<[string, RegExp]> = [
      ['http://[::127.0.0.1]/', /^::7f00:1 \(127\.0\.0\.1\) is not a public address/],
      ['http://[::7f00:1]:8080/hook', /^::7f00:1 \(127\.0\.0\.1\)/],
      ['http://[::10.0.0.5]/', /^::a00:5 \(10\.0\.0\.5\)/],
      ['http://[::ffff:127.0.0.1]/', /^::ffff:7f00:1 \(127\.0\.0\.1\)/],
      ['http://[0:0:0:0:0:ffff:7f00:1]/', /^::ffff:7f00:1 \(127\.0\.0\.1\)/],
      ['http://[::ffff:a9fe:a9fe]/latest/meta-data/', /^::ffff:a9fe:a9fe \(169\.254\.169\.254\)/],
      ['http://[64:ff9b::127.0.0.1]/', /^64:ff9b::7f00:1 \(127\.0\.0\.1\)/],
      ['http://[64:ff9b::c0a8:101]/', /^64:ff9b::c0a8:101 \(192\.168\.1\.1\)/],
      ['http://[64:ff9b:1::a00:1]/', /^64:ff9b:1::a00:1 is not a public address/],
      ['http://[2002:7f00:1::]/', /^2002:7f00:1:: is not a public address/],
      ['http://0177.0.0.1/', /^127\.0\.0\.1 is not a public address/],
    ];
    for (const [url, message] of table) {
      const r = await api.request('POST', '/webhooks', { body: { url } });
      assertError(r, 400, 'url_not_allowed', url);
      const text = (r.json as { error: { message: string } }).error.message;
      assert.match(text, message, url);
      assert.match(text, /\(set WEBHOOK_ALLOW_PRIVATE_URLS=true to allow private addresses\)$/, url);
    }
    const ok = await api.post<{ id: string }>('/webhooks', { url: 'http://[::ffff:5db8:d822]/' }, 201); // a mapped public address is public
    await api.delete(`/webhooks/${ok.id}`);
  });

  test('SSRF at attempt time: a stored URL that resolves to loopback is refused after DNS, nothing is sent', async () => {
    const rx = await startReceiver();
    try {
      const { id } = await api.post<{ id: string }>('/webhooks', { url: 'https://93.184.216.34/' }, 201);
      // As if DNS had answered a public address at save time and 127.0.0.1 now (rebinding).
      await t.server.db.store.run('UPDATE webhooks SET url = ? WHERE id = ?', [`http://localhost:${rx.port}/hook`, id]);
      const deliveryId = (await api.post<{ delivery: { id: string } }>(`/webhooks/${id}/test`, undefined, 202)).delivery.id;
      const d = await eventually(async () => {
        const r = await api.get<{ attemptLog: Array<{ error: string }> }>(`/webhooks/${id}/deliveries/${deliveryId}`);
        assert.ok(r.attemptLog.length > 0, 'an attempt was made');
        return r;
      });
      assert.match(d.attemptLog[0].error, /^url_not_allowed: localhost resolves to (127\.0\.0\.1|::1)/);
      assert.equal(rx.received.length, 0);
      await api.delete(`/webhooks/${id}`);
    } finally {
      await rx.close();
    }
  });

  test('webhooks per database limit → 409 conflict', async () => {
    const other = apiClient(t.server, (await t.server.createDatabase()).secretKey);
    for (let i = 0; i < 3; i += 1) await other.post('/webhooks', { url: `https://93.184.216.34/${i}` }, 201);
    assertError(await other.request('POST', '/webhooks', { body: { url: 'https://93.184.216.34/4' } }), 409, 'conflict');
  });

  test('the routes are in /v1/openapi.json', async () => {
    const paths = Object.keys((await api.get<{ paths: Record<string, unknown> }>('/openapi.json')).paths);
    for (const p of [
      '/v1/webhooks',
      '/v1/webhooks/{id}',
      '/v1/webhooks/{id}/rotate-secret',
      '/v1/webhooks/{id}/test',
      '/v1/webhooks/{id}/deliveries',
      '/v1/webhooks/{id}/deliveries/{deliveryId}',
      '/v1/webhooks/{id}/deliveries/{deliveryId}/retry',
    ]) {
      assert.ok(paths.includes(p), p);
    }
  });
});

test('url guard: a name that rebinds to a private address between save and attempt is refused at connect time', async () => {
  let answer = '93.184.216.34';
  const guard = new UrlGuard(false, async () => [{ address: answer, family: 4 }]);
  await guard.check('https://rebind.example/hook');
  answer = '10.1.2.3';
  const got = await new Promise<Error | null>((resolve) => guard.lookup!('rebind.example', { all: true }, (e) => resolve(e)));
  assert.match(String(got?.message), /rebind\.example resolves to 10\.1\.2\.3/);
  await assert.rejects(guard.check('https://rebind.example/hook'), /not a public address/);
  assert.equal(isPublicAddress('8.8.8.8'), true);
  assert.equal(isPublicAddress('2606:4700:4700::1111'), true);
  for (const a of [
    '127.0.0.1',
    '::1',
    '10.0.0.1',
    '169.254.169.254',
    '::ffff:10.0.0.1',
    'fc00::1',
    '0.0.0.0',
    'ff02::1',
    '100.64.0.1',
    '64:ff9b::a00:1',
    '::7f00:1',
    '::a00:1',
    '::8.8.8.8',
  ]) {
    assert.equal(isPublicAddress(a), false, a);
  }
  const open = new UrlGuard(true);
  await open.check('http://127.0.0.1:1/');
  assert.equal(open.lookup, undefined);
  await assert.rejects(open.check('ftp://127.0.0.1/'), /Only http and https/);
});

// /metrics is safe by default: without METRICS_TOKEN it answers only this machine
// (a loopback peer naming no forwarded client); from anywhere else it is a 403 saying to set the
// token; with the token, a Bearer token is needed from everywhere (operations.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { forEachStore } from '../helpers/stores.ts';
import { request, startServer, useServer, type TestServer } from '../helpers/server.ts';
import { assertError } from '../helpers/api.ts';

/** An address of this machine that is not loopback (a container's or host's own interface), if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

/**
 * The app also served on `address` (a second listener handing its requests to the app's own
 * handler): a request to it arrives with that non-loopback address as its TCP peer.
 */
async function alsoOn(server: TestServer, address: string) {
  const listener = http.createServer((req, res) => server.app.server.emit('request', req, res));
  await new Promise<void>((r) => listener.listen(0, address, r));
  const url = `http://${address}:${(listener.address() as AddressInfo).port}`;
  return { target: { url, base: `${url}/v1` }, close: () => new Promise<void>((r) => listener.close(() => r())) };
}

forEachStore('/metrics without METRICS_TOKEN', (kind) => {
  const t = useServer(kind);

  test('from loopback: open', async () => {
    const r = await request(t.server, 'GET', '/metrics', { root: true });
    assert.equal(r.status, 200);
    assert.match(r.text, /^# TYPE svc_http_requests_total counter/m);
  });

  test('through a proxy on this machine (a forwarded client named): 403 forbidden, saying to set METRICS_TOKEN', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const r = await request(t.server, 'GET', '/metrics', { root: true, headers: { [header]: header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9' } });
      assertError(r, 403, 'forbidden', header);
      assert.match((r.json as { error: { message: string } }).error.message, /METRICS_TOKEN/);
      assert.ok(!r.text.includes('svc_http_requests_total'));
    }
    // Other routes do not care.
    assert.equal((await request(t.server, 'GET', '/health', { root: true, headers: { 'x-forwarded-for': '203.0.113.9' } })).status, 200);
  });

  test('from another address of this machine: 403 without the token; with METRICS_TOKEN, the Bearer token gets in', async () => {
    assert.ok(outside, 'this machine has a non-loopback IPv4 address (a container has its own interface)');
    const plain = await alsoOn(t.server, outside!);
    const guarded = await startServer(kind, { env: { METRICS_TOKEN: 'metrics-token-0123456789abcdef' } });
    const guardedOutside = await alsoOn(guarded, outside!);
    try {
      assertError(await request(plain.target, 'GET', '/metrics', { root: true }), 403, 'forbidden');
      assertError(await request(guardedOutside.target, 'GET', '/metrics', { root: true }), 401, 'invalid_token');
      const ok = await request(guardedOutside.target, 'GET', '/metrics', { root: true, headers: { authorization: 'Bearer metrics-token-0123456789abcdef' } });
      assert.equal(ok.status, 200);
    } finally {
      await plain.close();
      await guardedOutside.close();
      await guarded.close();
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, type ApiClient } from '../helpers/api.ts';
import { openWs } from '../helpers/ws.ts';

/**
 * A WebSocket client that completes the handshake and then does nothing at all: it never
 * answers pings and, once paused, never reads. What a dead or stalled client looks like.
 */
async function rawUpgrade(url: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const u = new URL(url);
  const socket = connect(Number(u.port), u.hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
  });
  socket.on('error', () => undefined);
  socket.write(
    `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  const head = await new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString())));
  assert.match(head, /^HTTP\/1\.1 101/);
  return { socket, closed };
}

forEachStore('realtime liveness', (kind) => {
  const t = useServer(kind, { env: { REALTIME_HEARTBEAT_MS: '200' } });
  // Heartbeats of 200 ms would drop the stalled reader before its buffer fills: a server of its own.
  const slow = useServer(kind, { env: { REALTIME_MAX_BUFFER_BYTES: '65536' } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const slowApi = apiClient(
    () => slow.server,
    () => slow.db.secretKey,
  );

  const tokenUrl = async (collections: string[], client: ApiClient = api) => (await client.post<{ url: string }>('/realtime/token', { collections }, 201)).url;

  test('heartbeat: a client that never answers pings is dropped; one that does stays', async () => {
    const url = await tokenUrl(['beat']);
    const dead = await rawUpgrade(url);
    const healthy = await openWs(url); // the ws library answers pings by itself
    await dead.closed; // the server terminates it after a missed pong (~2 heartbeats)
    await sleep(600);
    assert.equal(healthy.ws.readyState, healthy.ws.OPEN, 'a live client is kept');
    await healthy.close();
  });

  test('backpressure: a stalled reader is closed with 4008 past the buffer limit, and resumes with after', async () => {
    const url = await tokenUrl(['flood'], slowApi);
    const watcher = await openWs(url);
    const [ready] = await watcher.waitFor((m) => m.type === 'ready');
    assert.ok(ready);
    const stalled = await openWs(url);
    await stalled.waitFor((m) => m.type === 'ready');
    // Stop reading: the kernel buffers fill, then the server's per-socket buffer grows.
    (stalled.ws as unknown as { _socket: Socket })._socket.pause();
    const big = 'x'.repeat(200 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      ids.push((await slowApi.post<{ id: string }>('/flood/docs', { i, big }, 201)).id);
    }
    (stalled.ws as unknown as { _socket: Socket })._socket.resume();
    const { code } = await stalled.closed;
    assert.equal(code, 4008, `closed as a slow consumer (got ${code})`);
    const got = stalled.events();
    const lastId = got.length ? got[got.length - 1].id : '0';
    const resumed = await openWs(`${url}&after=${lastId}`);
    await resumed.waitFor((m) => m.type === 'event', 60 - got.length, 20_000);
    const all = [...got, ...resumed.events()].map((e) => e.document.id);
    assert.deepEqual(all, ids, 'after resuming the client has every event once, in order');
    await watcher.waitFor((m) => m.type === 'event', 60, 20_000);
    await resumed.close();
    await watcher.close();
  });
});

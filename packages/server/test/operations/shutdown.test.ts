import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { OPERATOR } from '../helpers/server.ts';
import { startProcess } from '../helpers/process.ts';
import { apiClient } from '../helpers/api.ts';
import { watch } from '../realtime/watch.ts';
import { startReceiver } from '../webhooks/receiver.ts';

/** How long a SIGTERM may take, whatever is running (operations.md). */
const SHUTDOWN_MS = 10_000;

/** A raw connection that sent a request's headers and half its body, and sends nothing more. */
async function halfSentRequest(port: number, path: string, key: string): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  const body = JSON.stringify({ text: 'x'.repeat(1000) });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 500)}`,
  );
  return socket;
}

/**
 * A graceful shutdown ends within 10 s whatever is running: webhook attempts hanging on their
 * receivers (with a time-out far longer), open WebSockets, a request whose body never finishes,
 * an idle kept-alive connection. A real server process, as `npm start` runs it.
 */
forEachStore('graceful shutdown', (kind) => {
  test('SIGTERM with hanging webhook attempts, open sockets and an unfinished request: the process exits 0 within 10 s', { timeout: 60_000 }, async () => {
    const db = await openTestStore(kind);
    const hanging = await startReceiver(() => 'hang');
    const proc = await startProcess({ DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '300000' });
    const sockets: net.Socket[] = [];
    try {
      const { token } = await apiClient(proc).post<{ token: string }>('/admin/sign-in', OPERATOR, 200);
      const created = await apiClient(proc, token).post<{ key: { key: string } }>('/admin/databases', { name: 'shutdown' }, 201);
      const api = apiClient(proc, created.key.key);
      await api.post('/webhooks', { url: hanging.url }, 201);
      for (let i = 0; i < 3; i++) await api.post('/posts/docs', { i }, 201);
      await hanging.waitFor(3);
      const { url } = await api.post<{ url: string }>('/realtime/token', { collections: ['posts'] }, 201);
      const ws = await watch(url);
      sockets.push(await halfSentRequest(proc.port, '/v1/posts/docs', created.key.key));
      // An idle kept-alive connection: one request answered, the connection left open.
      const idle = net.connect(proc.port, '127.0.0.1');
      idle.on('error', () => undefined);
      sockets.push(idle);
      idle.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
      await new Promise<void>((resolve) => idle.once('data', () => resolve()));

      const started = performance.now();
      const code = await proc.kill('SIGTERM');
      const took = performance.now() - started;
      assert.equal(code, 0, `a graceful exit, not the forced one:\n${proc.output().slice(-3000)}`);
      assert.ok(took < SHUTDOWN_MS, `exited in ${Math.round(took)} ms`);
      const closed = await ws.closed;
      assert.ok(closed.code !== undefined);
    } finally {
      for (const s of sockets) s.destroy();
      await proc.kill('SIGKILL');
      await hanging.close();
      await db.drop();
    }
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { request } from '../helpers/server.ts';
import { eventually, startReceiver } from './receiver.ts';

const serverDir = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN = { email: 'crash@svc.test', password: 'crash-test-password-1' };

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The real server (`node --import tsx src/main.ts`) as a child process, ready when /ready answers. */
async function spawnServer(databaseUrl: string, port: number): Promise<{ child: ChildProcess; base: { url: string; base: string }; log: () => string }> {
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
      SVC_ADMIN_EMAIL: ADMIN.email, SVC_ADMIN_PASSWORD: ADMIN.password, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RETRY_BASE_MS: '200', RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (c) => { log += c; });
  child.stderr!.on('data', (c) => { log += c; });
  const base = { url: `http://127.0.0.1:${port}`, base: `http://127.0.0.1:${port}/v1` };
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`server exited: ${log}`);
    return (await request(base, 'GET', '/ready', { root: true }).catch(() => ({ status: 0 }))).status === 200;
  }, 30_000, 'the server to start');
  return { child, base, log: () => log };
}

forEachStore('webhook crash', (kind) => {
  test('SIGKILL while 200 deliveries are pending: after a restart every event reaches the receiver', { timeout: 90_000 }, async () => {
    const db = await openTestStore(kind);
    const rx = await startReceiver(() => ({ status: 200, delayMs: 150 }));
    const port = await freePort();
    let first: Awaited<ReturnType<typeof spawnServer>> | undefined;
    let second: Awaited<ReturnType<typeof spawnServer>> | undefined;
    try {
      first = await spawnServer(db.url, port);
      const signIn = await request(first.base, 'POST', '/admin/sign-in', { body: ADMIN });
      const op = (signIn.json as { token: string }).token;
      const created = await request(first.base, 'POST', '/admin/databases', { key: op, body: { name: 'crash' } });
      const key = (created.json as { key: { key: string } }).key.key;
      const h = await request(first.base, 'POST', '/webhooks', { key, body: { url: rx.url } });
      assert.equal(h.status, 201, h.text);
      const bulk = await request(first.base, 'POST', '/posts/bulk', { key, body: { documents: Array.from({ length: 200 }, (_, i) => ({ i })) } });
      assert.equal(bulk.status, 201);
      await rx.waitFor(20, 20_000);
      first.child.kill('SIGKILL');
      await new Promise((r) => first!.child.once('exit', r));
      const before = new Set(rx.received.map((r) => JSON.parse(r.body).id)).size;
      assert.ok(before < 200, `killed with deliveries pending (${before} of 200 events arrived)`);
      const pending = await db.store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'");
      assert.ok(Number(pending!.n) > 0);

      second = await spawnServer(db.url, port);
      await eventually(async () => new Set(rx.received.map((r) => JSON.parse(r.body).id)).size === 200, 60_000, 'every event after the restart');
      const events = new Set(rx.received.map((r) => JSON.parse(r.body).id));
      assert.deepEqual([...events].map(Number).sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 1));
      await eventually(async () => Number((await db.store.get<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'"))!.n) === 200,
        20_000, 'every delivery succeeded');
      second.child.kill('SIGTERM');
      const [code] = await new Promise<[number | null]>((r) => second!.child.once('exit', (c) => r([c])));
      assert.equal(code, 0, `a clean shutdown: ${second.log()}`);
    } finally {
      first?.child.kill('SIGKILL');
      second?.child.kill('SIGTERM');
      if (second && second.child.exitCode === null) await new Promise((r) => second!.child.once('exit', r));
      await rx.close();
      await db.drop();
    }
  });
});

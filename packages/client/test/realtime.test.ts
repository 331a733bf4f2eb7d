import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, type ServerProcess } from '../../server/test/helpers/process.ts';
import { freePort, OPERATOR } from '../../server/test/helpers/server.ts';
import { ManualClock } from '../../server/src/infra/clock.ts';
import { createClient, MemorySessionStore, SvcError, type RealtimeEvent, type RealtimeState } from '../src/index.ts';
import { fixture, killableWebSocket, until, type Fixture } from './helpers.ts';

/** Asserts each event id arrives once, in increasing order. */
function assertOnceInOrder(events: RealtimeEvent[]): void {
  const ids = events.map((e) => BigInt(e.id));
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i] > ids[i - 1], `event ${ids[i]} after ${ids[i - 1]}: duplicate or out of order`);
}

const fast = { reconnectInitialMs: 50, reconnectMaxMs: 500 };

describe('realtime', () => {
  let f: Fixture;
  const clock = new ManualClock();
  before(async () => {
    f = await fixture({ clock });
  });
  after(async () => {
    await f.close();
  });

  test('the socket is killed again and again while writes continue: every event arrives exactly once, in order', async () => {
    const ws = killableWebSocket();
    const client = f.admin({ WebSocket: ws.WebSocket, realtime: fast });
    const received: RealtimeEvent<{ n: number }>[] = [];
    const states: RealtimeState[] = [];
    const unsubscribe = client.realtime.subscribe<{ n: number }>(['posts'], (e) => received.push(e), { onState: (s) => states.push(s) });
    await until(() => states.includes('open'), 5000, 'open');

    const posts = client.collection<{ n: number }>('posts');
    const other = client.collection('other');
    const firstId = f.server.changes.length;
    let writing = true;
    const writer = (async () => {
      for (let n = 0; n < 300; n++) {
        const d = await posts.create({ n });
        if (n % 3 === 0) await posts.update(d.id, { n: n + 1000 });
        if (n % 10 === 0) await posts.delete(d.id);
        if (n % 7 === 0) await other.create({ n });
        if (n % 25 === 0) await new Promise((r) => setTimeout(r, 5));
      }
      writing = false;
    })();
    let kills = 0;
    while (writing) {
      await new Promise((r) => setTimeout(r, 40 + Math.random() * 60));
      if (writing && states.at(-1) === 'open') {
        ws.kill();
        kills++;
      }
    }
    await writer;
    const expected = f.server.changes.slice(firstId).filter((c) => c.collection === 'posts');
    await until(() => received.length >= expected.length, 10_000, `${expected.length} events (have ${received.length})`);
    await new Promise((r) => setTimeout(r, 200)); // nothing more may come
    unsubscribe();

    assert.ok(kills >= 3, `killed ${kills} times`);
    assert.ok(ws.sockets.length >= kills + 1, 'reconnected after every kill');
    assertOnceInOrder(received);
    assert.deepEqual(
      received.map((e) => e.id),
      expected.map((c) => c.id),
      'exactly the committed events of posts',
    );
    assert.deepEqual(
      received.map((e) => e.event),
      expected.map((c) => c.type),
    );
    assert.ok(received.every((e) => e.collection === 'posts' && typeof e.document.id === 'string'));
    assert.equal(states[0], 'connecting');
    assert.ok(states.filter((s) => s === 'reconnecting').length >= kills - 1);
    assert.equal(states.at(-1), 'closed');
  });

  test('an expired token is renewed on reconnect', async () => {
    const ws = killableWebSocket();
    let tokenRequests = 0;
    const countingFetch = (url: string, init: RequestInit) => {
      if (url.endsWith('/realtime/token')) tokenRequests++;
      return fetch(url, init);
    };
    const client = f.admin({ WebSocket: ws.WebSocket, realtime: fast, fetch: countingFetch });
    const received: RealtimeEvent[] = [];
    const states: RealtimeState[] = [];
    const unsubscribe = client.realtime.subscribe(['renew'], (e) => received.push(e), { onState: (s) => states.push(s) });
    await until(() => states.includes('open'), 5000, 'open');
    await client.collection('renew').create({ before: true });
    await until(() => received.length === 1);

    clock.advance(2 * 3600_000); // the server now sees the token as expired
    ws.kill();
    await client.collection('renew').create({ during: true });
    await until(() => states.filter((s) => s === 'open').length === 2, 10_000, 'reopened');
    await client.collection('renew').create({ after: true });
    await until(() => received.length === 3, 5000, 'three events');
    unsubscribe();
    assert.equal(tokenRequests, 2, 'one token at first, one after the refusal');
    assert.ok(ws.sockets.length >= 3, 'the old token was refused once, then a new one worked');
    assertOnceInOrder(received);
  });

  test('reset: an unknown resume point is reported and the feed goes on live', async () => {
    const client = f.admin({ realtime: fast });
    const received: RealtimeEvent[] = [];
    const resets: string[] = [];
    let open = false;
    const unsubscribe = client.realtime.subscribe(['resets'], (e) => received.push(e), {
      after: '999999999',
      onReset: (r) => resets.push(r),
      onState: (s) => {
        open ||= s === 'open';
      },
    });
    await until(() => open && resets.length === 1, 5000, 'reset');
    await client.collection('resets').create({ x: 1 });
    await until(() => received.length === 1);
    unsubscribe();
  });

  test('a bad key is fatal: state closed with the API error; unsubscribe stops delivery', async () => {
    const bad = createClient({ url: f.server.url, key: 'svc_sk_' + 'y'.repeat(40), sessionStore: new MemorySessionStore() });
    let final: { state: RealtimeState; error?: unknown } | undefined;
    bad.realtime.subscribe(['x'], () => undefined, {
      onState: (state, info) => {
        final = { state, error: info.error };
      },
    });
    await until(() => final?.state === 'closed', 5000, 'closed');
    assert.ok(final?.error instanceof SvcError && final.error.code === 'invalid_api_key');

    const client = f.admin();
    const got: RealtimeEvent[] = [];
    let open = false;
    const unsubscribe = client.realtime.subscribe(['quiet'], (e) => got.push(e), {
      onState: (s) => {
        open ||= s === 'open';
      },
    });
    await until(() => open);
    unsubscribe();
    await client.collection('quiet').create({ x: 1 });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(got.length, 0);
  });

  test('a public key subscribes too (browsers)', async () => {
    const client = f.browser();
    const got: RealtimeEvent[] = [];
    const unsubscribe = client.realtime.subscribe(['pub'], (e) => got.push(e));
    await new Promise((r) => setTimeout(r, 300));
    await f.admin().collection('pub').create({ hello: 'world' });
    await until(() => got.length === 1);
    assert.equal(got[0].document.hello, 'world');
    unsubscribe();
  });
});

describe('realtime across a server crash', () => {
  let dir: string;
  let proc: ServerProcess | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-client-crash-'));
  });
  after(async () => {
    await proc?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('SIGKILL and restart of the server process while writes continue: every event exactly once', async () => {
    const port = await freePort();
    const env = { DATABASE_URL: `sqlite:${join(dir, 'svc.db')}` };
    proc = await startProcess(env, port);
    const op = (await (
      await fetch(`${proc.base}/admin/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(OPERATOR) })
    ).json()) as { token: string };
    const created = (await (
      await fetch(`${proc.base}/admin/databases`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${op.token}` },
        body: JSON.stringify({ name: 'crash' }),
      })
    ).json()) as { key: { key: string } };

    const client = createClient({
      url: proc.url,
      key: created.key.key,
      sessionStore: new MemorySessionStore(),
      realtime: { reconnectInitialMs: 100, reconnectMaxMs: 1000 },
      retry: { maxRetries: 0 },
    });
    const received: RealtimeEvent<{ n: number }>[] = [];
    const states: RealtimeState[] = [];
    const unsubscribe = client.realtime.subscribe<{ n: number }>(['items'], (e) => received.push(e), { onState: (s) => states.push(s) });
    await until(() => states.includes('open'), 10_000, 'open');

    // Own ids make a retried write idempotent: a 409 means the first try committed before the crash.
    const items = client.collection<{ n: number }>('items');
    const TOTAL = 150;
    const write = async (n: number) => {
      for (;;) {
        try {
          await items.create({ id: `item-${n}`, n });
          return;
        } catch (e) {
          if (e instanceof SvcError && e.code === 'conflict') return;
          if (!(e instanceof SvcError && (e.isNetworkError || e.status >= 500))) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    const writer = (async () => {
      for (let n = 0; n < TOTAL; n++) await write(n);
    })();
    await until(() => received.length >= 40, 10_000, 'some events before the crash');
    await proc.kill('SIGKILL');
    await until(() => states.at(-1) === 'reconnecting', 5000, 'reconnecting');
    proc = await startProcess(env, port);
    await writer;
    await until(() => received.length >= TOTAL, 20_000, `${TOTAL} events (have ${received.length})`);
    await new Promise((r) => setTimeout(r, 300));
    unsubscribe();

    assertOnceInOrder(received);
    assert.deepEqual(
      received.map((e) => e.document.id),
      Array.from({ length: TOTAL }, (_, n) => `item-${n}`),
    );
    assert.ok(received.every((e) => e.event === 'document.created'));
    assert.ok(states.filter((s) => s === 'open').length >= 2, 'reconnected to the new process');
  });
});

describe('realtime: slow consumer', () => {
  let f: Fixture;
  before(async () => {
    f = await fixture({ env: { REALTIME_MAX_BUFFER_BYTES: '65536' } });
  });
  after(async () => {
    await f.close();
  });

  test('closed with 4008 while it stalls, it resumes with after and misses nothing', async () => {
    const ws = killableWebSocket();
    const client = f.admin({ WebSocket: ws.WebSocket, realtime: fast });
    const received: RealtimeEvent<{ i: number }>[] = [];
    const drops: string[] = [];
    let opens = 0;
    const unsubscribe = client.realtime.subscribe<{ i: number }>(['flood'], (e) => received.push(e), {
      onState: (s, info) => {
        if (s === 'open') opens++;
        if (s === 'reconnecting') drops.push(String((info.error as Error)?.message));
      },
    });
    await until(() => opens === 1, 5000, 'open');
    // Stop reading: the kernel buffers fill, then the server's buffer passes the limit.
    const socket = (ws.sockets[0] as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    const big = 'x'.repeat(200 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await client.collection('flood').create({ i, big })).id);
    socket.resume();
    await until(() => received.length >= 60, 20_000, `60 events (have ${received.length})`);
    await new Promise((r) => setTimeout(r, 200));
    unsubscribe();
    assert.ok(
      drops.some((m) => m.includes('4008')),
      `dropped as a slow consumer: ${drops.join('; ')}`,
    );
    assert.ok(opens >= 2, 'reconnected');
    assertOnceInOrder(received);
    assert.deepEqual(
      received.map((e) => e.document.id),
      ids,
    );
  });
});

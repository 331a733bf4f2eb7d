import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { SvcError } from '../src/index.ts';
import { fixture, forward, listenLocal, type Fixture } from './helpers.ts';

/**
 * A real HTTP proxy in front of the real server whose behaviour the test steers: answer 429 for
 * the next `throttle` requests, or hold answers for `delayMs`.
 */
async function startProxy(target: string) {
  const ctl = { throttle: 0, retryAfter: 1, delayMs: 0, seen: [] as number[] };
  const server = http.createServer((req, res) => {
    ctl.seen.push(Date.now());
    if (ctl.throttle > 0) {
      ctl.throttle--;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(ctl.retryAfter) });
      res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests' }, retryAfter: ctl.retryAfter }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => setTimeout(() => void forward(target, req, chunks, res), ctl.delayMs));
  });
  return { ...(await listenLocal(server)), ctl };
}

describe('http: 429 retries, aborts', () => {
  let f: Fixture;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  before(async () => {
    f = await fixture();
    proxy = await startProxy(f.server.url);
  });
  after(async () => {
    await proxy.close();
    await f.close();
  });

  test('a 429 is retried after retryAfter, up to the bound', async () => {
    const posts = f.admin({ url: proxy.url }).collection('posts');
    proxy.ctl.throttle = 2;
    proxy.ctl.seen.length = 0;
    const doc = await posts.create({ title: 'eventually' });
    assert.equal(doc.title, 'eventually');
    assert.equal(proxy.ctl.seen.length, 3);
    assert.ok(proxy.ctl.seen[1] - proxy.ctl.seen[0] >= 950, 'waited retryAfter before retrying');
    assert.equal((await f.admin().collection('posts').list()).total, 1, 'the write happened once');

    proxy.ctl.throttle = 3;
    const once = f.admin({ url: proxy.url, retry: { maxRetries: 1 } }).collection('posts');
    await assert.rejects(once.list(), (e: unknown) => e instanceof SvcError && e.status === 429 && e.code === 'rate_limited' && e.retryAfter === 1);
    proxy.ctl.throttle = 0;
  });

  test("the real server's 429: code, retryAfter, and no wait when retryAfter is over the bound", async () => {
    const limited = await fixture({ env: { RATE_LIMIT_PER_KEY: '3' } });
    try {
      const c = limited.admin({ retry: { maxRetryAfterSeconds: 5 } }).collection('x');
      for (let i = 0; i < 3; i++) await c.list();
      const t0 = Date.now();
      await assert.rejects(
        c.list(),
        (e: unknown) => e instanceof SvcError && e.status === 429 && e.code === 'rate_limited' && typeof e.retryAfter === 'number' && e.retryAfter > 0,
      );
      assert.ok(Date.now() - t0 < 1000, 'thrown at once: the wait is over the bound');
    } finally {
      await limited.close();
    }
  });

  test('abort: in flight, during a 429 wait, and before sending', async () => {
    const posts = f.admin({ url: proxy.url }).collection('posts');
    proxy.ctl.delayMs = 2000;
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(posts.list({}, { signal: ac.signal }), (e: unknown) => e instanceof SvcError && e.isAbort && e.status === 0 && !e.isNetworkError);
    assert.ok(Date.now() - t0 < 1500);
    proxy.ctl.delayMs = 0;

    proxy.ctl.throttle = 1;
    proxy.ctl.retryAfter = 30;
    const during = new AbortController();
    setTimeout(() => during.abort(), 100);
    const t1 = Date.now();
    await assert.rejects(posts.list({}, { signal: during.signal }), (e: unknown) => e instanceof SvcError && e.isAbort);
    assert.ok(Date.now() - t1 < 1500, 'the 429 wait is abortable');
    proxy.ctl.retryAfter = 1;

    await assert.rejects(posts.get('x', { signal: AbortSignal.abort() }), (e: unknown) => e instanceof SvcError && e.isAbort);
  });
});

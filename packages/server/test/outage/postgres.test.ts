import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, PG_ADMIN_URL, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { eventually } from '../helpers/eventually.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { openStore } from '../../src/store/open-store.ts';
import { FeedHub } from '../../src/realtime/feed.ts';
import type { Store } from '../../src/store/store.ts';
import { assertOutageAnswers, call, outageWait, sleep, Writers, type WriteOutcome } from './outage-helpers.ts';

const missing = await missingServices({ postgres: true });

/** Short store time-outs, so a frozen PostgreSQL costs each request about two seconds, not nine. */
const TIMEOUTS = { connectMs: 1000, statementMs: 1500 };

/**
 * API.md §0/§11 with PostgreSQL going away under a running svc: svc talks to it through a TCP
 * proxy that is stopped (connections cut and refused) or frozen (accepted, nothing forwarded),
 * while clients keep writing. Requests answer 503 `unavailable` (never hang), /ready turns 503
 * and back, svc recovers without a restart, every acknowledged write is there afterwards and no
 * write answered 503 is; the webhook dispatcher resumes and delivers every acknowledged write.
 */
describe('PostgreSQL outage', { skip: missing }, () => {
  let db: TestStore;
  let proxy: TcpProxy;
  let proxied: Store;
  let receiver: Receiver;
  before(async () => {
    db = await postgresTestStore();
    const pgUrl = new URL(PG_ADMIN_URL);
    proxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    proxied = await openStore(proxy.url(db.url), TIMEOUTS);
    receiver = await startReceiver();
  });
  // On the store behind the proxy; closed before the store, the proxy and the database below go.
  const t = useServer('postgres', () => ({
    db: { ...db, store: proxied },
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_BASE_MS: '200' },
  }));
  before(async () => {
    const hook = await call(`${t.server.base}/webhooks`, { method: 'POST', key: t.db.secretKey, body: { url: receiver.url } });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await proxied?.close();
    await proxy?.close();
    await receiver?.close();
    await db?.drop();
  });

  const docsUrl = (collection: string) => `${t.server.base}/${collection}/docs`;
  const ready = () => call(`${t.server.url}/ready`);
  /** /ready once it answers `status`. */
  const readyWith = (status: number) =>
    eventually(
      async () => {
        const r = await ready();
        assert.equal(r.status, status);
        return r;
      },
      outageWait(`/ready ${status}`),
    );

  /** After an outage: every 201 is stored (read through svc), no 503 is, and each stored one reaches the webhook. */
  async function assertWritesKept(collection: string, outcomes: WriteOutcome[]): Promise<string> {
    assertOutageAnswers(outcomes);
    const stored = new Map<number, string>();
    for (let offset = 0; ; offset += 1000) {
      const page = await call(`${docsUrl(collection)}?limit=1000&offset=${offset}`, { key: t.db.secretKey });
      assert.equal(page.status, 200);
      for (const d of page.json!.documents as Array<{ id: string; n: number }>) stored.set(d.n, d.id);
      if (page.json!.documents.length < 1000) break;
    }
    for (const o of outcomes.filter((x) => x.status === 201)) assert.equal(stored.get(o.n), o.id, `acknowledged write ${o.n} is stored`);
    for (const o of outcomes.filter((x) => x.code === 'unavailable'))
      assert.equal(stored.has(o.n), false, `write ${o.n} answered 503 unavailable was not committed`);
    const delivered = () =>
      new Set(
        receiver.received
          .map((r) => JSON.parse(r.body))
          .filter((e) => e.collection === collection)
          .map((e) => e.document.n),
      );
    await eventually(() => outcomes.every((o) => o.status !== 201 || delivered().has(o.n)), outageWait('a webhook delivery of every acknowledged write'));
    const count = (status: number) => outcomes.filter((o) => o.status === status).length;
    const unknown = outcomes.filter((o) => o.code === 'commit_unknown').length;
    return `writes: ${count(201)} × 201, ${count(503) - unknown} × 503 unavailable, ${unknown} × 503 commit_unknown`;
  }

  test('stopped: 503 unavailable with Retry-After, /ready 503, then back on its own; acknowledged writes kept', async (ctx) => {
    assert.equal((await ready()).status, 200);
    const writers = new Writers(docsUrl('stopped'), t.db.secretKey);
    try {
      await eventually(() => writers.with(201).length >= 5, outageWait('a first acknowledged write'));

      const stoppedAt = Date.now();
      await proxy.stop();
      const first503 = await eventually(() => writers.with(503, stoppedAt)[0] ?? false, outageWait('a 503'));
      ctx.diagnostic(`first 503 ${first503.at - stoppedAt} ms after PostgreSQL went away`);
      const r = await readyWith(503);
      assert.equal(r.json!.status, 'unavailable');
      assert.equal(r.json!.store, 'down');
      assert.equal(r.json!.error.code, 'unavailable');
      const read = await call(docsUrl('stopped'), { key: t.db.secretKey });
      assert.equal(read.status, 503, 'reads too');
      assert.equal(read.json!.error.code, 'unavailable');
      assert.equal(read.headers.get('retry-after'), '5');
      await sleep(2000);

      const restartedAt = Date.now();
      await proxy.start();
      await readyWith(200);
      ctx.diagnostic(`/ready 200 again ${Date.now() - restartedAt} ms after PostgreSQL came back`);
      const back = await eventually(() => writers.with(201, restartedAt)[0] ?? false, outageWait('an acknowledged write after the outage'));
      ctx.diagnostic(`first 201 ${back.at - restartedAt} ms after PostgreSQL came back`);
      await eventually(() => writers.with(201, restartedAt).length >= 5, outageWait('a few more'));
    } finally {
      await writers.stop();
    }
    assert.ok(writers.with(503).length > 0);
    ctx.diagnostic(await assertWritesKept('stopped', writers.outcomes));
  });

  test('frozen (accepts, answers nothing): requests still end with 503 instead of hanging, and recover after', async (ctx) => {
    const writers = new Writers(docsUrl('frozen'), t.db.secretKey);
    try {
      await eventually(() => writers.with(201).length >= 5, outageWait('a first acknowledged write'));

      const frozenAt = Date.now();
      proxy.freeze();
      const first503 = await eventually(() => writers.with(503, frozenAt)[0] ?? false, outageWait('a 503'));
      ctx.diagnostic(`first 503 ${first503.at - frozenAt} ms after PostgreSQL froze`);
      const r = await readyWith(503);
      assert.equal(r.json!.store, 'down');
      // A few more rounds of frozen requests: each ends (Writers fails the test on a hang).
      await eventually(() => writers.with(503, frozenAt).length >= 6, outageWait('more 503s'));

      const thawedAt = Date.now();
      proxy.thaw();
      await readyWith(200);
      const back = await eventually(() => writers.with(201, thawedAt)[0] ?? false, outageWait('an acknowledged write after the freeze'));
      ctx.diagnostic(`first 201 ${back.at - thawedAt} ms after PostgreSQL thawed`);
    } finally {
      await writers.stop();
    }
    ctx.diagnostic(await assertWritesKept('frozen', writers.outcomes));
  });

  test("realtime: a subscription that failed during the outage doesn't break the database's feed afterwards", async () => {
    const hub = new FeedHub(proxied);
    try {
      await proxy.stop();
      await assert.rejects(hub.subscribe(t.db.databaseId, { deliver: () => undefined }));
      await proxy.start();
      const delivered: string[] = [];
      const { unsubscribe } = await hub.subscribe(t.db.databaseId, { deliver: (e) => delivered.push(e.id) });
      const w = await call(docsUrl('feed'), { method: 'POST', key: t.db.secretKey, body: { n: 1 } });
      assert.equal(w.status, 201);
      await hub.pollAll();
      assert.equal(delivered.length, 1, 'the feed reads the change log again');
      unsubscribe();
    } finally {
      hub.close();
      await proxy.start();
    }
  });
});

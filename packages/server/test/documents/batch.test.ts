import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { openWs } from '../helpers/ws.ts';

type Doc = { id: string; [k: string]: unknown };
type Results = { results: Array<{ status: number; document?: Doc; version?: string }> };
type Failure = { error: { code: string; details: Array<{ path: string; message: string; version?: string }> } };

/** POST /batch (API.md §1.2). */
forEachStore('batch', (kind) => {
  const t = useServer(kind, { env: { LIMIT_BATCH_OPERATIONS: '5', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const pub = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  const batch = (operations: unknown[], client = api, opts = {}) => client.request('POST', '/batch', { body: { operations }, ...opts });

  test('create, update, delete and check in order, across collections; later operations see earlier ones; consecutive event ids', async () => {
    await api.post('/webhooks', { url: receiver.url }, 201);
    const stock = await api.post<Doc>('/stock/docs', { id: 'sku-1', left: 3 }, 201);
    const old = await api.post<Doc>('/carts/docs', { id: 'cart-1' }, 201);
    const stockTag = (await api.request('GET', '/stock/docs/sku-1')).headers.get('etag')!.replace(/"/g, '');
    const before = t.server.changes.length;
    const r = await batch([
      { op: 'check', collection: 'stock', id: stock.id, ifMatch: stockTag },
      { op: 'create', collection: 'orders', document: { id: 'o-1', qty: 1 } },
      { op: 'update', collection: 'orders', id: 'o-1', patch: { status: 'paid' } },
      { op: 'update', collection: 'stock', id: 'sku-1', patch: { $inc: { left: -1 } }, ifMatch: stockTag },
      { op: 'delete', collection: 'carts', id: old.id },
    ]);
    assertStatus(r, 200, 'batch');
    const { results } = r.json as Results;
    const events = t.server.changes.slice(before);
    assert.deepEqual(
      results.map((x) => x.status),
      [200, 201, 200, 200, 204],
    );
    assert.equal(results[0].version, stockTag);
    assert.deepEqual(
      events.map((e) => [e.type, e.collection, e.document.id]),
      [
        ['document.created', 'orders', 'o-1'],
        ['document.updated', 'orders', 'o-1'],
        ['document.updated', 'stock', 'sku-1'],
        ['document.deleted', 'carts', 'cart-1'],
      ],
    );
    for (let i = 1; i < events.length; i++) assert.equal(BigInt(events[i].id), BigInt(events[i - 1].id) + 1n);
    assert.equal(results[1].version, events[0].id);
    assert.equal(results[2].version, events[1].id);
    assert.equal(results[2].document?.status, 'paid');
    assert.equal(results[3].document?.left, 2);
    assert.equal((await api.get<Doc>('/orders/docs/o-1')).status, 'paid');
    // Webhooks: one delivery per event, as for single writes.
    const got = await receiver.waitFor(events.length + 2, 15_000);
    const types = got.map((x) => JSON.parse(x.body) as { type: string; id?: string; eventId?: string });
    assert.equal(types.filter((x) => x.type === 'document.updated').length, 2);
    assert.equal(types.filter((x) => x.type === 'document.deleted').length, 1);
  });

  test('all or nothing: the first failing operation answers with its status, code and operations.<i>; nothing written, no event', async () => {
    await api.post<Doc>('/acc/docs', { id: 'a', n: 1 }, 201);
    const tag = (await api.request('GET', '/acc/docs/a')).headers.get('etag')!.replace(/"/g, '');
    const before = t.server.changes.length;
    const cases: Array<[unknown[], number, string, number]> = [
      [
        [
          { op: 'create', collection: 'acc', document: { id: 'new-1' } },
          { op: 'update', collection: 'acc', id: 'missing', patch: { a: 1 } },
        ],
        404,
        'not_found',
        1,
      ],
      [
        [
          { op: 'update', collection: 'acc', id: 'a', patch: { n: 2 } },
          { op: 'create', collection: 'acc', document: { id: 'a' } },
        ],
        409,
        'conflict',
        1,
      ],
      [
        [
          { op: 'update', collection: 'acc', id: 'a', patch: { $inc: { n: 1 } } },
          { op: 'check', collection: 'acc', id: 'a', ifMatch: tag },
        ],
        412,
        'precondition_failed',
        1,
      ],
      [
        [
          { op: 'create', collection: 'acc', document: {} },
          { op: 'update', collection: 'acc', id: 'a', patch: { $inc: { n: 'x' } } },
        ],
        400,
        'invalid_update',
        1,
      ],
      [[{ op: 'create', collection: 'bad name', document: {} }], 400, 'invalid_collection_name', 0],
      [[{ op: 'update', collection: 'acc', id: 'a', patch: { $push: { n: 1 } } }], 409, 'conflict', 0],
    ];
    for (const [operations, status, code, index] of cases) {
      const r = await batch(operations);
      assertError(r, status, code, JSON.stringify(operations));
      const detail = (r.json as Failure).error.details[0];
      assert.equal(detail.path, `operations.${index}`);
      if (status === 412) assert.ok(BigInt(detail.version!) > BigInt(tag), 'the committed version, as the batch saw it');
    }
    assert.equal(t.server.changes.length, before, 'no event');
    assert.equal((await api.get<Doc>('/acc/docs/a')).n, 1);
    assertError(await api.request('GET', '/acc/docs/new-1'), 404, 'not_found');
  });

  test("a batch's events are consecutive even while other writes of the database run at the same time", async () => {
    const five = Array.from({ length: 5 }, (_, i) => ({ op: 'create', collection: 'mixed', document: { batch: true, i } }));
    const [batched] = await Promise.all([
      (async () => {
        await new Promise((r) => setImmediate(r));
        return batch(five);
      })(),
      ...Array.from({ length: 30 }, () => api.post('/mixed/docs', { single: true }, 201)),
    ]);
    assertStatus(batched, 200, 'batch');
    const versions = (batched.json as Results).results.map((r) => BigInt(r.version!));
    for (let i = 1; i < versions.length; i++) assert.equal(versions[i], versions[i - 1] + 1n);
    const ids = t.server.changes.filter((e) => e.collection === 'mixed' && (e.document as { batch?: boolean }).batch).map((e) => BigInt(e.id));
    assert.deepEqual(ids, versions);
  });

  test('realtime: a socket receives each written document of a batch as an event, in operation order, as for single writes', async () => {
    const rt = await api.post<{ url: string }>('/realtime/token', { collections: ['rt-a', 'rt-b'] }, 201);
    const socket = await openWs(rt.url);
    try {
      await socket.waitFor((m) => m.type === 'ready');
      const r = await batch([
        { op: 'create', collection: 'rt-a', document: { id: 'x', n: 1 } },
        { op: 'create', collection: 'rt-b', document: { id: 'y' } },
        { op: 'update', collection: 'rt-a', id: 'x', patch: { $inc: { n: 1 } } },
        { op: 'delete', collection: 'rt-b', id: 'y' },
      ]);
      assertStatus(r, 200, 'batch');
      const events = await socket.waitFor((m) => m.type === 'event', 4);
      assert.deepEqual(
        events.map((e) => [e.event, e.collection, e.document.id]),
        [
          ['document.created', 'rt-a', 'x'],
          ['document.created', 'rt-b', 'y'],
          ['document.updated', 'rt-a', 'x'],
          ['document.deleted', 'rt-b', 'y'],
        ],
      );
      assert.equal(events[2].document.n, 2);
      // The written documents' versions are their events' ids; the delete's event follows.
      const { results } = r.json as Results;
      assert.deepEqual(
        events.slice(0, 3).map((e) => e.id),
        results.slice(0, 3).map((x) => x.version),
      );
      assert.equal(BigInt(events[3].id), BigInt(events[2].id) + 1n);
    } finally {
      await socket.close();
    }
  });

  test('a malformed body or operation is 400 validation_failed; none is 400; over LIMIT_BATCH_OPERATIONS is 413', async () => {
    assertError(await batch([]), 400, 'validation_failed');
    assertError(await api.request('POST', '/batch', { body: {} }), 400, 'validation_failed');
    assertError(await batch([{ op: 'upsert', collection: 'x', id: 'a' }]), 400, 'validation_failed');
    assertError(await batch([{ op: 'check', collection: 'x', id: 'a' }]), 400, 'validation_failed');
    const six = Array.from({ length: 6 }, () => ({ op: 'create', collection: 'many', document: {} }));
    assertError(await batch(six), 413, 'payload_too_large');
    assertStatus(await batch(six.slice(0, 5)), 200, 'five');
  });

  test('with a public key each operation obeys §10 as its route would', async () => {
    await api.put('/rules', {
      rules: { notes: { read: { owner: { $auth: 'id' } }, create: { owner: { $auth: 'id' } }, update: { owner: { $auth: 'id' } } }, '*': { read: true } },
    });
    const u = await newUser(t.server, t.db.publicKey, `batch-${kind}@example.test`);
    const as = { headers: { 'x-session-token': u.session.token } };
    const theirs = await api.post<Doc>('/notes/docs', { owner: 'someone-else' }, 201);
    const ok = await batch([{ op: 'create', collection: 'notes', document: { owner: u.user.id, text: 'a' } }], pub, as);
    assertStatus(ok, 200, 'own note');
    const mine = (ok.json as Results).results[0].document!;
    const refused: Array<[unknown[], number, string]> = [
      [[{ op: 'create', collection: 'notes', document: { owner: 'x' } }], 403, 'forbidden'],
      [[{ op: 'update', collection: 'notes', id: theirs.id, patch: { text: 'b' } }], 404, 'not_found'],
      [[{ op: 'check', collection: 'notes', id: theirs.id, ifMatch: '*' }], 404, 'not_found'],
      [[{ op: 'delete', collection: 'notes', id: mine.id }], 403, 'read_only_key'],
      [[{ op: 'update', collection: 'notes', id: mine.id, patch: { owner: 'x' } }], 403, 'forbidden'],
    ];
    for (const [operations, status, code] of refused) assertError(await batch(operations, pub, as), status, code, JSON.stringify(operations));
    assertError(await batch([{ op: 'create', collection: 'notes', document: { owner: u.user.id } }], pub), 401, 'invalid_session');
    await api.put('/rules', { rules: {} });
  });
});

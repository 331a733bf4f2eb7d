import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, startServer, useServer, type TestServer } from '../helpers/server.ts';
import { apiClient, type ApiClient } from '../helpers/api.ts';
import { newUser, withSession, type SignedIn } from '../helpers/auth-client.ts';
import { runSvc } from '../helpers/cli.ts';

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number; nextCursor: string | null };
type Query = Record<string, string | number>;

/** The list cache's counters of a server, from GET /metrics. */
async function cacheCounts(server: TestServer): Promise<{ hit: number; miss: number }> {
  const text = (await request(server, 'GET', '/metrics', { root: true })).text;
  const count = (outcome: string) => Number(new RegExp(`^svc_list_cache_requests_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { hit: count('hit'), miss: count('miss') };
}

/**
 * Lists are answered from memory while their database has not changed (documents/page-cache.ts).
 * The suite's own database hits often enough (a quarter of its lists or more) never to skip the
 * cache; the skip has a test of its own, on a database of its own.
 * What a test here would catch: a cache that is not used (the counters), one that serves an answer
 * another query or another user should not get, or one that serves a page older than a write
 * committed before the list was asked, through this server or another one on the same store.
 */
forEachStore('list cache', (kind) => {
  // Registered before useServer's: the second server closes while the store is still open.
  after(() => plain?.close());
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  /** A second server on the same store, with the cache off: the answers as the store gives them. */
  let plain: TestServer;
  let plainApi: ApiClient;

  before(async () => {
    plain = await startServer(kind, { db: t.server.db, env: { LIST_CACHE_MB: '0' } });
    plainApi = apiClient(plain, t.db.secretKey);
    await api.post('/notes/bulk', { documents: Array.from({ length: 30 }, (_, i) => ({ n: i, tag: i % 3 === 0 ? 'x' : 'y' })) }, 201);
  });

  const list = (client: ApiClient, query: Query = {}, collection = 'notes') =>
    client.request('GET', `/${collection}/docs`, { query: { limit: 5, ...query } }).then((r) => {
      assert.equal(r.status, 200, r.text);
      return r.text;
    });

  test('the same list asked again is answered from memory, byte for byte what the store gives', async () => {
    const before = await cacheCounts(t.server);
    const first = await list(api);
    const again = await list(api);
    const after = await cacheCounts(t.server);
    assert.deepEqual(after, { hit: before.hit + 1, miss: before.miss + 1 });
    assert.equal(again, first);
    assert.equal(again, await list(plainApi), 'the same text as a server without the cache');
  });

  test('every query part and the collection key their own entry; each answer is the store’s', async () => {
    await api.post('/others/docs', { n: 1 }, 201);
    const firstPage = JSON.parse(await list(api)) as Page;
    const variants: Array<[Query, string?]> = [
      [{}],
      [{ limit: 6 }],
      [{ offset: 2 }],
      [{ sortOrder: 'desc' }],
      [{ sortBy: 'n', sortOrder: 'desc' }],
      [{ filter: JSON.stringify({ tag: 'x' }) }],
      [{ filter: JSON.stringify({ tag: 'y' }) }],
      [{ fields: 'n' }],
      [{ cursor: firstPage.nextCursor as string }],
      [{}, 'others'],
      [{}, 'empty'],
    ];
    for (const [query, collection] of variants) {
      const what = `${collection ?? 'notes'} ${JSON.stringify(query)}`;
      const cached = [await list(api, query, collection), await list(api, query, collection)];
      const stored = await list(plainApi, query, collection);
      assert.equal(cached[0], stored, what);
      assert.equal(cached[1], stored, `${what}, asked again`);
    }
  });

  test('a write through this server or another on the same store shows in the very next list', async () => {
    const page = async () => JSON.parse(await list(api, { sortBy: 'n', sortOrder: 'desc', limit: 3 })) as Page;
    const warm = async () => {
      await page();
      const before = await cacheCounts(t.server);
      const p = await page();
      assert.equal((await cacheCounts(t.server)).hit, before.hit + 1, 'warm: the list is in memory');
      return p;
    };
    for (const [via, name] of [
      [api, 'this server'],
      [plainApi, 'another server'],
    ] as const) {
      await warm();
      const created = await via.post<Doc>('/notes/docs', { n: 1000, tag: 'new' }, 201);
      let p = await page();
      assert.equal(p.documents[0].id, created.id, `created through ${name}`);
      assert.equal(p.total, 31);

      await warm();
      await via.patch(`/notes/docs/${created.id}`, { n: 2000, tag: 'changed' }, 200);
      p = await page();
      assert.deepEqual([p.documents[0].id, p.documents[0].tag], [created.id, 'changed'], `updated through ${name}`);

      await warm();
      await via.delete(`/notes/docs/${created.id}`, 204);
      p = await page();
      assert.ok(!p.documents.some((d) => d.id === created.id), `deleted through ${name}`);
      assert.equal(p.total, 30);
    }
  });

  test('a page asked with a cursor again keeps a cursor that still works', async () => {
    const one = JSON.parse(await list(api, { limit: 4 })) as Page;
    const two = [await list(api, { limit: 4, cursor: one.nextCursor as string }), await list(api, { limit: 4, cursor: one.nextCursor as string })];
    assert.equal(two[1], two[0]);
    const next = (JSON.parse(two[1]) as Page).nextCursor as string;
    assert.equal(await list(api, { limit: 4, cursor: next }), await list(plainApi, { limit: 4, cursor: next }));
  });

  test('users of a public key under an owner rule each get their own page, never another’s', async () => {
    const own = { $auth: 'id' };
    await api.put('/rules', { rules: { diary: { read: { owner: own }, create: { owner: own } } } });
    const users: SignedIn[] = [];
    for (const name of ['ann', 'bob']) users.push(await newUser(t.server, t.db.publicKey, `${name}-${kind}@cache.test`));
    const as = (u: SignedIn) => apiClient(t.server, t.db.publicKey, withSession(u.session.token));
    for (const u of users) await as(u).post('/diary/docs', { owner: u.user.id, text: `${u.user.id}'s` }, 201);
    for (let round = 0; round < 2; round++) {
      for (const u of users) {
        const p = JSON.parse(await list(as(u), {}, 'diary')) as Page;
        assert.deepEqual(
          p.documents.map((d) => d.owner),
          [u.user.id],
          `round ${round}`,
        );
      }
    }
  });

  test('a database deleted and imported back, then written up to the same version again, is listed anew', async () => {
    // The key holds the database's version, which only a deletion and an import can take back down:
    // the deletion's `database:<id>` must drop the answers kept at the versions the import reaches again.
    // On SQLite the import (another connection) also moves PRAGMA data_version, which empties the
    // cache on the next request: there the tag is not what this run proves; on PostgreSQL it is.
    const d = await t.server.createDatabase();
    const dApi = apiClient(t.server, d.secretKey);
    const operator = apiClient(t.server, () => t.server.operatorToken());
    const version = async () =>
      (await t.server.db.store.get<{ v: string }>('SELECT CAST(last_event_id AS TEXT) AS v FROM databases WHERE id = ?', [d.databaseId]))?.v;
    const texts = (page: string) => (JSON.parse(page) as Page).documents.map((doc) => doc.text).sort();
    const k = 3;
    const write = async (text: string) => {
      for (let i = 0; i < k; i++) await dApi.post('/notes/docs', { text: `${text}-${i}` }, 201);
    };

    await dApi.post('/notes/docs', { text: 'kept' }, 201);
    const v = await version();
    const exported = await runSvc(t.server.db.url, ['export', '--database', d.databaseId]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /"table":"api_keys"/, 'the keys travel with the export');

    await write('old');
    const atVk = await version();
    assert.equal(BigInt(atVk!), BigInt(v!) + BigInt(k), 'each write moves the version by one');
    const old = await list(dApi, {}, 'notes');
    assert.deepEqual(texts(old), ['kept', 'old-0', 'old-1', 'old-2']);
    let before = await cacheCounts(t.server);
    assert.equal(await list(dApi, {}, 'notes'), old);
    assert.equal((await cacheCounts(t.server)).hit, before.hit + 1, 'the old list is in memory');

    await operator.delete(`/admin/databases/${d.databaseId}`, 204);
    const imported = await runSvc(t.server.db.url, ['import'], exported.stdout);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(await version(), v, 'the import takes the version back down');

    await write('new');
    assert.equal(await version(), atVk, 'the same version as the old list was kept at');
    before = await cacheCounts(t.server);
    const fresh = await list(dApi, {}, 'notes');
    assert.deepEqual(texts(fresh), ['kept', 'new-0', 'new-1', 'new-2'], 'not the list kept before the deletion');
    assert.deepEqual(await cacheCounts(t.server), { hit: before.hit, miss: before.miss + 1 }, 'read from the store');
    assert.equal(fresh, await list(apiClient(plain, d.secretKey), {}, 'notes'), 'the store’s answer');
  });

  test('a database written between most of its lists skips the cache for a while, then tries it again', async () => {
    // page-cache.ts: judged every 32 lists; under 8 hits, the next 224 go straight to the store.
    const d = await t.server.createDatabase();
    const dApi = apiClient(t.server, d.secretKey);
    for (let i = 0; i < 32; i++) {
      await dApi.post('/notes/docs', { i }, 201);
      await list(dApi);
    }
    let before = await cacheCounts(t.server);
    for (let i = 0; i < 224; i++) await list(dApi);
    assert.deepEqual(await cacheCounts(t.server), { hit: before.hit, miss: before.miss + 224 }, 'no write, yet no hit: skipped');
    await dApi.post('/notes/docs', { i: 'after' }, 201);
    before = await cacheCounts(t.server);
    await list(dApi);
    await list(dApi);
    assert.deepEqual(await cacheCounts(t.server), { hit: before.hit + 1, miss: before.miss + 1 }, 'kept again after the skip');
  });

  test('a database whose lists keep missing skips the cache longer each time; one window of hits sets it back', async () => {
    // page-cache.ts: each window in a row under 8 hits doubles the skip (224, 448, …).
    const d = await t.server.createDatabase();
    const dApi = apiClient(t.server, d.secretKey);
    const writtenBetween = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await dApi.post('/notes/docs', { i }, 201);
        await list(dApi);
      }
    };
    const skipped = async (n: number, what: string) => {
      const before = await cacheCounts(t.server);
      for (let i = 0; i < n; i++) await list(dApi);
      assert.deepEqual(await cacheCounts(t.server), { hit: before.hit, miss: before.miss + n }, what);
    };
    await writtenBetween(32);
    await skipped(224, 'the first skip');
    await writtenBetween(32);
    await skipped(448, 'failed again: twice as long, though no write came between these lists');
    // The window after it hits (no writes; the answer kept by the last list before the skip still
    // holds): the next failing window skips 224 again.
    let before = await cacheCounts(t.server);
    for (let i = 0; i < 32; i++) await list(dApi);
    assert.deepEqual(await cacheCounts(t.server), { hit: before.hit + 32, miss: before.miss }, 'looked up again, and hit');
    await writtenBetween(32);
    await skipped(224, 'set back to the first skip');
    await dApi.post('/notes/docs', { i: 'after' }, 201);
    before = await cacheCounts(t.server);
    await list(dApi);
    await list(dApi);
    assert.deepEqual(await cacheCounts(t.server), { hit: before.hit + 1, miss: before.miss + 1 }, 'kept again after it');
  });

  test('LIST_CACHE_MB=0: every list reads the store, and nothing is counted', async () => {
    const before = await cacheCounts(plain);
    await list(plainApi);
    await list(plainApi);
    assert.deepEqual(await cacheCounts(plain), before);
  });
});

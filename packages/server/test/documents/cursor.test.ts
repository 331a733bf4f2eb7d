import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, startServer, useServer } from '../helpers/server.ts';
import { CursorCodec } from '../../src/documents/cursor.ts';
import { cursorSecret } from '../../src/documents/cursor-key.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser, withSession } from '../helpers/auth-client.ts';

type Doc = Record<string, unknown> & { id: string; createdAt: string; updatedAt: string };
type Page = { documents: Doc[]; total: number; limit: number; offset: number; nextCursor: string | null };
type Query = Record<string, string | number>;

const N = 10_000;

/**
 * A field whose values mix every class of §1's order, with missing values and many ties: numbers
 * (ints and fractions, negative), strings, booleans, null, objects and arrays. Deterministic per index.
 */
function mixed(i: number): Record<string, unknown> {
  const doc: Record<string, unknown> = { i, group: i % 3 === 0 ? 'a' : 'b' };
  switch (i % 9) {
    case 0:
      break; // missing
    case 1:
      doc.v = null;
      break;
    case 2:
      doc.v = i % 40;
      break;
    case 3:
      doc.v = (i % 13) - 6.5;
      break;
    case 4:
      doc.v = `s${i % 25}`;
      break;
    case 5:
      doc.v = i % 2 === 0;
      break;
    case 6:
      doc.v = { k: i % 5 };
      break;
    case 7:
      doc.v = [i % 3];
      break;
    default:
      doc.v = i % 11;
  }
  doc.author = i % 4 === 0 ? { name: `n${i % 17}` } : i % 4 === 1 ? {} : { name: i % 6 };
  return doc;
}

/** Every page of a list by cursor; asserts each page's shape as it goes. */
async function byCursor(api: ApiClient, collection: string, query: Query, between?: (page: number) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null | undefined;
  for (let n = 0; ; n++) {
    const p = await api.get<Page>(`/${collection}/docs`, 200, { query: { ...query, ...(cursor ? { cursor } : {}) } });
    seen.push(...p.documents.map((d) => d.id));
    if (p.nextCursor === null) return seen;
    assert.equal(typeof p.nextCursor, 'string');
    assert.equal(p.documents.length, p.limit, 'only the last page is short');
    cursor = p.nextCursor;
    await between?.(n);
    assert.ok(n < 10 * N, 'paging ends');
  }
}

/** The same list by offset, in pages of 1000. */
async function byOffset(api: ApiClient, collection: string, query: Query): Promise<string[]> {
  const seen: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const p = await api.get<Page>(`/${collection}/docs`, 200, { query: { ...query, limit: 1000, offset } });
    seen.push(...p.documents.map((d) => d.id));
    if (p.documents.length < 1000) return seen;
  }
}

const onceEach = (ids: string[], what: string) => assert.equal(new Set(ids).size, ids.length, `${what}: a document was visited twice`);

const SORTS: Query[] = [
  { sortBy: 'createdAt' },
  { sortBy: 'createdAt', sortOrder: 'desc' },
  { sortBy: 'updatedAt' },
  { sortBy: 'updatedAt', sortOrder: 'desc' },
  { sortBy: 'id' },
  { sortBy: 'id', sortOrder: 'desc' },
  { sortBy: 'v' },
  { sortBy: 'v', sortOrder: 'desc' },
  { sortBy: 'author.name' },
  { sortBy: 'author.name', sortOrder: 'desc' },
];

forEachStore('cursor paging', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  let all: string[];

  before(async () => {
    // 10 bulks of 1000: each bulk shares one createdAt, so the time sorts have ties of 1000 too.
    for (let b = 0; b < N / 1000; b++) {
      await api.post('/big/bulk', { documents: Array.from({ length: 1000 }, (_, k) => mixed(b * 1000 + k)) }, 201);
    }
    // Some updates, so updatedAt differs from createdAt.
    for (let i = 0; i < N; i += 997)
      await api.patch(`/big/docs/${(await api.get<Page>('/big/docs', 200, { query: { offset: i, limit: 1 } })).documents[0].id}`, { touched: true });
    all = (await byOffset(api, 'big', { sortBy: 'id' })).sort();
    assert.equal(all.length, N);
  });

  describe('a 10k-document collection', () => {
    for (const sort of SORTS) {
      test(`visits every document exactly once, in the offset order, sorted by ${sort.sortBy} ${sort.sortOrder ?? 'asc'}`, async () => {
        const seen = await byCursor(api, 'big', { ...sort, limit: 997 });
        onceEach(seen, JSON.stringify(sort));
        assert.deepEqual([...seen].sort(), all);
        assert.deepEqual(seen, await byOffset(api, 'big', sort), 'cursor and offset paging agree on the order');
      });
    }

    test('small pages across the mixed-type boundaries (limit 7, filtered to one group)', async () => {
      const filter = JSON.stringify({ group: 'a', i: { $lt: 700 } });
      for (const sortOrder of ['asc', 'desc']) {
        const seen = await byCursor(api, 'big', { sortBy: 'v', sortOrder, limit: 7, filter });
        onceEach(seen, sortOrder);
        const whole = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', sortOrder, limit: 1000, filter } });
        assert.equal(whole.total, 234);
        assert.deepEqual(
          seen,
          whole.documents.map((d) => d.id),
        );
      }
    });

    test('limit and fields may change between pages; total is the whole set', async () => {
      const first = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 5 } });
      const second = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 50, fields: 'i', cursor: first.nextCursor! } });
      const whole = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 55 } });
      assert.deepEqual(
        [...first.documents, ...second.documents].map((d) => d.id),
        whole.documents.map((d) => d.id),
      );
      assert.equal(second.total, N);
      assert.equal(second.offset, 0);
      assert.deepEqual(Object.keys(second.documents[0]).sort(), ['createdAt', 'i', 'id', 'updatedAt']);
    });
  });

  test('while documents are inserted concurrently: none of the first ones skipped, none repeated', async () => {
    await api.post('/live/bulk', { documents: Array.from({ length: 1000 }, (_, i) => mixed(i)) }, 201);
    const before = new Set(await byOffset(api, 'live', {}));
    let n = 0;
    for (const sort of [{ sortBy: 'createdAt' }, { sortBy: 'v' }, { sortBy: 'id', sortOrder: 'desc' }, { sortBy: 'v', sortOrder: 'desc' }] as Query[]) {
      const inserts: Array<Promise<unknown>> = [];
      const seen = await byCursor(api, 'live', { ...sort, limit: 60 }, async () => {
        // Between pages, and while the next page is read: new documents of every class.
        await api.post('/live/bulk', { documents: Array.from({ length: 5 }, () => mixed(n++)) }, 201);
        inserts.push(api.post('/live/bulk', { documents: Array.from({ length: 5 }, () => mixed(n++)) }, 201));
      });
      await Promise.all(inserts);
      onceEach(seen, JSON.stringify(sort));
      const missing = [...before].filter((id) => !seen.includes(id));
      assert.deepEqual(missing, [], `${JSON.stringify(sort)}: documents that existed at the start were skipped`);
    }
    assert.ok(n > 0);
  });

  test('strings page in code point order one by one (B < Z < a < z < é < U+FF5E < U+1F600), ties by id', async () => {
    const values = ['B', 'a', 'é', '\uff5e', '\u{1F600}', '', '10', '9', 'Z', 'z', 'a', 'B'];
    await api.post('/strings/bulk', { documents: values.map((v, i) => ({ id: `s${String(i).padStart(2, '0')}`, v })) }, 201);
    for (const sortOrder of ['asc', 'desc']) {
      const seen = await byCursor(api, 'strings', { sortBy: 'v', sortOrder, limit: 1 });
      const byHand = ['s05', 's06', 's07', 's00', 's11', 's08', 's01', 's10', 's09', 's02', 's03', 's04'];
      assert.deepEqual(seen, sortOrder === 'asc' ? byHand : [...byHand].reverse());
    }
  });

  describe('misuse', () => {
    let cursor: string;
    before(async () => {
      cursor = (await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 3, filter: '{"group":"a"}' } })).nextCursor!;
    });
    const list = (query: Query, collection = 'big') => api.request('GET', `/${collection}/docs`, { query });
    const same = { sortBy: 'v', limit: 3, filter: '{"group":"a"}' };

    test('the cursor works with the parameters that gave it (a default spelled out is the same)', async () => {
      const r = await list({ ...same, cursor });
      assert.equal(r.status, 200, r.text);
      const byDefault = (await api.get<Page>('/big/docs', 200, { query: { limit: 3 } })).nextCursor!;
      const spelled = await api.get<Page>('/big/docs', 200, { query: { limit: 3, sortBy: 'createdAt', sortOrder: 'asc', cursor: byDefault } });
      const whole = await api.get<Page>('/big/docs', 200, { query: { limit: 6 } });
      assert.deepEqual(
        spelled.documents.map((d) => d.id),
        whole.documents.slice(3).map((d) => d.id),
      );
    });

    test('a tampered cursor → 400 invalid_cursor', async () => {
      const [body, mac] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(body, 'base64url').toString()) as unknown[];
      decoded[3] = all[0];
      const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${mac}`;
      const flipped = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
      for (const bad of [forged, flipped(cursor, 3), flipped(cursor, cursor.length - 2), `${body}.`, body, 'x', `${cursor}.x`, `${body}.${mac}${mac}`]) {
        assertError(await list({ ...same, cursor: bad }), 400, 'invalid_cursor', bad);
      }
    });

    test('a cursor forged with the key (values of the wrong types) is a 400 or a page, never a 500', async () => {
      // The key as the server keeps it (in the store), and the caller it binds: a secret key, no user.
      const codec = new CursorCodec(() => cursorSecret(t.server.db.store));
      await codec.ready();
      const keys = kind === 'postgres' ? 3 : 2;
      for (const [sortBy, values] of [
        ['v', Array(keys).fill('not a number')],
        ['v', [7, ...Array(keys - 1).fill('x')]],
        ['v', [1, ...Array(keys - 1).fill(1e308)]],
        ['createdAt', [12]],
        ['id', []],
      ] as const) {
        const binding = codec.binding([t.db.databaseId, 'big', sortBy, 'asc', undefined, undefined, 'secret:']);
        const forged = codec.encode(binding, { values: [...values], id: 'x', from: values.length });
        const r = await list({ sortBy, cursor: forged });
        assert.ok(r.status === 200 || (r.status === 400 && errorCode(r) === 'invalid_cursor'), `${sortBy} ${JSON.stringify(values)}: ${r.status} ${r.text}`);
      }
    });

    test('another instance on the same store takes the cursor (the key is kept in the store)', async () => {
      const other = await startServer(kind, { db: t.server.db });
      try {
        const r = await apiClient(other, t.db.secretKey).get<Page>('/big/docs', 200, { query: { ...same, cursor } });
        const here = await api.get<Page>('/big/docs', 200, { query: { ...same, cursor } });
        assert.deepEqual(
          r.documents.map((d) => d.id),
          here.documents.map((d) => d.id),
        );
        assert.equal(r.nextCursor, here.nextCursor, 'both instances sign alike');
      } finally {
        await other.close();
      }
    });

    test('a cursor with other parameters → 400 invalid_cursor', async () => {
      for (const other of [
        { ...same, sortBy: 'i' },
        { ...same, sortOrder: 'desc' },
        { ...same, filter: '{"group":"b"}' },
        { ...same, filter: undefined },
        { ...same, sortBy: 'createdAt' },
      ]) {
        const query = Object.fromEntries(Object.entries({ ...other, cursor }).filter(([, v]) => v !== undefined)) as Query;
        assertError(await list(query), 400, 'invalid_cursor', JSON.stringify(other));
      }
      assertError(await list({ ...same, cursor }, 'live'), 400, 'invalid_cursor', 'another collection');
    });

    test('a cursor of another database → 400 invalid_cursor', async () => {
      const other = await t.server.createDatabase();
      await apiClient(() => t.server, other.secretKey).post('/big/docs', { v: 1 }, 201);
      const r = await apiClient(() => t.server, other.secretKey).request('GET', '/big/docs', { query: { ...same, cursor } });
      assertError(r, 400, 'invalid_cursor');
    });

    test('cursor with offset → 400 invalid_cursor', async () => {
      assertError(await list({ ...same, cursor, offset: 0 }), 400, 'invalid_cursor');
      assertError(await list({ ...same, cursor, offset: 3 }), 400, 'invalid_cursor');
    });

    test('the last page has nextCursor null; an empty collection too', async () => {
      const p = await api.get<Page>('/big/docs', 200, { query: { limit: 1000, offset: N - 10 } });
      assert.equal(p.documents.length, 10);
      assert.equal(p.nextCursor, null);
      const exact = await api.get<Page>('/big/docs', 200, { query: { limit: 1000, offset: N - 1000 } });
      assert.equal(exact.nextCursor, null, 'a page that ends exactly at the end is the last');
      const empty = await api.get<Page>('/nothing/docs', 200);
      assert.deepEqual(empty, { documents: [], total: 0, limit: 20, offset: 0, nextCursor: null });
    });

    test('an offset page carries a cursor that continues after it', async () => {
      const p = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 4, offset: 100 } });
      const next = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 4, cursor: p.nextCursor! } });
      const whole = await api.get<Page>('/big/docs', 200, { query: { sortBy: 'v', limit: 8, offset: 100 } });
      assert.deepEqual(
        [...p.documents, ...next.documents].map((d) => d.id),
        whole.documents.map((d) => d.id),
      );
    });
  });

  test('under a read rule: cursors page only through what the rule lets through', async () => {
    const db = await t.server.createDatabase();
    const secret = apiClient(() => t.server, db.secretKey);
    await secret.put('/rules', { rules: { notes: { read: { owner: { $auth: 'id' } } } } });
    const ann = await newUser(t.server, db.publicKey, 'ann@cursor.test');
    const docs = Array.from({ length: 300 }, (_, i) => ({ ...mixed(i), owner: i % 3 === 0 ? ann.user.id : 'someone-else' }));
    await secret.post('/notes/bulk', { documents: docs }, 201);
    const asAnn = apiClient(() => t.server, db.publicKey, withSession(ann.session.token));
    for (const sortOrder of ['asc', 'desc']) {
      const seen = await byCursor(asAnn, 'notes', { sortBy: 'v', sortOrder, limit: 13 });
      onceEach(seen, sortOrder);
      const mine = await secret.get<Page>('/notes/docs', 200, {
        query: { sortBy: 'v', sortOrder, limit: 1000, filter: JSON.stringify({ owner: ann.user.id }) },
      });
      assert.equal(mine.total, 100);
      assert.deepEqual(
        seen,
        mine.documents.map((d) => d.id),
      );
      const first = await asAnn.get<Page>('/notes/docs', 200, { query: { sortBy: 'v', sortOrder, limit: 13 } });
      assert.equal(first.total, 100);
    }
  });

  test('a cursor belongs to its caller: another user of the public key, or another key kind → 400 invalid_cursor', async () => {
    const db = await t.server.createDatabase();
    const secret = apiClient(() => t.server, db.secretKey);
    await secret.put('/rules', { rules: { shared: { read: 'signedIn' }, open: { read: true } } });
    await secret.post('/shared/bulk', { documents: Array.from({ length: 30 }, (_, i) => ({ n: i })) }, 201);
    await secret.post('/open/bulk', { documents: Array.from({ length: 30 }, (_, i) => ({ n: i })) }, 201);
    const ann = await newUser(t.server, db.publicKey, 'ann@caller.test');
    const bob = await newUser(t.server, db.publicKey, 'bob@caller.test');
    const asAnn = apiClient(() => t.server, db.publicKey, withSession(ann.session.token));
    const asBob = apiClient(() => t.server, db.publicKey, withSession(bob.session.token));
    const anonymous = apiClient(() => t.server, db.publicKey);
    const query = { sortBy: 'n', limit: 5 };

    // Both users read the same documents, with the same query: the cursors still differ, and each is its caller's.
    const annPage = await asAnn.get<Page>('/shared/docs', 200, { query });
    const bobPage = await asBob.get<Page>('/shared/docs', 200, { query });
    assert.notEqual(annPage.nextCursor, bobPage.nextCursor, 'answered apart, though the documents are the same');
    assert.equal((await asAnn.get<Page>('/shared/docs', 200, { query: { ...query, cursor: annPage.nextCursor! } })).documents[0].n, 5);
    assertError(
      await asBob.request('GET', '/shared/docs', { query: { ...query, cursor: annPage.nextCursor! } }),
      400,
      'invalid_cursor',
      "bob with ann's cursor",
    );
    assertError(
      await secret.request('GET', '/shared/docs', { query: { ...query, cursor: annPage.nextCursor! } }),
      400,
      'invalid_cursor',
      "the secret key with ann's cursor",
    );

    // Secret key against public key, on a collection every public key reads.
    const bySecret = await secret.get<Page>('/open/docs', 200, { query });
    const byPublic = await anonymous.get<Page>('/open/docs', 200, { query });
    assertError(
      await anonymous.request('GET', '/open/docs', { query: { ...query, cursor: bySecret.nextCursor! } }),
      400,
      'invalid_cursor',
      "the public key with the secret key's cursor",
    );
    assertError(
      await secret.request('GET', '/open/docs', { query: { ...query, cursor: byPublic.nextCursor! } }),
      400,
      'invalid_cursor',
      "the secret key with the public key's cursor",
    );
    assert.equal((await anonymous.get<Page>('/open/docs', 200, { query: { ...query, cursor: byPublic.nextCursor! } })).documents[0].n, 5);
  });

  test('the cursor key is a random secret kept in the store, not derived from DATABASE_URL', async () => {
    const row = await t.server.db.store.get<{ secret: string }>("SELECT secret FROM server_secrets WHERE name = 'list-cursors'");
    assert.ok(row && Buffer.from(row.secret, 'base64url').length === 32);
    assert.ok(!row.secret.includes(t.server.config.databaseUrl));
  });
});

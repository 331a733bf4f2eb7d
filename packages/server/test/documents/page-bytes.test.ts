import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * API.md §1.1, third version, "Bounded pages": a page stops growing once its
 * documents' JSON passes LIMIT_PAGE_BYTES; the document that crosses it is included (a page holds
 * at least one), and nextCursor continues after the page's last document. One list answer's
 * memory grew with limit × document size: six public-key lists of 105 MiB took RSS to 2.4 GiB.
 */

const PAGE_BYTES = 10_000;
/** About 3 KB of JSON each: three stay under PAGE_BYTES, the fourth passes it. */
const big = (i: number) => ({ id: `b${String(i).padStart(2, '0')}`, n: i, pad: 'x'.repeat(3000) });

type Page = { documents: Array<{ id: string; n: number }>; total: number; limit: number; nextCursor: string | null };

forEachStore('bounded pages', (kind) => {
  const t = useServer(kind, { env: { LIMIT_PAGE_BYTES: String(PAGE_BYTES) } });
  const list = async (collection: string, query: Record<string, string | number>) => {
    const r = await request(t.server, 'GET', `/${collection}/docs`, { key: t.db.publicKey, query });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return r.json as Page;
  };
  /** Every page of a list, following nextCursor. */
  const pages = async (collection: string, query: Record<string, string | number>) => {
    const out: Page[] = [await list(collection, query)];
    while (out[out.length - 1].nextCursor) out.push(await list(collection, { ...query, cursor: out[out.length - 1].nextCursor! }));
    return out;
  };

  test('a page holds the documents up to the one whose JSON passes LIMIT_PAGE_BYTES; cursors go on after it', async () => {
    const created = await request(t.server, 'POST', '/big/bulk', { key: t.db.secretKey, body: { documents: Array.from({ length: 10 }, (_, i) => big(i)) } });
    assert.equal(created.status, 201, created.text);
    const all = await pages('big', { limit: 100 });
    assert.deepEqual(
      all.map((p) => p.documents.length),
      [4, 4, 2],
    );
    assert.deepEqual(
      all.flatMap((p) => p.documents.map((d) => d.n)),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      'every document once, in order',
    );
    assert.ok(all.every((p) => p.total === 10 && p.limit === 100));
    // Sorted by a field, descending, under a filter: the same bound, from any starting point.
    const sorted = await pages('big', { limit: 100, sortBy: 'n', sortOrder: 'desc', filter: JSON.stringify({ n: { $gte: 2 } }) });
    assert.deepEqual(
      sorted.map((p) => p.documents.map((d) => d.n)),
      [
        [9, 8, 7, 6],
        [5, 4, 3, 2],
      ],
    );
    // A limit the bound does not reach is the page size, as before.
    assert.deepEqual((await list('big', { limit: 2 })).documents.length, 2);
    // With a projection the page is still bounded by the documents' size.
    assert.equal((await list('big', { limit: 100, fields: 'n' })).documents.length, 4);
  });

  test('a document larger than LIMIT_PAGE_BYTES alone makes a page of one; small documents fill the page to its limit', async () => {
    const docs = [
      { id: 'a', pad: 'y'.repeat(PAGE_BYTES + 100) },
      { id: 'b', pad: 'y'.repeat(PAGE_BYTES + 100) },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, n: i })),
    ];
    for (const d of docs) assert.equal((await request(t.server, 'POST', '/mixed/docs', { key: t.db.secretKey, body: d })).status, 201);
    const all = await pages('mixed', { limit: 20, sortBy: 'id' });
    assert.deepEqual(
      all.map((p) => p.documents.length),
      [1, 1, 20, 10],
    );
    assert.equal(new Set(all.flatMap((p) => p.documents.map((d) => d.id))).size, 32);
    assert.equal(all[all.length - 1].nextCursor, null);
  });

  test('a page that may pass the bound is read in one statement: the sizes with the rows', async () => {
    const docs = Array.from({ length: 6 }, (_, i) => big(i));
    assert.equal((await request(t.server, 'POST', '/once/bulk', { key: t.db.secretKey, body: { documents: docs } })).status, 201);
    // Every statement that reads the collection's documents, while the lists run.
    const { store } = t.server.db;
    const read: string[] = [];
    const all = store.all.bind(store);
    store.all = ((sql: string, params?: unknown[]) => {
      if (/FROM documents/.test(sql)) read.push(sql);
      return all(sql, params as never);
    }) as typeof store.all;
    try {
      // limit 20 × LIMIT_DOCUMENT_BYTES passes LIMIT_PAGE_BYTES: the page is bounded; a new filter each time, so no cached answer.
      const first = await list('once', { limit: 20, filter: JSON.stringify({ n: { $gte: 0 } }) });
      assert.deepEqual(
        first.documents.map((d) => d.n),
        [0, 1, 2, 3],
      );
      const next = await list('once', { limit: 20, filter: JSON.stringify({ n: { $gte: 0 } }), cursor: first.nextCursor! });
      assert.deepEqual(
        next.documents.map((d) => d.n),
        [4, 5],
      );
      const pageReads = read.filter((s) => !/count\(\*\)/.test(s));
      assert.equal(pageReads.length, 2, `one statement per page, not a size read first:\n${pageReads.join('\n')}`);
    } finally {
      store.all = all;
    }
  });

  test('a search (ranked, and sorted) is bounded the same way', async () => {
    const admin = await t.server.operatorToken();
    const set = await request(t.server, 'PATCH', `/admin/databases/${t.db.databaseId}`, { key: admin, body: { settings: { search: { notes: ['title'] } } } });
    assert.equal(set.status, 200, set.text);
    await eventually(
      async () =>
        (await t.server.db.store.get<{ n: number }>('SELECT count(*) AS n FROM search_builds WHERE database_id = ?', [t.db.databaseId]))?.n === 0 || false,
      { what: 'the search build' },
    );
    const documents = Array.from({ length: 10 }, (_, i) => ({ ...big(i), title: `soup ${'tomato '.repeat(i + 1)}` }));
    assert.equal((await request(t.server, 'POST', '/notes/bulk', { key: t.db.secretKey, body: { documents } })).status, 201);
    const ranked = await pages('notes', { search: 'tomato', limit: 100 });
    assert.deepEqual(
      ranked.map((p) => p.documents.length),
      [4, 4, 2],
    );
    assert.equal(new Set(ranked.flatMap((p) => p.documents.map((d) => d.id))).size, 10);
    assert.ok(ranked.every((p) => p.total === 10));
    const sorted = await pages('notes', { search: 'soup', limit: 100, sortBy: 'n' });
    assert.deepEqual(
      sorted.map((p) => p.documents.map((d) => d.n)),
      [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9],
      ],
    );
  });
});

/**
 * A bounded page's rows come with their sizes, and each row's JSON text only up to a cap (the
 * page's room and two rows' largest size, shared by the rows read). A row of the page above the
 * cap makes the list read its rows again, their sizes summed by the store: the same page either
 * way. Here LIMIT_DOCUMENT_BYTES is small, so a cap of a list of 20 is about 1.6 KB.
 */
forEachStore('bounded pages with rows above the cap', (kind) => {
  const t = useServer(kind, { env: { LIMIT_PAGE_BYTES: String(PAGE_BYTES), LIMIT_DOCUMENT_BYTES: '12000' } });
  const list = async (collection: string, query: Record<string, string | number>) => {
    const r = await request(t.server, 'GET', `/${collection}/docs`, { key: t.db.secretKey, query });
    assert.equal(r.status, 200, r.text.slice(0, 300));
    return r.json as Page;
  };
  /** The statements that read the collection's documents while `fn` runs. */
  const reads = async (fn: () => Promise<void>) => {
    const { store } = t.server.db;
    const read: string[] = [];
    const all = store.all.bind(store);
    store.all = ((sql: string, params?: unknown[]) => {
      if (/FROM documents/.test(sql)) read.push(sql);
      return all(sql, params as never);
    }) as typeof store.all;
    try {
      await fn();
    } finally {
      store.all = all;
    }
    return read;
  };

  test('rows above the cap: the page still stops where their JSON passes LIMIT_PAGE_BYTES', async () => {
    const created = await request(t.server, 'POST', '/big/bulk', { key: t.db.secretKey, body: { documents: Array.from({ length: 10 }, (_, i) => big(i)) } });
    assert.equal(created.status, 201, created.text);
    const out: Page[] = [];
    const read = await reads(async () => {
      out.push(await list('big', { limit: 20, filter: JSON.stringify({ n: { $gte: 0 } }) }));
      while (out[out.length - 1].nextCursor) {
        out.push(await list('big', { limit: 20, filter: JSON.stringify({ n: { $gte: 0 } }), cursor: out[out.length - 1].nextCursor! }));
      }
    });
    assert.deepEqual(
      out.map((p) => p.documents.map((d) => d.n)),
      [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9],
      ],
    );
    assert.ok(out.every((p) => p.total === 10 && p.limit === 20));
    // Each page read twice (capped, then summed), besides the count of the filtered set.
    assert.equal(read.filter((s) => !/count\(\*\)/.test(s)).length, 6);
  });

  test('only the row after the page above the cap: one statement, and the next page starts with it', async () => {
    const small = Array.from({ length: 20 }, (_, i) => ({ id: `s${String(i).padStart(2, '0')}`, n: i, pad: 'z'.repeat(300) }));
    const created = await request(t.server, 'POST', '/tail/bulk', { key: t.db.secretKey, body: { documents: [...small, big(20), big(21)] } });
    assert.equal(created.status, 201, created.text);
    let first: Page | undefined;
    const read = await reads(async () => {
      first = await list('tail', { limit: 20, sortBy: 'n' });
    });
    assert.deepEqual(
      first!.documents.map((d) => d.n),
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.equal(read.length, 1, read.join('\n'));
    const next = await list('tail', { limit: 20, sortBy: 'n', cursor: first!.nextCursor! });
    assert.deepEqual(
      next.documents.map((d) => d.n),
      [20, 21],
    );
    assert.equal(next.nextCursor, null);
  });
});

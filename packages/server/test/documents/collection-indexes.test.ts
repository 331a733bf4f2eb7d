import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer } from '../helpers/server.ts';
import { newUser } from '../helpers/auth-client.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { indexCatalog, type IndexRow } from './index-catalog.ts';
import type { Param, Store } from '../../src/store/store.ts';
import { AutoIndexer } from '../../src/documents/indexes.ts';

/**
 * Automatic indexes are per collection (documents/indexes.ts): the index a collection's lists earn
 * is partial, `WHERE collection = '<name>'`, so writes into another collection never maintain it.
 * Lists of that collection spell it in their SQL (key-sql.ts), which is what lets the planner use a
 * partial index: checked on the statements a list really runs, by their query plans. Another
 * collection with the same field gets no index from it, and its lists answer the same.
 */
const STATUSES = ['open', 'closed', 'pending'];
/** The i-th document; `owner`: the user of every 50th (20 of 1,000), so that an owner's list is selective. */
const doc = (i: number, owner = 'u7') => ({
  title: `Note ${i}`,
  body: 'alpha bravo charlie',
  status: STATUSES[i % 3],
  score: (i * 37) % 500,
  owner: i % 50 === 7 ? owner : `u${i % 50}`,
  tags: ['a', `t${i % 7}`],
});

forEachStore('automatic indexes per collection', (kind) => {
  // The list cache off: every list below must reach the store, whose statements are read.
  const t = useServer(kind, { env: { LIST_CACHE_MB: '0' } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const { indexes } = indexCatalog(() => t.server, kind);
  let owner = { id: '', token: '' };
  before(async () => {
    const signedIn = await newUser(t.server, t.db.publicKey, 'owner@collection-indexes.test');
    owner = { id: signedIn.user.id, token: signedIn.session.token };
    for (const collection of ['listdocs', 'notes']) {
      for (let start = 0; start < 1000; start += 500) {
        await api.post(`/${collection}/bulk`, { documents: Array.from({ length: 500 }, (_, k) => doc(start + k, owner.id)) }, 201);
      }
    }
  });

  const keys = async () => (await t.server.db.store.all<{ path: string }>('SELECT path FROM document_indexes ORDER BY path')).map((r) => r.path);
  const byStatusScore = { filter: JSON.stringify({ status: 'open' }), sortBy: 'score', limit: '20' };
  const byCreatedOwner = { filter: JSON.stringify({ owner: 'u8' }), limit: '20' };
  type Page = { documents: Array<{ id: string; status: string; score: number; createdAt: string }>; total: number };

  /**
   * The statements on `documents` a list runs, with their parameters, and its answer: the secret
   * key's, or with `session` the public key's for that user.
   */
  const listRecorded = async (
    collection: string,
    query: Record<string, string>,
    session?: string,
  ): Promise<{ page: Page; statements: Array<[string, Param[]]> }> => {
    const store = t.server.db.store as Store & Record<string, unknown>;
    const statements: Array<[string, Param[]]> = [];
    const methods = ['all', 'get'] as const;
    const saved = methods.map((m) => store[m]);
    for (const [i, m] of methods.entries()) {
      const real = saved[i] as (sql: string, params?: Param[]) => Promise<unknown>;
      const spy = (sql: string, params: Param[] = []) => {
        if (/FROM documents\b/.test(sql)) statements.push([sql, params]);
        return real.call(store, sql, params);
      };
      store[m] = spy as never;
    }
    try {
      if (session === undefined) return { page: await api.get<Page>(`/${collection}/docs`, 200, { query }), statements };
      const r = await request(t.server, 'GET', `/${collection}/docs`, { key: t.db.publicKey, headers: { 'x-session-token': session }, query });
      assert.equal(r.status, 200, r.text);
      return { page: r.json as Page, statements };
    } finally {
      for (const [i, m] of methods.entries()) store[m] = saved[i] as never;
    }
  };

  /** The plan of a statement as text (PostgreSQL planning as for a large table: these are small). */
  const planOf = async (sql: string, params: Param[]): Promise<string> => {
    const { store } = t.server.db;
    if (kind === 'sqlite') return (await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail).join('\n');
    return store.transaction(async (tx) => {
      await tx.run('SET LOCAL enable_seqscan = off');
      return (await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).map((r) => r['QUERY PLAN']).join('\n');
    });
  };

  const expected = (filter: { status: string } | { owner: string }, sort: 'score' | 'createdAt') =>
    Array.from({ length: 1000 }, (_, i) => ({ i, ...doc(i, owner.id) }))
      .filter((d) => ('status' in filter ? d.status === filter.status : d.owner === filter.owner))
      .sort((a, b) => (sort === 'score' ? a.score - b.score : a.i - b.i));

  test('lists of one collection earn partial indexes named by that collection; their definitions name it', async () => {
    for (let i = 0; i < 3; i += 1) await api.get('/listdocs/docs', 200, { query: byStatusScore });
    for (let i = 0; i < 3; i += 1) await api.get('/listdocs/docs', 200, { query: byCreatedOwner });
    const wanted = ['listdocs:owner>createdAt', 'listdocs:score', 'listdocs:status'];
    await eventually(
      async () =>
        assert.deepEqual(
          (await keys()).filter((k) => !k.endsWith('[]')),
          wanted,
        ),
      { timeoutMs: 20_000, what: 'the three indexes of listdocs' },
    );
    // PostgreSQL: the GINs of the array-less fields are refused (no document holds them as arrays).
    assert.deepEqual(
      (await keys()).filter((k) => k.endsWith('[]')),
      [],
    );
    const built = await indexes();
    assert.equal(built.length, 3, JSON.stringify(built));
    for (const index of built) {
      assert.match(index.sql, /WHERE \(?collection = 'listdocs'(::text)?\)?$/, index.sql);
      assert.ok(!index.sql.includes('notes'), index.sql);
    }
    if (kind === 'postgres') {
      // The planner reads no statistics from a partial index: the fields' expressions get theirs
      // from a statistics object each (owner, score, status), analysed with the table.
      const stats = await t.server.db.store.all<{ name: string; exprs: string }>(
        "SELECT stxname AS name, pg_get_statisticsobjdef_expressions(oid)::text AS exprs FROM pg_statistic_ext WHERE stxname LIKE 'documents_stats_%' ORDER BY 1",
      );
      assert.equal(stats.length, 3, JSON.stringify(stats));
      for (const field of ['owner', 'score', 'status'])
        assert.ok(
          stats.some((s) => s.exprs.includes(`{${field}}`)),
          `${field}: ${JSON.stringify(stats)}`,
        );
      const analysed = await t.server.db.store.get<{ n: number | string }>(
        "SELECT count(*) AS n FROM pg_statistic_ext s JOIN pg_statistic_ext_data d ON d.stxoid = s.oid WHERE s.stxname LIKE 'documents_stats_%' AND d.stxdexpr IS NOT NULL",
      );
      assert.equal(Number(analysed?.n), 3, 'analysed');
    }
  });

  /** The automatic index a statement's plan names, if any. */
  const usedIndex = (plan: string, built: IndexRow[]) => built.find((i) => plan.includes(i.name));

  test('a list of that collection filtered by status and sorted by score runs on its partial index', async () => {
    const built = await indexes();
    const { page, statements } = await listRecorded('listdocs', byStatusScore);
    const want = expected({ status: 'open' }, 'score');
    assert.equal(page.total, want.length);
    assert.deepEqual(
      page.documents.map((d) => d.score),
      want.slice(0, 20).map((d) => d.score),
    );
    const pageQuery = statements.find(([sql]) => /ORDER BY/.test(sql));
    assert.ok(pageQuery, JSON.stringify(statements));
    assert.match(pageQuery[0], /collection = 'listdocs'/, 'the collection is written into the text');
    const plan = await planOf(...pageQuery);
    assert.ok(usedIndex(plan, built), plan);
  });

  // A list filtered by a field in the default order, as an owner's list under a read rule is (the
  // shape the index followed by created_at serves on both stores: a `$auth` comparison matches a
  // scalar only, so it is one index range; a secret key's equality also matches arrays holding the
  // value, which SQLite does not read through the index, the global index of before neither).
  test('a list of that collection filtered by a field in the default order runs on its index followed by created_at', async () => {
    const saved = await request(t.server, 'PUT', '/rules', { key: t.db.secretKey, body: { rules: { listdocs: { read: { owner: { $auth: 'id' } } } } } });
    assert.equal(saved.status, 200, saved.text);
    const [created] = (await indexes()).filter((i) => /created_at, id\)/.test(i.sql));
    assert.ok(created, 'the (owner, created_at) index');
    const { page, statements } = await listRecorded('listdocs', { limit: '10' }, owner.token);
    const want = expected({ owner: owner.id }, 'createdAt');
    assert.equal(page.total, want.length);
    assert.deepEqual(
      page.documents.map((d) => d.score),
      want.slice(0, 10).map((d) => d.score),
    );
    const pageQuery = statements.find(([sql]) => /ORDER BY/.test(sql));
    assert.ok(pageQuery, JSON.stringify(statements));
    const plan = await planOf(...pageQuery);
    assert.ok(plan.includes(created.name), plan);
    // The filtered total is counted on the same index.
    const count = statements.find(([sql]) => /count\(\*\)/.test(sql) && !/ORDER BY/.test(sql));
    if (count) assert.ok(usedIndex(await planOf(...count), await indexes()), 'the count');
  });

  test('another collection with the same fields gets no index from them, and its lists answer the same', async () => {
    const before = await keys();
    // Twice each: below what earns an index, so nothing is built for notes.
    for (let i = 0; i < 2; i += 1) {
      const { page, statements } = await listRecorded('notes', byStatusScore);
      const want = expected({ status: 'open' }, 'score');
      assert.equal(page.total, want.length);
      assert.deepEqual(
        page.documents.map((d) => d.score),
        want.slice(0, 20).map((d) => d.score),
      );
      const pageQuery = statements.find(([sql]) => /ORDER BY/.test(sql));
      assert.ok(pageQuery);
      assert.ok(!pageQuery[0].includes("'notes'"), 'a collection without indexes of its own is bound, as before');
      assert.equal(usedIndex(await planOf(...pageQuery), await indexes()), undefined, "listdocs' indexes do not hold notes");
    }
    assert.deepEqual(await keys(), before);
    assert.ok((await indexes()).every((i) => !i.sql.includes("'notes'")));
    // Writes into notes leave listdocs' indexes as they were: lists of listdocs still answer from them.
    await api.post('/notes/bulk', { documents: Array.from({ length: 100 }, (_, k) => doc(1000 + k)) }, 201);
    assert.equal((await api.get<Page>('/listdocs/docs', 200, { query: byStatusScore })).total, expected({ status: 'open' }, 'score').length);
  });

  test('the third list of the other collection earns it indexes of its own; another instance learns of them within a minute', async () => {
    // Another instance's indexer on the same store, which has read document_indexes already.
    let clock = Date.now();
    const other = new AutoIndexer(t.server.db.store, {}, undefined, () => clock);
    await other.ensure(t.db.databaseId, 'notes', { filter: [], byCreatedAt: true });
    assert.ok(other.servesCollection('listdocs') && !other.servesCollection('notes'));
    await api.get('/notes/docs', 200, { query: byStatusScore });
    await eventually(async () => assert.ok((await keys()).includes('notes:score') && (await keys()).includes('notes:status')), {
      timeoutMs: 20_000,
      what: 'the indexes of notes',
    });
    const own = (await indexes()).filter((i) => i.sql.includes("'notes'"));
    assert.equal(own.length, 2, JSON.stringify(own));
    // The other instance's next list naming the field reads the table again only once its reading is a minute old.
    const asks = { filter: [['status']], sort: ['score'], byCreatedAt: false };
    await other.ensure(t.db.databaseId, 'notes', asks);
    assert.equal(other.servesCollection('notes'), false);
    clock += 60_000;
    await other.ensure(t.db.databaseId, 'notes', asks);
    assert.equal(other.servesCollection('notes'), true);
    const { page, statements } = await listRecorded('notes', byStatusScore);
    const added = Array.from({ length: 100 }, (_, k) => doc(1000 + k)).filter((d) => d.status === 'open').length;
    assert.equal(page.total, expected({ status: 'open' }, 'score').length + added);
    const pageQuery = statements.find(([sql]) => /ORDER BY/.test(sql));
    assert.ok(pageQuery);
    const used = usedIndex(await planOf(...pageQuery), await indexes());
    assert.ok(used && own.some((i) => i.name === used.name), `the page of notes on an index of notes: ${used?.sql}`);
  });
  // A collection with indexes of its own named in every list's text let SQLite's planner take one of
  // them (every row of the collection) and sort it for a page in the default order, once the
  // statistics counted a much larger collection beside it: the unfiltered page of 20 of a feed then
  // cost tens of milliseconds. A list that names no indexed field binds the collection.
  test('an unfiltered list of that collection in the default order binds it and reads its newest rows by created_at, a larger collection beside it', async () => {
    for (let start = 0; start < 20_000; start += 1000) {
      await api.post('/bigdocs/bulk', { documents: Array.from({ length: 1000 }, (_, k) => doc(start + k)) }, 201);
    }
    await t.server.db.store.run('ANALYZE documents');
    if (kind === 'sqlite') {
      // The statistics of the peers benchmark's database (3 million documents, 100,000 of them in the
      // collection listed), where the plan went wrong: a test can't write that many rows quickly.
      const { store } = t.server.db;
      const scaled = (stat: string, by: number) => stat.replace(/^(\d+) (\d+) (\d+)/, (_, a, b, c) => `${a * by} ${b * by} ${c * by}`);
      for (const { idx, stat } of await store.all<{ idx: string; stat: string }>("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'documents'")) {
        // The whole table 3 million rows, a collection on average a million; the partial indexes (of listdocs) 100,000.
        const partial = idx.startsWith('documents_by_path_');
        await store.run('UPDATE sqlite_stat1 SET stat = ? WHERE tbl = ? AND idx = ?', [scaled(stat, partial ? 100 : 135), 'documents', idx]);
      }
      // A change of the schema makes every connection read its statistics again.
      await store.run('CREATE TABLE statistics_reread (x)');
      await store.run('DROP TABLE statistics_reread');
    }
    // A feed's page: the newest first (the documents of one bulk share createdAt; their ids follow their order).
    const { page, statements } = await listRecorded('listdocs', { limit: '20', sortOrder: 'desc' });
    assert.equal(page.total, 1000);
    assert.deepEqual(
      page.documents.map((d) => d.score),
      Array.from({ length: 20 }, (_, i) => doc(999 - i).score),
    );
    const pageQuery = statements.find(([sql]) => /ORDER BY/.test(sql));
    assert.ok(pageQuery, JSON.stringify(statements));
    assert.ok(!pageQuery[0].includes("'listdocs'"), 'no indexed field named: the collection is bound');
    const plan = await planOf(...pageQuery);
    assert.equal(usedIndex(plan, await indexes()), undefined, plan);
    assert.ok(!/TEMP B-TREE|Sort\b/.test(plan), `no sort of the collection: ${plan}`);
    // A list naming an indexed field still names the collection, and runs on that field's index.
    const filtered = await listRecorded('listdocs', byStatusScore);
    const filteredQuery = filtered.statements.find(([sql]) => /ORDER BY/.test(sql));
    assert.ok(filteredQuery);
    assert.ok(filteredQuery[0].includes("'listdocs'"), 'an indexed field named: the collection is named');
    assert.ok(usedIndex(await planOf(...filteredQuery), await indexes()));
  });
});

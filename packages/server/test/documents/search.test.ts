import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer, type Response } from '../helpers/server.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { eventually } from '../helpers/eventually.ts';

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number; nextCursor: string | null };
type Details = Array<{ path: string; message: string }>;

const ids = (p: Page) => p.documents.map((d) => d.id);
const details = (r: Response) => (r.json as { error: { details?: Details } }).error.details ?? [];

/** API.md §1.1 full-text search, on each store: the answers below are written by hand and hold on both. */
forEachStore('full-text search', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const admin = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const setSearch = (search: unknown) => admin.request('PATCH', `/admin/databases/${t.db.databaseId}`, { body: { settings: { search } } });
  const search = (collection: string, words: string, extra: Record<string, string> = {}) =>
    api.get<Page>(`/${collection}/docs`, 200, { query: { search: words, limit: '100', ...extra } });
  /** Rows of the index for a collection (what the write path and the builds keep). */
  const indexed = async (collection: string) =>
    (
      await t.server.db.store.all<{ id: string }>('SELECT id FROM document_search WHERE database_id = ? AND collection = ? ORDER BY id', [
        t.db.databaseId,
        collection,
      ])
    ).map((r) => r.id);
  /** Waits until no build is queued for the database. */
  const built = () =>
    eventually(
      async () =>
        (await t.server.db.store.get<{ n: number }>('SELECT count(*) AS n FROM search_builds WHERE database_id = ?', [t.db.databaseId]))?.n === 0 || false,
      { what: 'the search builds to finish' },
    );

  test('settings.search is validated, with a detail per problem, and merged by PATCH', async () => {
    const bad = await setSearch({ 'bad name!': ['title'], auth: ['title'], empty: [], notes: ['ok', 'bad-path', 'ok', 3], other: 'title' });
    assertError(bad, 400, 'validation_failed');
    assert.deepEqual(
      details(bad)
        .map((d) => d.path)
        .sort(),
      [
        '/settings/search/auth',
        '/settings/search/bad name!',
        '/settings/search/empty',
        '/settings/search/notes/1',
        '/settings/search/notes/2',
        '/settings/search/notes/3',
        '/settings/search/other',
      ],
    );
    assertError(await setSearch(['title']), 400, 'validation_failed');
    const ok = await admin.patch<{ database: { settings: { search?: unknown } } }>(`/admin/databases/${t.db.databaseId}`, {
      settings: { search: { notes: ['title', 'body.text'] } },
    });
    assert.deepEqual(ok.database.settings.search, { notes: ['title', 'body.text'] });
    const merged = await admin.patch<{ database: { settings: { search?: unknown } } }>(`/admin/databases/${t.db.databaseId}`, {
      settings: { search: { memos: ['text'] } },
    });
    assert.deepEqual(merged.database.settings.search, { notes: ['title', 'body.text'], memos: ['text'] }, 'a PATCH merges per collection');
    const removed = await admin.patch<{ database: { settings: { search?: unknown } } }>(`/admin/databases/${t.db.databaseId}`, {
      settings: { search: { notes: null, memos: null } },
    });
    assert.equal(removed.database.settings.search, undefined, 'null removes a collection; none left: no search setting');
    await built();
  });

  test('documents written before the setting are back-filled; the words of removed fields go', async () => {
    const docs = Array.from({ length: 450 }, (_, i) => ({
      id: `old${String(i).padStart(3, '0')}`,
      title: i % 3 === 0 ? `Quarterly report ${i}` : `Memo ${i}`,
    }));
    await api.post('/early/bulk', { documents: docs }, 201);
    assertError(await api.request('GET', '/early/docs', { query: { search: 'report' } }), 400, 'invalid_filter');
    // Words left of documents deleted while the collection had no search fields: the build drops them.
    for (const id of ['a-gone', 'old2x', 'zzz-gone']) {
      await t.server.db.store.run('INSERT INTO document_search (database_id, collection, id, words, length) VALUES (?, ?, ?, ?, ?)', [
        t.db.databaseId,
        'early',
        id,
        ' quarterly report',
        2,
      ]);
    }
    assert.equal((await setSearch({ early: ['title'] })).status, 200);
    await built();
    const page = await search('early', 'report');
    assert.equal(page.total, 150);
    const reports = new Set(docs.filter((_, i) => i % 3 === 0).map((d) => d.id));
    assert.equal(page.documents.length, 100);
    assert.ok(ids(page).every((id) => reports.has(id)));
    assert.deepEqual(
      await indexed('early'),
      docs.map((d) => d.id),
      'every document has its row, and only they do',
    );
    assert.equal((await setSearch({ early: null })).status, 200);
    await built();
    assert.deepEqual(await indexed('early'), [], 'no search fields: no rows');
    assertError(await api.request('GET', '/early/docs', { query: { search: 'report' } }), 400, 'invalid_filter');
  });

  test('insert, update, delete and bulk keep the index, in the writing transaction', async () => {
    assert.equal((await setSearch({ live: ['title', 'tags'] })).status, 200);
    await built();
    await api.post('/live/docs', { id: 'a', title: 'Blue whale', tags: ['ocean', 7, 'giant'] }, 201);
    assert.deepEqual(ids(await search('live', 'whale')), ['a']);
    assert.deepEqual(ids(await search('live', 'giant')), ['a'], 'the strings of a list are searched');
    assert.deepEqual(ids(await search('live', '7')), [], 'numbers are not text');
    await api.patch('/live/docs/a', { title: 'Red fox' });
    assert.deepEqual(ids(await search('live', 'whale')), []);
    assert.deepEqual(ids(await search('live', 'fox')), ['a']);
    await api.patch('/live/docs/a', { views: 1 });
    assert.deepEqual(ids(await search('live', 'fox')), ['a'], 'an update of other fields keeps the words');
    await api.patch('/live/docs/a', { title: null, tags: null });
    assert.deepEqual(await indexed('live'), [], 'a document with no words has no row');
    await api.patch('/live/docs/a', { title: 'Grey wolf' });
    assert.deepEqual(ids(await search('live', 'wolf')), ['a']);
    await api.delete('/live/docs/a');
    assert.deepEqual(await indexed('live'), []);
    // A bulk that fails (a taken id, past the first chunk of 500) leaves no words behind.
    await api.post('/live/docs', { id: 'taken', title: 'first' }, 201);
    const bulk = Array.from({ length: 600 }, (_, i) => ({ id: i === 599 ? 'taken' : `b${i}`, title: 'bulky words' }));
    assertError(await api.request('POST', '/live/bulk', { body: { documents: bulk } }), 409, 'conflict');
    assert.deepEqual(await indexed('live'), ['taken']);
    assert.equal((await search('live', 'bulky')).total, 0);
    await api.post('/live/bulk', { documents: bulk.slice(0, 599) }, 201);
    assert.equal((await search('live', 'bulky')).total, 599);
  });

  test('words are ANDed, matched by prefix, case-insensitively, every character literal', async () => {
    assert.equal((await setSearch({ words: ['title', 'body'] })).status, 200);
    await built();
    const docs = [
      { id: 'w1', title: 'Hello World', body: 'The quick brown fox' },
      { id: 'w2', title: 'hello there', body: 'Lazy dogs sleep' },
      { id: 'w3', title: 'Orange juice', body: 'or else: "quoted" -dash *star* near(by)' },
      { id: 'w4', title: 'Café naïve ÉCOLE', body: 'straße ｆｕｌｌ-width' },
      { id: 'w5', title: "e-mail don't", body: "O'Brien" },
    ];
    await api.post('/words/bulk', { documents: docs }, 201);
    const found = async (words: string) => ids(await search('words', words, { sortBy: 'id' }));
    assert.deepEqual(await found('hello'), ['w1', 'w2']);
    assert.deepEqual(await found('HEL'), ['w1', 'w2'], 'prefix, any case');
    assert.deepEqual(await found('hello wor'), ['w1'], 'ANDed');
    assert.deepEqual(await found('hello dogs'), ['w2'], 'across fields');
    assert.deepEqual(await found('hello orange'), []);
    assert.deepEqual(await found('OR'), ['w3'], 'OR is a word, not an operator');
    assert.deepEqual(await found('hello OR orange'), [], 'nor between words');
    assert.deepEqual(await found('"quoted"'), ['w3'], 'quotes are not phrase syntax');
    assert.deepEqual(await found('"hello'), ['w1', 'w2'], 'an unbalanced quote is no error');
    assert.deepEqual(await found('-dash'), ['w3'], 'a minus does not negate');
    assert.deepEqual(await found('hello -world'), ['w1'], 'nor before a word');
    assert.deepEqual(await found('*star*'), ['w3'], 'stars are not wildcards');
    assert.deepEqual(await found('h*o'), [], 'h and o, no document has both as prefixes');
    assert.deepEqual(await found('title:orange'), [], 'no column filter: "title" is a word');
    assert.deepEqual(await found('else: near(by'), ['w3']);
    assert.deepEqual(await found('NEAR'), ['w3']);
    assert.deepEqual(await found("'; DROP TABLE documents; --"), []);
    assert.deepEqual(await found('café'), ['w4']);
    assert.deepEqual(await found('cafe'), [], 'no accent folding');
    assert.deepEqual(await found('ÉCOLE NAÏVE'), ['w4'], 'case folding beyond ASCII');
    assert.deepEqual(await found('full'), ['w4'], 'full-width letters are letters (NFKC)');
    assert.deepEqual(await found('straße'), ['w4']);
    assert.deepEqual(await found('mail don'), ['w5'], 'punctuation separates words');
    assert.deepEqual(await found('brien'), ['w5']);
    assert.deepEqual(await found('***'), [], 'no word at all: nothing matches');
    const all = await api.get<Page>('/words/docs', 200, { query: { search: '' } });
    assert.equal(all.total, 5, 'an empty search is ignored');
    assertError(await api.request('GET', '/words/docs', { query: { search: Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ') } }), 400, 'invalid_filter');
  });

  test('ranked by occurrences for the length, ties by id; sortBy orders instead; cursors follow the rank', async () => {
    assert.equal((await setSearch({ ranked: ['text'] })).status, 200);
    await built();
    const docs = [
      { id: 'r1', text: 'apple banana cherry date', n: 1 }, // apple 1/4
      { id: 'r2', text: 'apple apple banana', n: 2 }, // 2/3
      { id: 'r3', text: 'apple', n: 3 }, // 1/1
      { id: 'r4', text: 'banana apple cherry date', n: 4 }, // 1/4: ties r1, by id
      { id: 'r5', text: 'applesauce apple pie and more words here', n: 5 }, // 2/7 (prefix counts)
      { id: 'r6', text: 'pear', n: 6 },
    ];
    await api.post('/ranked/bulk', { documents: docs }, 201);
    const page = await search('ranked', 'apple');
    assert.deepEqual(ids(page), ['r3', 'r2', 'r5', 'r1', 'r4']);
    assert.equal(page.total, 5);
    assert.deepEqual(ids(await search('ranked', 'apple banana')), ['r2', 'r1', 'r4'], '(2+1)/3, then (1+1)/4 twice, by id');
    assert.deepEqual(ids(await search('ranked', 'apple', { sortBy: 'n', sortOrder: 'desc' })), ['r5', 'r4', 'r3', 'r2', 'r1']);
    // Paging by cursor through the ranked order gives the same sequence.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const p: Page = await api.get<Page>('/ranked/docs', 200, { query: { search: 'apple', limit: '2', ...(cursor ? { cursor } : {}) } });
      seen.push(...ids(p));
      cursor = p.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['r3', 'r2', 'r5', 'r1', 'r4']);
  });

  test('combined with a filter, and with an owner rule through a public key', async () => {
    assert.equal((await setSearch({ notes: ['text'] })).status, 200);
    await built();
    const ann = await newUser(t.server, t.db.publicKey, `ann-${kind}@search.test`);
    const bob = await newUser(t.server, t.db.publicKey, `bob-${kind}@search.test`);
    await api.put('/rules', { rules: { notes: { read: { owner: { $auth: 'id' } } } } });
    await api.post(
      '/notes/bulk',
      {
        documents: [
          { id: 'n1', owner: ann.user.id, text: 'secret plan alpha', status: 'open' },
          { id: 'n2', owner: ann.user.id, text: 'secret plan beta', status: 'done' },
          { id: 'n3', owner: bob.user.id, text: 'secret plan gamma', status: 'open' },
        ],
      },
      201,
    );
    const filtered = await search('notes', 'secret plan', { filter: JSON.stringify({ status: 'open' }), sortBy: 'id' });
    assert.deepEqual(ids(filtered), ['n1', 'n3']);
    assert.equal(filtered.total, 2);
    const asAnn: ApiClient = apiClient(
      () => t.server,
      () => t.db.publicKey,
      () => ({ headers: { 'x-session-token': ann.session.token } }),
    );
    const mine = await asAnn.get<Page>('/notes/docs', 200, { query: { search: 'secret' } });
    assert.deepEqual(ids(mine).sort(), ['n1', 'n2']);
    assert.equal(mine.total, 2, 'the total counts only what the rule lets through');
    const gamma = await asAnn.get<Page>('/notes/docs', 200, { query: { search: 'gamma' } });
    assert.deepEqual(gamma, { ...gamma, documents: [], total: 0 }, "bob's note leaves no trace");
    await api.put('/rules', { rules: { '*': { read: true } } });
  });

  test('a collection with no search fields answers 400 invalid_filter', async () => {
    await api.post('/plain/docs', { title: 'hello' }, 201);
    assertError(await api.request('GET', '/plain/docs', { query: { search: 'hello' } }), 400, 'invalid_filter');
    assert.equal((await api.get<Page>('/plain/docs', 200, { query: { search: '' } })).total, 1);
  });
});

/** A model of the rank, written apart from the server: for the same answers on both stores. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const words = (s: string) => [...s.normalize('NFKC').toLowerCase().matchAll(WORD)].map((m) => m[0]);

forEachStore('full-text search agrees with a model of it', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const VOCAB = [
    'alpha',
    'alps',
    'Beta',
    'bet',
    'gamma',
    'gam',
    'ÉTÉ',
    'été',
    'naïve',
    'x-ray',
    "it's",
    'don’t',
    'über',
    'uber',
    '42',
    'a1b2',
    '日本語',
    'emoji🙂ok',
  ];
  let docs: Array<{ id: string; text: string }> = [];

  before(async () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    docs = Array.from({ length: 300 }, (_, i) => ({
      id: `m${String(i).padStart(3, '0')}`,
      text: Array.from({ length: 1 + (next() % 12) }, () => VOCAB[next() % VOCAB.length]).join(next() % 2 ? ' ' : ', '),
    }));
    await apiClient(
      () => t.server,
      () => t.server.operatorToken(),
    ).patch(`/admin/databases/${t.db.databaseId}`, { settings: { search: { model: ['text'] } } });
    await api.post('/model/bulk', { documents: docs }, 201);
  });

  for (const query of ['al', 'alpha', 'bet gam', 'été', 'ÉT', 'x ray', 'it s', 'don', 'über', 'ub', '4', 'a1', '日本', 'emoji', 'ok', 'zzz']) {
    test(`search=${query}`, async () => {
      const q = [...new Set(words(query))];
      const expected = docs
        .map((d) => {
          const w = words(d.text);
          const hits = q.map((x) => w.filter((y) => y.startsWith(x)).length);
          return { id: d.id, rank: hits.reduce((a, b) => a + b, 0) / w.length, all: hits.every((h) => h > 0) };
        })
        .filter((d) => d.all)
        .sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1))
        .map((d) => d.id);
      const page = await api.get<Page>('/model/docs', 200, { query: { search: query, limit: '1000' } });
      assert.equal(page.total, expected.length);
      assert.deepEqual(ids(page), expected);
    });
  }
});

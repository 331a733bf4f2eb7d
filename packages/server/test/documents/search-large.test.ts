import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';

type Doc = { id: string; title: string; body: string };
type Page = { documents: Doc[]; total: number; nextCursor: string | null };

const COUNT = 30_000;
const FILLER = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit', 'sed', 'tempor'];

/** The i-th document: every one holds `common…` words, two thirds `alpha…` ones, with lengths and counts varying. */
function doc(i: number): Doc {
  const words: string[] = [];
  const length = 20 + ((i * 7) % 61);
  for (let k = 0; k < length; k++) words.push(FILLER[(i + k * 3) % FILLER.length]);
  for (let k = 0; k <= i % 4; k++) words.splice((i + k * 5) % length, 0, k % 2 ? 'commonly' : 'common');
  if (i % 3) words.splice((i * 11 + 1) % length, 0, i % 5 ? 'alpha' : 'alphabet');
  return { id: `d${String(i).padStart(6, '0')}`, title: words.slice(0, 5).join(' '), body: words.slice(5).join(' ') };
}

/** The contract's rank (docs/search.md): occurrences of words starting with a searched word, per word of the document. */
function model(docs: Doc[], searched: string[]): Array<{ id: string; rank: number }> {
  return docs
    .map((d) => {
      const words = `${d.title} ${d.body}`.split(' ');
      const hits = searched.map((s) => words.filter((w) => w.startsWith(s)).length);
      return { id: d.id, hits, rank: hits.reduce((a, b) => a + b, 0) / words.length };
    })
    .filter((d) => d.hits.every((h) => h > 0))
    .sort((a, b) => b.rank - a.rank || (a.id < b.id ? -1 : 1))
    .map(({ id, rank }) => ({ id, rank }));
}

/**
 * A search whose words most documents hold: every match is ranked and counted, and the answer
 * is still a 200 with the exact total, the order of the contract and working cursors. The rows
 * are new to PostgreSQL's statistics, as a new tenant's are: a plan that trusts them to be few
 * (a join scanning the collection per match) runs into the statement time-out, a 503.
 */
forEachStore('full-text search over a large match set', (kind) => {
  const t = useServer(kind, { env: { LIMIT_BULK_DOCUMENTS: '5000' } });
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const admin = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );

  test(`${COUNT.toLocaleString('en')} documents: search= of common words answers 200 with the exact total, ranked, by cursor`, async () => {
    await admin.patch(`/admin/databases/${t.db.databaseId}`, { settings: { search: { articles: ['title', 'body'] } } }, 200);
    const docs = Array.from({ length: COUNT }, (_, i) => doc(i));
    for (let i = 0; i < COUNT; i += 5000) await api.post('/articles/bulk', { documents: docs.slice(i, i + 5000) }, 201);

    const everyOne = model(docs, ['comm']);
    assert.equal(everyOne.length, COUNT);
    const first = await api.get<Page>('/articles/docs', 200, { query: { search: 'COMM', limit: '50' } });
    assert.equal(first.total, COUNT);
    assert.deepEqual(
      first.documents.map((d) => d.id),
      everyOne.slice(0, 50).map((d) => d.id),
    );

    // Two words, ANDed (two thirds of the documents), each by prefix; three pages by cursor, and the count alone.
    const both = model(docs, ['comm', 'alph']);
    assert.equal(both.length, COUNT - Math.ceil(COUNT / 3));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let p = 0; p < 3; p++) {
      const page = await api.get<Page>('/articles/docs', 200, { query: { search: 'alph comm', limit: '100', ...(cursor ? { cursor } : {}) } });
      assert.equal(page.total, both.length);
      seen.push(...page.documents.map((d) => d.id));
      assert.ok(page.nextCursor);
      cursor = page.nextCursor;
    }
    assert.deepEqual(
      seen,
      both.slice(0, 300).map((d) => d.id),
    );
    const counted = await api.get<Page>('/articles/docs', 200, { query: { search: 'alph comm', limit: '0' } });
    assert.equal(counted.total, both.length);

    // With a projection: only the named fields, in the same order.
    const projected = await api.get<Page>('/articles/docs', 200, { query: { search: 'comm', fields: 'title', limit: '3' } });
    assert.deepEqual(
      projected.documents.map((d) => [d.id, d.title, d.body]),
      everyOne.slice(0, 3).map((d) => [d.id, docs[Number(d.id.slice(1))].title, undefined]),
    );

    // Ordered by a field instead of the rank, descending.
    const sorted = await api.get<Page>('/articles/docs', 200, { query: { search: 'alph comm', sortBy: 'title', sortOrder: 'desc', limit: '5' } });
    assert.equal(sorted.total, both.length);
    const byTitle = both.map((d) => docs[Number(d.id.slice(1))]).sort((a, b) => (a.title === b.title ? (a.id < b.id ? 1 : -1) : a.title < b.title ? 1 : -1));
    assert.deepEqual(
      sorted.documents.map((d) => d.id),
      byTitle.slice(0, 5).map((d) => d.id),
    );

    // With a filter on top: the total is the filtered one.
    const filtered = await api.get<Page>('/articles/docs', 200, {
      query: { search: 'comm', filter: JSON.stringify({ title: { $prefix: 'common' } }), limit: '5' },
    });
    const model5 = everyOne.filter((d) => docs[Number(d.id.slice(1))].title.startsWith('common'));
    assert.equal(filtered.total, model5.length);
    assert.deepEqual(
      filtered.documents.map((d) => d.id),
      model5.slice(0, 5).map((d) => d.id),
    );
  });
});

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { compileFilter } from '../../src/documents/query.ts';
import { inNamedCollection } from '../../src/documents/key-sql.ts';

/**
 * "tags contains one value" is served by an index on PostgreSQL. A field that
 * documents hold as an array earns, on the demand that earns its B-tree, a GIN index on that field
 * alone (never on the whole `data` column); the containment test of the list filter uses it.
 * SQLite has no such index (its lists open arrays with json_each). And `$prefix` is a range on
 * the field's own B-tree, on both stores.
 */
forEachStore('automatic indexes for array fields', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const DOCS = 2000;
  before(async () => {
    // Another collection's documents beside those of posts: a table of one collection is read
    // whole by a list of it (SQLite knows from the collection written into the list's SQL), index or not.
    for (let start = 0; start < DOCS; start += 500) {
      await api.post('/others/bulk', { documents: Array.from({ length: 500 }, (_, k) => ({ label: `o${start + k}` })) }, 201);
    }
    for (let start = 0; start < DOCS; start += 500) {
      const documents = Array.from({ length: 500 }, (_, k) => {
        const i = start + k;
        return { tags: [`t${i % 100}`, i === 7 ? 'rare' : 'common'], level: i % 5, label: `l${i}` };
      });
      await api.post('/posts/bulk', { documents }, 201);
    }
  });

  const ginIndexes = () =>
    kind === 'postgres'
      ? t.server.db.store.all<{ name: string; sql: string }>(
          "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'documents' AND indexdef ILIKE '%USING gin%'",
        )
      : Promise.resolve([]);
  const recorded = () => t.server.db.store.all<{ path: string }>('SELECT path FROM document_indexes ORDER BY path');
  const listThrice = async (filter: unknown) => {
    for (let i = 0; i < 3; i += 1) await api.get('/posts/docs', 200, { query: { filter: JSON.stringify(filter) } });
  };

  test('filtering an array field three times builds a GIN on it (PostgreSQL), beside its B-tree', async () => {
    await listThrice({ tags: 'rare' });
    if (kind === 'postgres') {
      await eventually(
        async () => {
          const gin = await ginIndexes();
          assert.equal(gin.length, 1, JSON.stringify(gin));
          assert.match(gin[0].sql, /USING gin \(\(\(data #> '\{tags\}'::text\[\]\)\) jsonb_path_ops\) WHERE \(collection = 'posts'::text\)/);
          assert.deepEqual(
            (await recorded()).map((r) => r.path),
            ['posts:tags>createdAt', 'posts:tags[]'],
          );
        },
        { timeoutMs: 10_000, what: 'the GIN index on tags' },
      );
    } else {
      await eventually(
        async () =>
          assert.deepEqual(
            (await recorded()).map((r) => r.path),
            ['posts:tags>createdAt'],
          ),
        { timeoutMs: 10_000, what: 'the index on tags' },
      );
    }
  });

  test('a field held only as a scalar gets no GIN', async () => {
    await listThrice({ level: 3 });
    await eventually(async () => assert.ok((await recorded()).some((r) => r.path === 'posts:level>createdAt')), {
      timeoutMs: 10_000,
      what: 'the index on level',
    });
    assert.ok(!(await recorded()).some((r) => r.path === 'posts:level[]'));
    assert.ok((await ginIndexes()).every((i) => !i.sql.includes('{level}')));
  });

  test('the list counts through the GIN index on PostgreSQL, and answers the same', async () => {
    const page = await api.get<{ documents: Array<{ tags: string[] }>; total: number }>('/posts/docs', 200, {
      query: { filter: JSON.stringify({ tags: 'rare' }) },
    });
    assert.equal(page.total, 1);
    assert.deepEqual(page.documents[0].tags, ['t7', 'rare']);
    assert.equal((await api.get<{ total: number }>('/posts/docs', 200, { query: { filter: JSON.stringify({ tags: 't3' }) } })).total, DOCS / 100);
    if (kind !== 'postgres') return;
    const { store } = t.server.db;
    const f = compileFilter(store.dialect.json, JSON.stringify({ tags: 'rare' }));
    // As the list counts: the collection written into the text (key-sql.ts), so its partial index serves.
    const plan = await store.all<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT count(*) FROM documents WHERE ${inNamedCollection(store.dialect, 'posts')} AND ${f.sql}`,
      [t.db.databaseId, ...f.params],
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    const gin = (await ginIndexes())[0].name;
    assert.ok(text.includes(gin), text);
  });

  test("$prefix is served by the field's index on both stores", async () => {
    await listThrice({ label: { $prefix: 'l123' } });
    const { store } = t.server.db;
    const row = await eventually(
      async () => {
        const r = await store.get<{ name: string }>('SELECT name FROM document_indexes WHERE path = ?', ['posts:label>createdAt']);
        assert.ok(r);
        return r;
      },
      { timeoutMs: 10_000, what: 'the index on label' },
    );
    const f = compileFilter(store.dialect.json, JSON.stringify({ label: { $prefix: 'l123' } }));
    const explain = kind === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN';
    const plan = await store.all<Record<string, string>>(
      `${explain} SELECT count(*) FROM documents WHERE ${inNamedCollection(store.dialect, 'posts')} AND ${f.sql}`,
      [t.db.databaseId, ...f.params],
    );
    const text = plan.map((r) => r.detail ?? r['QUERY PLAN']).join('\n');
    assert.ok(text.includes(row.name), text);
    const page = await api.get<{ documents: Array<{ label: string }>; total: number }>('/posts/docs', 200, {
      query: { filter: JSON.stringify({ label: { $prefix: 'l123' } }), sortBy: 'label', limit: 100 },
    });
    assert.deepEqual(
      page.documents.map((d) => d.label),
      ['l123', 'l1230', 'l1231', 'l1232', 'l1233', 'l1234', 'l1235', 'l1236', 'l1237', 'l1238', 'l1239'],
    );
  });
});

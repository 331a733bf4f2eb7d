import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { indexCatalog } from './index-catalog.ts';
import { parseFilter } from '@svc/filter';
import { compileFilter } from '../../src/documents/query.ts';
import { inNamedCollection } from '../../src/documents/key-sql.ts';

forEachStore('automatic indexes', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  before(() => api.post('/scores/bulk', { documents: Array.from({ length: 30 }, (_, i) => ({ rank: { value: i % 7 }, level: i % 3, label: `l${i}` })) }, 201));

  const { indexes, indexOn, waitForIndex } = indexCatalog(() => t.server, kind);

  test('no automatic index exists before a list sorts or filters by a user field', async () => {
    await api.get('/scores/docs');
    await api.get('/scores/docs', 200, { query: { sortBy: 'updatedAt' } });
    assert.deepEqual(await indexes(), []);
  });

  /** A field earns its index in the third list within the window that names it. */
  const listThrice = async (query: Record<string, string>) => {
    for (let i = 0; i < 3; i += 1) await api.get('/scores/docs', 200, { query });
  };

  test('filtering by a field in lists in the default order builds its index followed by created_at: a page under a rule reads in index order, no sort', async () => {
    await listThrice({ filter: JSON.stringify({ label: 'l4' }) });
    await eventually(
      async () => {
        const row = await t.server.db.store.get<{ path: string }>('SELECT path FROM document_indexes WHERE path = ?', ['scores:label>createdAt']);
        assert.ok(row, 'scores:label>createdAt in document_indexes');
      },
      { timeoutMs: 10_000, what: 'the index on (label, created_at)' },
    );
    const [index] = await indexOn('label');
    assert.match(index.sql, /created_at, id\) WHERE \(?collection = 'scores'/, index.sql);
    // The page query of a list under an owner-style rule (a `$auth` comparison matches a scalar only,
    // so it is one index range; documents/service.ts spells the page so) reads in the index's order.
    // The collection is written into the list's SQL (key-sql.ts), which lets the planner use its
    // partial index.
    const { store } = t.server.db;
    const f = compileFilter(store.dialect.json, parseFilter({ label: { $auth: 'id' } }, { auth: () => 'l4' }));
    const sql = `SELECT id FROM documents WHERE ${inNamedCollection(store.dialect, 'scores')} AND ${f.sql} ORDER BY created_at, id LIMIT 20`;
    if (kind === 'sqlite') {
      const plan = (await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, [t.db.databaseId, ...f.params])).map((r) => r.detail).join('\n');
      assert.ok(plan.includes(index.name) && !plan.includes('TEMP B-TREE'), plan);
    } else {
      await store.run('SET enable_seqscan = off'); // 30 rows: make the planner show what it would do on a large table
      const plan = (await store.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [t.db.databaseId, ...f.params])).map((r) => r['QUERY PLAN']).join('\n');
      await store.run('RESET enable_seqscan');
      // PostgreSQL uses the index, but still sorts what it found: its string comparison also says
      // the numeric sort key IS NULL, which the planner does not count as fixing that column.
      assert.ok(plan.includes(index.name), plan);
    }
    assert.deepEqual((await api.get<{ total: number }>('/scores/docs', 200, { query: { filter: JSON.stringify({ label: 'l4' }) } })).total, 1);
  });

  test('sorting by a nested user field, in three lists, builds one index for it, listed in document_indexes', async () => {
    await listThrice({ sortBy: 'rank.value' });
    const found = await waitForIndex('rank.value');
    assert.equal(found.length, 1, `an index on rank.value appears; have ${JSON.stringify(await indexes())}`);
    // Recorded right after the index is built, in the background.
    await eventually(
      async () => {
        const row = await t.server.db.store.get<{ path: string; name: string }>('SELECT path, name FROM document_indexes WHERE path = ?', [
          'scores:rank.value',
        ]);
        assert.deepEqual(row, { path: 'scores:rank.value', name: found[0].name });
      },
      { timeoutMs: 5000, what: 'scores:rank.value in document_indexes' },
    );
    // Sorting by it again, in either direction, builds nothing new.
    await api.get('/scores/docs', 200, { query: { sortBy: 'rank.value', sortOrder: 'desc' } });
    assert.equal((await indexOn('rank.value')).length, 1);
  });

  test('a build refreshes the planner statistics before the index is recorded', async () => {
    // rank.value's index was built by the test before.
    const [index] = await waitForIndex('rank.value');
    assert.ok(index, 'an index on rank.value exists');
    const { store } = t.server.db;
    if (kind === 'sqlite') {
      const stat1 = await store.get<{ n: number }>('SELECT count(*) AS n FROM sqlite_stat1 WHERE idx = ?', [index.name]);
      assert.equal(stat1?.n, 1, `sqlite_stat1 describes ${index.name}`);
    } else {
      const row = await store.get<{ analyzed: boolean }>("SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname = 'documents'");
      assert.equal(row?.analyzed, true, 'documents was analyzed');
    }
  });

  test('filtering by a user field builds an index for it too', async () => {
    assert.equal((await api.get<{ total: number }>('/scores/docs', 200, { query: { filter: JSON.stringify({ level: { $gte: 1 } }) } })).total, 20);
    await listThrice({ filter: JSON.stringify({ level: 2 }) });
    assert.equal((await waitForIndex('level')).length, 1);
  });

  test('lists answer the same with the index in place', async () => {
    await waitForIndex('rank.value');
    const page = await api.get<{ documents: Array<{ rank: { value: number } }> }>('/scores/docs', 200, { query: { sortBy: 'rank.value', limit: 100 } });
    const values = page.documents.map((d) => d.rank.value);
    assert.deepEqual(
      values,
      [...values].sort((a, b) => a - b),
    );
    assert.equal(values.length, 30);
  });
});

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { forEachStore } from '../helpers/stores.ts';
import { request, startServer, type TestServer } from '../helpers/server.ts';
import { indexCatalog } from './index-catalog.ts';

forEachStore('automatic indexes', (kind) => {
  let server: TestServer;
  let key: string;
  before(async () => {
    server = await startServer(kind);
    key = (await server.createDatabase()).secretKey;
    await request(server, 'POST', '/scores/bulk', { key, body: { documents: Array.from({ length: 30 }, (_, i) => ({ rank: { value: i % 7 }, level: i % 3, label: `l${i}` })) } });
  });
  after(() => server.close());

  const { indexes, indexOn, waitForIndex } = indexCatalog(() => server, kind);

  test('no automatic index exists before a list sorts or filters by a user field', async () => {
    await request(server, 'GET', '/scores/docs', { key });
    await request(server, 'GET', '/scores/docs', { key, query: { sortBy: 'updatedAt' } });
    assert.deepEqual(await indexes(), []);
  });

  /** A field earns its index in the third list within the window that names it. */
  const listThrice = async (query: Record<string, string>) => {
    for (let i = 0; i < 3; i += 1) assert.equal((await request(server, 'GET', '/scores/docs', { key, query })).status, 200);
  };

  test('sorting by a nested user field, in three lists, builds one index for it, listed in document_indexes', async () => {
    await listThrice({ sortBy: 'rank.value' });
    const found = await waitForIndex('rank.value');
    assert.equal(found.length, 1, `an index on rank.value appears; have ${JSON.stringify(await indexes())}`);
    let row: { path: string; name: string } | undefined;
    for (let i = 0; i < 200 && !row; i += 1) {
      row = await server.db.store.get<{ path: string; name: string }>('SELECT path, name FROM document_indexes WHERE path = ?', ['rank.value']);
      if (!row) await sleep(25); // recorded right after the index is built, in the background
    }
    assert.deepEqual(row, { path: 'rank.value', name: found[0].name });
    // Sorting by it again, in either direction, builds nothing new.
    await request(server, 'GET', '/scores/docs', { key, query: { sortBy: 'rank.value', sortOrder: 'desc' } });
    assert.equal((await indexOn('rank.value')).length, 1);
  });

  test('filtering by a user field builds an index for it too', async () => {
    const r = await request(server, 'GET', '/scores/docs', { key, query: { filter: JSON.stringify({ level: { $gte: 1 } }) } });
    assert.equal(r.status, 200);
    assert.equal((r.json as { total: number }).total, 20);
    await listThrice({ filter: JSON.stringify({ level: 2 }) });
    assert.equal((await waitForIndex('level')).length, 1);
  });

  test('lists answer the same with the index in place', async () => {
    await waitForIndex('rank.value');
    const r = await request(server, 'GET', '/scores/docs', { key, query: { sortBy: 'rank.value', limit: 100 } });
    const values = (r.json as { documents: Array<{ rank: { value: number } }> }).documents.map((d) => d.rank.value);
    assert.deepEqual(values, [...values].sort((a, b) => a - b));
    assert.equal(values.length, 30);
  });
});

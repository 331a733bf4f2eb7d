import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../src/index.ts';
import { startServer, type TestServer } from './helpers.ts';
import { postgresAvailable } from '../../server/test/helpers/stores.ts';
import { eventually } from '../../server/test/helpers/eventually.ts';

interface Article {
  title: string;
  body: string;
  n: number;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`full-text search from the SDK [${kind}]`, async () => {
    if (kind === 'postgres' && !(await postgresAvailable())) throw new Error('PostgreSQL is not available');
    let server: TestServer;
    let key: string;
    before(async () => {
      server = await startServer(kind);
      const db = await server.createDatabase();
      key = db.secretKey;
      const token = await server.operatorToken();
      const r = await fetch(`${server.base}/admin/databases/${db.databaseId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ settings: { search: { articles: ['title', 'body'] } } }),
      });
      assert.equal(r.status, 200, await r.text());
    });
    after(() => server.close());

    test('list({ search }) ranks, iterate() pages the ranked order by cursor, sortBy overrides the rank', async () => {
      const articles = createClient({ url: server.url, key }).collection<Article>('articles');
      await articles.bulkCreate([
        { id: 'a1', title: 'Sourdough bread', body: 'flour water salt', n: 1 },
        { id: 'a2', title: 'Bread bread bread', body: 'more bread', n: 2 },
        { id: 'a3', title: 'Rye', body: 'a dark bread with rye flour and seeds', n: 3 },
        { id: 'a4', title: 'Pasta', body: 'flour and eggs', n: 4 },
      ] as Array<Article & { id: string }>);
      const page = await eventually(async () => {
        const p = await articles.list({ search: 'BREAD' });
        assert.equal(p.total, 3);
        return p;
      });
      assert.deepEqual(
        page.documents.map((d) => d.id),
        ['a2', 'a1', 'a3'],
        'the most occurrences for the length first',
      );
      const seen: string[] = [];
      for await (const a of articles.iterate({ search: 'bread', pageSize: 1 })) seen.push(a.id);
      assert.deepEqual(seen, ['a2', 'a1', 'a3']);
      const byN = await articles.list({ search: 'flour', sortBy: 'n', sortOrder: 'desc' });
      assert.deepEqual(
        byN.documents.map((d) => d.id),
        ['a4', 'a3', 'a1'],
      );
    });
  });
}

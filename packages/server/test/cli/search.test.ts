import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { runSvc } from '../helpers/cli.ts';
import { eventually } from '../helpers/eventually.ts';

/** Runs `svc …` against a store. */
const svc = (db: TestStore, args: string[]) => runSvc(db.url, args);

forEachStore('svc search', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const run = (args: string[]) => svc(t.server.db, args);

  test('search set stores the fields, the running server back-fills, search get prints them; --remove takes them away', async () => {
    await api.post('/posts/docs', { id: 'p1', title: 'Hello search', body: 'from the command line' }, 201);
    const none = await run(['search', 'get', '--database', t.db.databaseId]);
    assert.equal(none.code, 0, none.stderr);
    assert.deepEqual(JSON.parse(none.stdout), {});

    const set = await run(['search', 'set', '--database', t.db.databaseId, '--collection', 'posts', '--fields', 'title, body']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /searched in title, body/);
    const got = await run(['--json', 'search', 'get', '--database', t.db.databaseId, '--collection', 'posts']);
    assert.deepEqual(JSON.parse(got.stdout), { search: { posts: ['title', 'body'] } });

    // The server polls for builds the CLI queued.
    await eventually(
      async () => {
        const page = await api.get<{ documents: Array<{ id: string }> }>('/posts/docs', 200, { query: { search: 'command' } });
        assert.deepEqual(
          page.documents.map((d) => d.id),
          ['p1'],
        );
      },
      { what: 'the back-fill of the collection the CLI set' },
    );

    const bad = await run(['search', 'set', '--database', t.db.databaseId, '--collection', 'posts', '--fields', 'title,bad-path']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /validation_failed/);
    assert.match(bad.stderr, /\/settings\/search\/posts\/1/);

    const removed = await run(['search', 'set', '--database', t.db.databaseId, '--collection', 'posts', '--remove']);
    assert.equal(removed.code, 0, removed.stderr);
    const r = await api.request('GET', '/posts/docs', { query: { search: 'command' } });
    assert.equal(r.status, 400);
  });
});

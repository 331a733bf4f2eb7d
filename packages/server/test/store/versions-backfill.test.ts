import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';

/**
 * Migration 12 (safe writes) on a store that already holds documents: each gets the id of its last
 * create or update event still in the log, or, its events pruned, the database's event counter.
 */
forEachStore('document versions of existing rows (migration 13)', (kind) => {
  const t = useServer(kind);
  const api = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );

  test('existing documents get their last event id, or the counter when their events are gone', async () => {
    const a = await api.post<{ id: string }>('/posts/docs', { n: 1 }, 201);
    await api.patch(`/posts/docs/${a.id}`, { n: 2 });
    const lastOfA = t.server.changes[t.server.changes.length - 1].id;
    const b = await api.post<{ id: string }>('/posts/docs', { n: 3 }, 201);
    await api.post('/other/docs', { n: 4 }, 201);
    const { store } = t.server.db;
    // Back to the schema before migration 13, with b's events pruned.
    await store.run('ALTER TABLE documents DROP COLUMN version');
    await store.run('DROP TABLE idempotency_keys');
    await store.run('DELETE FROM schema_migrations WHERE version = 13');
    await store.run('DELETE FROM events WHERE document_id = ?', [b.id]);
    await store.migrate();
    const counter = (await store.get<{ v: string }>('SELECT CAST(last_event_id AS TEXT) AS v FROM databases WHERE id = ?', [t.db.databaseId]))!.v;
    const version = async (id: string) => (await store.get<{ v: string }>('SELECT CAST(version AS TEXT) AS v FROM documents WHERE id = ?', [id]))!.v;
    assert.equal(await version(a.id), lastOfA);
    assert.equal(await version(b.id), counter);
    // The next write still gets a higher version.
    const r = await api.request('PATCH', `/posts/docs/${b.id}`, { body: { n: 5 } });
    assert.ok(BigInt(r.headers.get('etag')!.replace(/"/g, '')) > BigInt(counter));
  });
});

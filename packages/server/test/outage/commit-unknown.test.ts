import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, PG_ADMIN_URL, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { Store } from '../../src/store/store.ts';

/**
 * API.md §0: a connection to the store lost while a write commits answers 503 `commit_unknown`
 * (with Retry-After), never a 500 and never 503 `unavailable`, which promises the write was not
 * committed. PostgreSQL only: SQLite runs in the process, and its COMMIT either returns or fails
 * with nothing committed, so it cannot lose a COMMIT's answer.
 *
 * svc talks to PostgreSQL through a TCP proxy that lets the COMMIT of one request's transaction
 * reach the server and cuts the connection as the answer comes back: the write is committed, and
 * svc cannot know it.
 */
describe('a connection lost during COMMIT', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let proxy: TcpProxy;
  let proxied: Store;
  before(async () => {
    db = await postgresTestStore();
    const pgUrl = new URL(PG_ADMIN_URL);
    proxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    proxied = await openStore(proxy.url(db.url), { connectMs: 1000, statementMs: 1500 });
  });
  const t = useServer('postgres', () => ({ db: { ...db, store: proxied } }));
  after(async () => {
    await proxied?.close();
    await proxy?.close();
    await db?.drop();
  });

  test('answers 503 commit_unknown with Retry-After; the write may have happened (here it did); the next write works', async () => {
    const api = apiClient(t.server, t.db.secretKey);
    const marker = `in-doubt-${Math.random().toString(36).slice(2)}`;
    const cut = proxy.cutAfter(marker, 'COMMIT');
    const r = await api.request('POST', '/notes/docs', { body: { marker } });
    await cut;
    assert.equal(r.status, 503, r.text);
    assert.equal((r.json as { error: { code: string } }).error.code, 'commit_unknown');
    assert.match((r.json as { error: { message: string } }).error.message, /may or may not have been applied/);
    assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
    const { documents } = await api.get<{ documents: Array<{ marker: string }> }>('/notes/docs');
    assert.deepEqual(
      documents.map((d) => d.marker),
      [marker],
      'the COMMIT reached PostgreSQL: the write is there, which a 503 unavailable would have denied',
    );
    await api.post('/notes/docs', { after: true }, 201);
  });
});

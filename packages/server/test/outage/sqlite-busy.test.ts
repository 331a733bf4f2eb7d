import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { sqliteTestStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { Store } from '../../src/store/store.ts';
import { call } from './outage-helpers.ts';

/**
 * SQLite's outage: another process (a backup, a second server on the same file) holds the write
 * lock past the busy time-out. A write then answers 503 `unavailable` with Retry-After, and is not
 * applied; reads go on (WAL); writes succeed again once the lock is released.
 */
describe('SQLite write lock held by another process', () => {
  let db: TestStore;
  let store: Store;
  before(async () => {
    db = await sqliteTestStore();
    store = await openStore(db.url, { connectMs: 1000, statementMs: 300 });
  });
  // On that store with its short time-outs; closed before the store and file below go.
  const t = useServer('sqlite', () => ({ db: { ...db, store } }));
  after(async () => {
    await store?.close();
    await db?.drop();
  });

  test('a write past the busy time-out → 503 unavailable, not applied; reads and /ready still answer; writes resume', async () => {
    const url = `${t.server.base}/locked/docs`;
    assert.equal((await call(url, { method: 'POST', key: t.db.secretKey, body: { n: 1 } })).status, 201);

    const other = new Database(db.url.slice('sqlite:'.length));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const refused = await call(url, { method: 'POST', key: t.db.secretKey, body: { n: 2 } });
      assert.equal(refused.status, 503);
      assert.equal(refused.json!.error.code, 'unavailable');
      assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
      const read = await call(url, { key: t.db.secretKey });
      assert.equal(read.status, 200, 'reads do not wait for the writer lock');
      assert.equal((await call(`${t.server.url}/ready`)).status, 200);
    } finally {
      other.prepare('COMMIT').run();
      other.close();
    }

    assert.equal((await call(url, { method: 'POST', key: t.db.secretKey, body: { n: 3 } })).status, 201);
    const list = await call(url, { key: t.db.secretKey });
    assert.deepEqual((list.json!.documents as Array<{ n: number }>).map((d) => d.n).sort(), [1, 3], 'the refused write was not applied');
  });
});

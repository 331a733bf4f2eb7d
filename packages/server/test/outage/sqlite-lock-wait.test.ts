import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { sqliteTestStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { Store } from '../../src/store/store.ts';
import { call, type Answer } from './outage-helpers.ts';

/**
 * API.md §11, third version: while another connection holds SQLite's write lock,
 * a write waits for it without holding the event loop. SQLite's own busy handler sleeps in the
 * calling thread, the event loop for better-sqlite3: /health and reads waited with the write (up to
 * the whole busy time-out). Now /health and reads answer while the write waits; the write goes
 * through once the lock is released, or answers 503 `unavailable` after the statement time-out.
 */
describe('a write waiting for the SQLite write lock', () => {
  let db: TestStore;
  let store: Store;
  before(async () => {
    db = await sqliteTestStore();
    store = await openStore(db.url, { connectMs: 1000, statementMs: 3000 });
  });
  const t = useServer('sqlite', () => ({ db: { ...db, store } }));
  after(async () => {
    await store?.close();
    await db?.drop();
  });

  /** A write sent now, and whether it has been answered yet. */
  const startWrite = (n: number) => {
    const w = { answer: undefined as Answer | undefined, done: undefined as unknown as Promise<Answer> };
    w.done = call(`${t.server.base}/locked/docs`, { method: 'POST', key: t.db.secretKey, body: { id: `n${n}`, n } }).then((a) => (w.answer = a));
    return w;
  };

  /** While the write waits: /health, a read and a list answer, and the write still has not. */
  const othersAnswerMeanwhile = async (write: { answer: Answer | undefined }) => {
    // Let the write reach the lock (with the busy handler in SQLite, the event loop, this timer included, stopped there).
    await delay(300);
    const health = await call(`${t.server.url}/health`);
    assert.equal(health.status, 200);
    assert.equal((await call(`${t.server.base}/locked/docs/n1`, { key: t.db.secretKey })).status, 200, 'a read by id');
    assert.equal((await call(`${t.server.base}/locked/docs`, { key: t.db.secretKey })).status, 200, 'a list');
    assert.equal(write.answer, undefined, '/health and reads answered while the write waits for the lock');
  };

  test('/health and reads answer while a write waits; the write completes once the lock is released', async () => {
    assert.equal((await call(`${t.server.base}/locked/docs`, { method: 'POST', key: t.db.secretKey, body: { id: 'n1', n: 1 } })).status, 201);
    const other = new Database(db.url.slice('sqlite:'.length));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const write = startWrite(2);
      await othersAnswerMeanwhile(write);
      other.prepare('COMMIT').run();
      assert.equal((await write.done).status, 201, 'written once the lock was released');
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
    }
    assert.equal((await call(`${t.server.base}/locked/docs/n2`, { key: t.db.secretKey })).status, 200);
  });

  test('a lock never released: the write answers 503 unavailable (not applied), and /health answered meanwhile', async () => {
    const other = new Database(db.url.slice('sqlite:'.length));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const write = startWrite(3);
      await othersAnswerMeanwhile(write);
      const refused = await write.done;
      assert.equal(refused.status, 503);
      assert.equal(refused.json!.error.code, 'unavailable');
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    assert.equal((await call(`${t.server.base}/locked/docs/n3`, { key: t.db.secretKey })).status, 404, 'the refused write was not applied');
    assert.equal((await startWrite(4).done).status, 201, 'writes resume');
  });
});

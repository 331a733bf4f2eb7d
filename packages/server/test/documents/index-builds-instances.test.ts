import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, startServer, useServer, type TestServer } from '../helpers/server.ts';
import { indexCatalog } from './index-catalog.ts';

/**
 * "deadlock detected" from the automatic index builder on PostgreSQL under
 * load. Two instances building at once: `CREATE INDEX CONCURRENTLY` waits for every older
 * snapshot, and the other instance's build (or its ANALYZE) waits for the first one's lock, so
 * PostgreSQL ended one with a deadlock. Builds now take turns across instances (the store's
 * maintenance lock, taken by polling: docs/architecture.md). Here two instances on one store are
 * asked for indexes at the same moment; every index is built and nothing reports a deadlock.
 */
const FIELDS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'];

forEachStore('automatic index builds on two instances', (kind) => {
  const logs: string[] = [];
  const capture = { write: (line: string) => void logs.push(line) };
  const t = useServer(kind, { env: { LOG_LEVEL: 'warn' }, logStream: capture });
  const { waitForIndex } = indexCatalog(() => t.server, kind);

  test('builds asked for on both instances at once all complete, none of them in a deadlock', async () => {
    // Closed in this test: the store it shares is closed with the first server, after the test.
    const other = await startServer(kind, { db: t.server.db, env: { LOG_LEVEL: 'warn' }, logStream: capture });
    try {
      const documents = Array.from({ length: 4000 }, (_, i) => Object.fromEntries(FIELDS.map((f, k) => [f, (i * (k + 7)) % 1000])));
      for (let i = 0; i < documents.length; i += 1000) {
        const r = await request(t.server, 'POST', '/wide/bulk', { key: t.db.secretKey, body: { documents: documents.slice(i, i + 1000) } });
        assert.equal(r.status, 201, r.text.slice(0, 200));
      }
      const list = (server: TestServer, field: string) => request(server, 'GET', '/wide/docs', { key: t.db.secretKey, query: { sortBy: field, limit: 1 } });
      // Three lists per field (what earns an index), the fields split between the instances, all at once.
      const answers = await Promise.all(FIELDS.flatMap((f, k) => [0, 1, 2].map(() => list(k % 2 ? other : t.server, f))));
      assert.ok(answers.every((r) => r.status === 200));
      // Every build decided: built (or failed, which the log says).
      for (const f of FIELDS) await waitForIndex(f);
      assert.deepEqual(
        logs.filter((l) => /deadlock|automatic index failed/i.test(l)),
        [],
      );
      for (const f of FIELDS) assert.equal((await waitForIndex(f)).length, 1, `the index on ${f}`);
    } finally {
      await other.close();
    }
  });
});

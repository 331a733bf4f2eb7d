import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/open-store.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { TestStore } from '../helpers/stores.ts';
import { apiClient } from '../helpers/api.ts';
import { svc } from './cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));
const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What must agree inside one consistent copy: the document counts, the change log and the event counter. */
function consistency(file: string, databaseId: string) {
  const db = new Database(file, { readonly: true });
  try {
    const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T;
    return {
      integrity: one<{ integrity_check: string }>('PRAGMA integrity_check').integrity_check,
      documents: one<{ n: number }>('SELECT count(*) AS n FROM documents WHERE database_id = ?', databaseId).n,
      counted: one<{ n: number | null }>('SELECT sum(count) AS n FROM collections WHERE database_id = ?', databaseId).n ?? 0,
      createdMinusDeleted:
        one<{ n: number | null }>(
          "SELECT sum(CASE type WHEN 'document.created' THEN 1 WHEN 'document.deleted' THEN -1 ELSE 0 END) AS n FROM events WHERE database_id = ?",
          databaseId,
        ).n ?? 0,
      events: one<{ n: number }>('SELECT count(*) AS n FROM events WHERE database_id = ?', databaseId).n,
      maxEvent: one<{ n: number | null }>('SELECT max(id) AS n FROM events WHERE database_id = ?', databaseId).n ?? 0,
      counter: one<{ n: number }>('SELECT last_event_id AS n FROM databases WHERE id = ?', databaseId).n,
    };
  } finally {
    db.close();
  }
}

test('svc backup copies a running SQLite store under concurrent writes; the copy is consistent and serves', async () => {
  const server = await startServer('sqlite');
  servers.push(server);
  const db = await server.createDatabase('backed-up');
  const api = apiClient(server, db.secretKey);
  for (let i = 0; i < 50; i++) await api.post('/notes/docs', { i }, 201);

  // Writers: creates, updates and deletes in two collections, several at a time, until the backups are done.
  let writing = true;
  let writes = 0;
  const writer = async (w: number) => {
    while (writing) {
      const doc = await api.post<{ id: string }>(`/c${w % 2}/docs`, { w, at: writes }, 201);
      if (writes % 3 === 0) await api.patch(`/c${w % 2}/docs/${doc.id}`, { edited: true });
      if (writes % 5 === 0) await api.delete(`/c${w % 2}/docs/${doc.id}`);
      writes += 1;
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  const files: string[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const file = join(dir, `copy-${i}.db`);
      const r = await svc(server.db.url, ['--json', 'backup', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout).file, file);
      files.push(file);
    }
  } finally {
    writing = false;
    await Promise.all(writers);
  }
  assert.ok(writes > 0, 'writes ran during the backups');

  for (const file of files) {
    assert.ok(!existsSync(`${file}-wal`), 'the copy is one file');
    const c = consistency(file, db.databaseId);
    assert.equal(c.integrity, 'ok');
    assert.equal(c.counted, c.documents, 'collection counts match the documents');
    assert.equal(c.createdMinusDeleted, c.documents, 'the change log matches the documents');
    assert.equal(c.maxEvent, c.counter, 'the event counter is the last event');
    assert.equal(c.events, c.counter, 'event ids have no gap');
  }

  // The last copy restores: a server on it answers with its documents and numbers new events after its last.
  const last = files.at(-1)!;
  const before = consistency(last, db.databaseId);
  const url = `sqlite:${last}`;
  const store = await openStore(url);
  const restored: TestStore = { kind: 'sqlite', url, store, drop: () => store.close() };
  const again = await startServer('sqlite', { db: restored });
  servers.push(again);
  const api2 = apiClient(again, db.secretKey);
  const notes = await api2.get<{ total: number }>('/notes/docs');
  assert.equal(notes.total, 50);
  await api2.post('/notes/docs', { after: 'restore' }, 201);
  const event = again.changes.at(-1)!;
  assert.equal(event.id, String(before.counter + 1));
  await again.close();
  servers.pop();
  await store.close();
});

test('svc backup on PostgreSQL exits non-zero and names pg_dump', async () => {
  const r = await svc('postgres://nobody@127.0.0.1:1/none', ['backup', join(dir, 'x.db')]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /pg_dump/);
  assert.ok(!existsSync(join(dir, 'x.db')));
});

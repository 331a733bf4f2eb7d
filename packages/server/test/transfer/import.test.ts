import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { newUser } from '../helpers/auth-client.ts';
import { openBulk } from '../../src/store/bulk/bulk.ts';
import { CARRIED, LEFT_BEHIND } from '../../src/transfer/format.ts';
import { svc } from './cli.ts';

forEachStore('svc import is all or nothing', (kind) => {
  const t = useServer(kind);
  const dir = mkdtempSync(join(tmpdir(), 'svc-import-'));
  const file = join(dir, 'export.ndjson');
  let target: TestStore;
  let lines: string[];

  before(async () => {
    const api = apiClient(t.server, t.db.secretKey);
    for (const from of [0, 600]) await api.post('/items/bulk', { documents: Array.from({ length: 600 }, (_, n) => ({ n: from + n })) }, 201);
    await newUser(t.server, t.db.secretKey, 'kept@example.com');
    const r = await svc(t.server.db.url, ['export', '--database', t.db.databaseId], { stdoutFile: file });
    assert.equal(r.code, 0, r.stderr);
    lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    target = await openTestStore(kind);
  });
  after(async () => {
    await target?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Imports `text` into the target store; returns the exit code and the error the CLI printed. */
  const importText = async (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    const r = await svc(target.url, ['--json', 'import'], { stdinFile: f });
    return { code: r.code, error: r.code === 0 ? undefined : (JSON.parse(r.stderr) as { error: { code: string; message: string } }).error, stdout: r.stdout };
  };
  /** Rows the target holds in the tables an import writes. */
  const leftovers = async () => {
    const counts: Record<string, number> = {};
    for (const table of [...CARRIED.map((c) => c.table), 'collections']) {
      counts[table] = Number((await target.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))?.n);
    }
    return counts;
  };
  const nothing = Object.fromEntries([...CARRIED.map((c) => c.table), 'collections'].map((table) => [table, 0]));

  test('a file cut short is refused after its rows were read, and leaves nothing behind', async () => {
    const r = await importText('cut.ndjson', `${lines.slice(0, -300).join('\n')}\n`);
    assert.notEqual(r.code, 0);
    assert.match(r.error!.message, /incomplete/);
    assert.deepEqual(await leftovers(), nothing);
  });

  test('a row that fails late (a duplicate document) rolls back every row before it', async () => {
    const docs = lines.filter((l) => l.startsWith('{"table":"documents"'));
    const end = lines.at(-1)!;
    const r = await importText('dup.ndjson', `${[...lines.slice(0, -1), docs[0], end].join('\n')}\n`);
    assert.notEqual(r.code, 0);
    assert.match(r.error!.message, /the documents rows up to here could not be written/);
    assert.deepEqual(await leftovers(), nothing);
  });

  test('files that are not exports, or rows of another database, or columns this svc lacks, are refused', async () => {
    const garbage = await importText('garbage.ndjson', 'hello\n');
    assert.equal(garbage.error?.code, 'validation_failed');
    const notExport = await importText('other.ndjson', '{"format":"something-else"}\n');
    assert.match(notExport.error!.message, /not an svc export/);
    const empty = await importText('empty.ndjson', '');
    assert.match(empty.error!.message, /empty/);

    const [header, database, ...rest] = lines;
    const stranger = JSON.parse(rest.find((l) => l.startsWith('{"table":"users"'))!);
    stranger.row.database_id = 'someone-else';
    const foreign = await importText('foreign.ndjson', `${[header, database, JSON.stringify(stranger), lines.at(-1)].join('\n')}\n`);
    assert.match(foreign.error!.message, /another database/);

    const newer = JSON.parse(database);
    newer.row.column_of_the_future = 1;
    const future = await importText('future.ndjson', `${[header, JSON.stringify(newer), ...rest].join('\n')}\n`);
    assert.match(future.error!.message, /column_of_the_future.*newer svc/);
    assert.deepEqual(await leftovers(), nothing);
  });

  test('the whole file then imports, with counts rebuilt; the same id again is refused and changes nothing', async () => {
    const ok = await importText('ok.ndjson', `${lines.join('\n')}\n`);
    assert.equal(ok.code, 0, JSON.stringify(ok.error));
    const counts = await leftovers();
    assert.equal(counts.documents, 1200);
    assert.equal(counts.users, 1);
    const collection = await target.store.get<{ count: number }>('SELECT count FROM collections WHERE database_id = ? AND name = ?', [
      t.db.databaseId,
      'items',
    ]);
    assert.equal(Number(collection?.count), 1200);
    const again = await importText('ok.ndjson', `${lines.join('\n')}\n`);
    assert.equal(again.error?.code, 'conflict');
    assert.deepEqual(await leftovers(), counts);
    // Into the store it came from: refused too.
    const home = await svc(t.server.db.url, ['import'], { stdinFile: join(dir, 'ok.ndjson') });
    assert.notEqual(home.code, 0);
    assert.match(home.stderr, /already exists/);
  });

  test('every table of the store is either carried or left behind on purpose', async () => {
    const c = await openBulk(target.url, 'read');
    try {
      const unplaced = (await c.tables()).filter((table) => !CARRIED.some((x) => x.table === table) && !(table in LEFT_BEHIND));
      assert.deepEqual(unplaced, [], 'a new table must be placed in transfer/format.ts (CARRIED or LEFT_BEHIND)');
    } finally {
      await c.close();
    }
  });
});

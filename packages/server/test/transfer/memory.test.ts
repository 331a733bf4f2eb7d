import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingServices, openTestStore, type TestStore } from '../helpers/stores.ts';
import { createDatabase } from '../../src/databases/databases.ts';
import { svc } from './cli.ts';

const PRELOAD = fileURLToPath(new URL('./max-rss.mjs', import.meta.url));
/** The larger database's documents (TRANSFER_MEMORY_DOCS to measure more, e.g. 1000000); the smaller has a tenth. */
const LARGE = Number(process.env.TRANSFER_MEMORY_DOCS ?? 200_000);
/** How much more the peak RSS may be for ten times the documents: a process that held them would need far more. */
const SLACK_MB = 40;

/**
 * Runs `svc` with the peak-RSS preload; returns the peak in MB. A small young generation
 * (--max-semi-space-size=2) keeps the peak about what the process holds rather than how much
 * garbage V8 lets pile up before a scavenge, which grows with the code loaded (the AWS SDK, sharp)
 * and made this measure swing 30-53 MB between runs of the same build. A capped old generation
 * (--max-old-space-size) does the same for the garbage those scavenges promote: uncapped, V8 let
 * it grow with the length of a SQLite import (peak heap ~30 MB larger at ten times the documents,
 * while the heap after a full collection was the same 14 MB at both sizes). The cap also makes a
 * process that did hold the documents run out of memory, which fails the run outright.
 */
async function measured(url: string, args: string[], io: { stdinFile?: string; stdoutFile?: string }): Promise<number> {
  const r = await svc(url, args, { ...io, nodeArgs: ['--max-semi-space-size=2', '--max-old-space-size=64', '--import', PRELOAD] });
  assert.equal(r.code, 0, r.stderr);
  const kb = Number(/max-rss-kb (\d+)/.exec(r.stderr)?.[1]);
  assert.ok(kb > 0, r.stderr);
  return Math.round(kb / 1024);
}

describe('svc export and import stream: peak memory stays flat with ten times the documents', async () => {
  const missing = await missingServices({ postgres: true });
  if (missing) {
    test('memory of export and import', { skip: missing }, () => undefined);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-memory-'));
  const stores: TestStore[] = [];
  after(async () => {
    for (const s of stores) await s.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`SQLite → PostgreSQL → SQLite with ${LARGE / 10} and ${LARGE} documents`, async () => {
    const source = await openTestStore('sqlite');
    const target = await openTestStore('postgres');
    const back = await openTestStore('sqlite');
    stores.push(source, target, back);
    type Peaks = { documents: number; fileMb: number; exportSqliteMb: number; importPostgresMb: number; exportPostgresMb: number; importSqliteMb: number };
    const peaks: Record<string, Peaks> = {};
    for (const n of [LARGE / 10, LARGE]) {
      const { database } = await createDatabase(source.store, `memory-${n}`);
      // Documents of about 400 bytes, written straight into the store: the API would take minutes for this many.
      await source.store.run(
        `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
         INSERT INTO documents (database_id, collection, id, data, created_at, updated_at)
         SELECT ?, 'items', printf('item-%09d', n), json_object('n', n, 'title', 'item ' || n, 'body', hex(randomblob(150)), 'tags', json_array('a', 'b')),
                '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM seq`,
        [n, database.id],
      );
      await source.store.run('INSERT INTO collections (database_id, name, count) VALUES (?, ?, ?)', [database.id, 'items', n]);
      const file = join(dir, `${n}.ndjson`);
      const exportSqliteMb = await measured(source.url, ['export', '--database', database.id], { stdoutFile: file });
      const importPostgresMb = await measured(target.url, ['import'], { stdinFile: file });
      const fileBack = join(dir, `${n}-back.ndjson`);
      const exportPostgresMb = await measured(target.url, ['export', '--database', database.id], { stdoutFile: fileBack });
      const importSqliteMb = await measured(back.url, ['import'], { stdinFile: fileBack });
      for (const s of [target, back]) {
        const row = await s.store.get<{ count: number }>('SELECT count FROM collections WHERE database_id = ?', [database.id]);
        assert.equal(Number(row?.count), n);
      }
      peaks[n] = { documents: n, fileMb: Math.round(statSync(file).size / 2 ** 20), exportSqliteMb, importPostgresMb, exportPostgresMb, importSqliteMb };
    }
    const [small, large] = Object.values(peaks);
    console.log(`peak RSS (MB): ${JSON.stringify(peaks)}`);
    for (const k of ['exportSqliteMb', 'importPostgresMb', 'exportPostgresMb', 'importSqliteMb'] as const) {
      assert.ok(large[k] - small[k] < SLACK_MB, `${k}: ${small[k]} MB for ${small.documents} documents, ${large[k]} MB for ${large.documents}`);
    }
    assert.ok(large.fileMb > 2 * SLACK_MB, 'the larger file is much larger than the slack allowed');
  });
});

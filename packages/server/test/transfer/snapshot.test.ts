import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { svc } from './cli.ts';

forEachStore('svc export reads one snapshot while the server writes', (kind) => {
  const t = useServer(kind);
  const dir = mkdtempSync(join(tmpdir(), 'svc-snapshot-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('every export holds exactly the documents of its last event id, and writers are not held up', async () => {
    const api = apiClient(t.server, t.db.secretKey);
    for (let from = 0; from < 3000; from += 1000)
      await api.post('/items/bulk', { documents: Array.from({ length: 1000 }, (_, n) => ({ n: from + n, pad: 'x'.repeat(200) })) }, 201);
    // Each create is one document and one event, committed together: in any consistent snapshot the
    // number of documents equals the event counter (nothing else writes to this database).
    let writing = true;
    let written = 0;
    const writers = [0, 1, 2].map(async (w) => {
      while (writing) {
        await api.post('/items/docs', { w, at: written }, 201);
        written += 1;
      }
    });
    const files: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const file = join(dir, `${kind}-${i}.ndjson`);
        const r = await svc(t.server.db.url, ['export', '--database', t.db.databaseId], { stdoutFile: file });
        assert.equal(r.code, 0, r.stderr);
        files.push(file);
      }
    } finally {
      writing = false;
      await Promise.all(writers);
    }
    assert.ok(written > 0, 'the server kept writing during the exports');
    const seen = new Set<string>();
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      const end = JSON.parse(lines.at(-1)!) as { lastEventId: string; rows: { documents: number } };
      const documents = lines.filter((l) => l.startsWith('{"table":"documents"')).length;
      assert.equal(documents, end.rows.documents);
      assert.equal(documents, Number(end.lastEventId), `${file}: ${documents} documents for last event id ${end.lastEventId}`);
      seen.add(end.lastEventId);
    }
    assert.ok(seen.size > 1, 'the exports saw the database at different moments');
  });

  test('an unknown database exits non-zero with not_found and writes nothing on standard output', async () => {
    const r = await svc(t.server.db.url, ['--json', 'export', '--database', 'no-such-database']);
    assert.notEqual(r.code, 0);
    assert.equal(JSON.parse(r.stderr).error.code, 'not_found');
    assert.equal(r.stdout, '');
  });
});

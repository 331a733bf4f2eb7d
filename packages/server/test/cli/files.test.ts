import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { runSvc } from '../helpers/cli.ts';
import { bytesEnv, send } from '../files/helpers.ts';

/** `svc files get|set`: a bucket's settings (API.md §12 "Buckets' settings") from the command line, applied by the running server at once. */
forEachStore('svc files', (kind) => {
  const t = useServer(kind, () => ({ env: bytesEnv('local') }));
  const run = (args: string[]) => runSvc(t.server.db.url, args);
  const upload = (bucket: string, body: Buffer, type: string) =>
    send(t.server, 'POST', `/files/${bucket}`, { key: t.db.secretKey, body, headers: { 'content-type': type }, query: { name: 'f' } });

  test('files set changes only the settings given (none removes one), files get prints them with what the buckets hold; the server applies them at once', async () => {
    const db = t.db.databaseId;
    const set = await run([
      'files',
      'set',
      '--database',
      db,
      '--bucket',
      'pics',
      '--public',
      'true',
      '--max-size',
      '1000',
      '--content-types',
      'image/*,application/pdf',
      '--thumbs',
      '400x300',
    ]);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /Bucket pics of database/);
    const refused = await upload('pics', Buffer.from('hello'), 'text/plain');
    assert.equal(refused.status, 415, 'contentTypes applied by the running server');
    const tooBig = await upload('pics', Buffer.alloc(2000), 'application/pdf');
    assert.equal(tooBig.status, 413, 'maxSize applied');
    const pdf = await upload('pics', Buffer.from('%PDF-1.4 a small one'), 'application/pdf');
    assert.equal(pdf.status, 201, pdf.bytes.toString());
    const open = await fetch(`${t.server.url}/v1/public/${db}/pics/${pdf.json.id}`);
    assert.equal(open.status, 200, 'public: true');
    await open.arrayBuffer();

    const changed = await run(['files', 'set', '--database', db, '--bucket', 'pics', '--max-size', 'none', '--thumbs', '200x0,400x300f']);
    assert.equal(changed.code, 0, changed.stderr);
    const got = await run(['--json', 'files', 'get', '--database', db, '--bucket', 'pics']);
    assert.equal(got.code, 0, got.stderr);
    const shown = JSON.parse(got.stdout);
    assert.deepEqual(shown.files, { pics: { public: true, contentTypes: ['image/*', 'application/pdf'], thumbs: ['200x0', '400x300f'] } });
    assert.deepEqual(shown.buckets, [{ name: 'pics', count: 1, bytes: pdf.json.size }]);
    assert.equal(shown.quota.bytes, pdf.json.size);
    assert.equal(typeof shown.quota.limit, 'number');
    assert.equal((await upload('pics', Buffer.alloc(2000), 'application/pdf')).status, 201, 'maxSize removed');

    const bad = await run(['files', 'set', '--database', db, '--bucket', 'pics', '--thumbs', '5000x1']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /validation_failed/);
    assert.match(bad.stderr, /\/settings\/files\/pics\/thumbs/);
    const neither = await run(['files', 'set', '--database', db, '--bucket', 'pics']);
    assert.equal(neither.code, 1);

    const removed = await run(['files', 'set', '--database', db, '--bucket', 'pics', '--remove']);
    assert.equal(removed.code, 0, removed.stderr);
    const after = await run(['--json', 'files', 'get', '--database', db]);
    assert.deepEqual(JSON.parse(after.stdout).files, {});
    const closed = await fetch(`${t.server.url}/v1/public/${db}/pics/${pdf.json.id}`);
    assert.equal(closed.status, 404, 'no longer public');
    await closed.arrayBuffer();
  });
});

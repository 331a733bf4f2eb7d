import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';
import { forEachStoreAndBytes, send, sha256, uploadRaw } from './helpers.ts';

const png = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();

forEachStoreAndBytes('files: routes (API.md §12)', (kind, env) => {
  const t = useServer(kind, () => ({ env: { ...env(), LIMIT_FILE_BYTES: String(256 * 1024), LIMIT_STORAGE_BYTES_PER_DATABASE: String(1024 * 1024) } }));

  test('a raw upload is stored, read back byte for byte, and carries its version as ETag', async () => {
    const bytes = randomBytes(70_000);
    const r = await uploadRaw(t.server, t.db.secretKey, 'docs', bytes, 'report.bin', 'Application/Octet-Stream; x=1');
    assert.equal(r.status, 201, r.bytes.toString());
    const f = r.json;
    assert.deepEqual(Object.keys(f).sort(), ['bucket', 'contentType', 'createdAt', 'id', 'metadata', 'name', 'owner', 'sha256', 'size', 'updatedAt']);
    assert.equal(f.size, bytes.length);
    assert.equal(f.sha256, sha256(bytes));
    assert.equal(f.contentType, 'application/octet-stream');
    assert.equal(f.owner, null);
    assert.deepEqual(f.metadata, {});
    assert.match(String(r.headers.get('etag')), /^"\d+"$/);
    const got = await send(t.server, 'GET', `/files/docs/${f.id}`, { key: t.db.secretKey });
    assert.equal(got.status, 200);
    assert.deepEqual(got.json, f);
    assert.equal(got.headers.get('etag'), r.headers.get('etag'));
    const body = await send(t.server, 'GET', `/files/docs/${f.id}/content`, { key: t.db.secretKey });
    assert.equal(body.status, 200);
    assert.ok(body.bytes.equals(bytes), 'the stored bytes are the uploaded ones');
    assert.equal(body.headers.get('etag'), `"${f.sha256}"`);
  });

  test('multipart: metadata part then file part; the signature decides the type of a PNG declared as HTML', async () => {
    const image = await png();
    const form = new FormData();
    form.append('metadata', JSON.stringify({ album: 'trip', n: 1 }));
    form.append('file', new Blob([new Uint8Array(image)], { type: 'text/html' }), 'photo.png');
    const r = await send(t.server, 'POST', '/files/photos', { key: t.db.secretKey, body: form });
    assert.equal(r.status, 201, r.bytes.toString());
    assert.equal(r.json.contentType, 'image/png');
    assert.equal(r.json.name, 'photo.png');
    assert.deepEqual(r.json.metadata, { album: 'trip', n: 1 });
    assert.equal(r.json.sha256, sha256(image));
  });

  test('multipart refusals: a second file, a file before metadata, another part, a path in the name', async () => {
    const f1 = new FormData();
    f1.append('file', new Blob(['a']), 'a.txt');
    f1.append('file', new Blob(['b']), 'b.txt');
    assert.equal((await send(t.server, 'POST', '/files/m', { key: t.db.secretKey, body: f1 })).status, 400);
    const f2 = new FormData();
    f2.append('file', new Blob(['a']), 'a.txt');
    f2.append('metadata', '{}');
    assert.equal((await send(t.server, 'POST', '/files/m', { key: t.db.secretKey, body: f2 })).status, 400);
    const f3 = new FormData();
    f3.append('other', 'x');
    f3.append('file', new Blob(['a']), 'a.txt');
    assert.equal((await send(t.server, 'POST', '/files/m', { key: t.db.secretKey, body: f3 })).status, 400);
    const f4 = new FormData();
    f4.append('file', new Blob(['a']), '../etc/passwd');
    const r4 = await send(t.server, 'POST', '/files/m', { key: t.db.secretKey, body: f4 });
    assert.equal(r4.status, 400);
    assert.equal(r4.json.error.code, 'validation_failed');
    const list = await send(t.server, 'GET', '/files/m', { key: t.db.secretKey });
    assert.equal(list.json.total, 0, 'nothing refused was recorded');
  });

  test('names: none, a slash, a backslash, a control or format character, over 255 characters → 400', async () => {
    for (const name of ['', 'a/b', 'a\\b', 'a\u0007b', 'a\u202eb', 'x'.repeat(256)]) {
      const r = await send(t.server, 'POST', '/files/n', {
        key: t.db.secretKey,
        body: Buffer.from('x'),
        headers: { 'content-type': 'text/plain' },
        query: name ? { name } : {},
      });
      assert.equal(r.status, 400, `name ${JSON.stringify(name)}`);
      assert.equal(r.json.error.code, 'validation_failed');
    }
    const ok = await uploadRaw(t.server, t.db.secretKey, 'n', Buffer.from('x'), 'é 😀 ok.txt', 'text/plain');
    assert.equal(ok.status, 201);
  });

  test('over LIMIT_FILE_BYTES → 413; a Content-Encoding → 415; nothing kept', async () => {
    const r = await uploadRaw(t.server, t.db.secretKey, 'big', randomBytes(256 * 1024 + 1), 'big.bin');
    assert.equal(r.status, 413);
    assert.equal(r.json.error.code, 'payload_too_large');
    const g = await uploadRaw(t.server, t.db.secretKey, 'big', Buffer.from('x'), 'x.bin', 'text/plain', { 'content-encoding': 'gzip' });
    assert.equal(g.status, 415);
    const list = await send(t.server, 'GET', '/files/big', { key: t.db.secretKey });
    assert.equal(list.json.total, 0);
  });

  test('the per-database quota → 413 quota_exceeded', async () => {
    const db = await t.server.createDatabase();
    for (let i = 0; i < 4; i++) assert.equal((await uploadRaw(t.server, db.secretKey, 'q', randomBytes(250 * 1024), `f${i}`)).status, 201);
    const over = await uploadRaw(t.server, db.secretKey, 'q', randomBytes(50 * 1024), 'over');
    assert.equal(over.status, 413);
    assert.equal(over.json.error.code, 'quota_exceeded');
    const list = await send(t.server, 'GET', '/files/q', { key: db.secretKey, query: { limit: '0' } });
    assert.equal(list.json.total, 4);
  });

  test('two concurrent uploads cannot both pass the quota: it is checked in the transaction that records the file', async () => {
    const db = await t.server.createDatabase();
    for (let i = 0; i < 3; i++) assert.equal((await uploadRaw(t.server, db.secretKey, 'c', randomBytes(250 * 1024), `f${i}`)).status, 201);
    // 750 KiB stored of 1 MiB: either 200 KiB upload fits alone, not both.
    const answers = await Promise.all([0, 1, 2, 3].map((i) => uploadRaw(t.server, db.secretKey, 'c', randomBytes(200 * 1024), `race${i}`)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 413, 413, 413]);
    const buckets = await send(t.server, 'GET', '/buckets', { key: db.secretKey });
    assert.ok(buckets.json.buckets[0].bytes <= 1024 * 1024);
  });

  test('the quota follows every change of the files: deletions, renames, refusals, and other writes of the database in between', async () => {
    const db = await t.server.createDatabase();
    const up = async (size: number, name: string) => (await uploadRaw(t.server, db.secretKey, 'u', randomBytes(size), name)).status;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await uploadRaw(t.server, db.secretKey, 'u', randomBytes(250 * 1024), `f${i}`);
      assert.equal(r.status, 201);
      ids.push(r.json.id);
    }
    // 1000 KiB of 1024: 24 KiB fit, 25 do not.
    assert.equal(await up(25 * 1024, 'over'), 413);
    assert.equal(await up(24 * 1024, 'fits'), 201);
    assert.equal(await up(1, 'full'), 413);
    assert.equal((await send(t.server, 'DELETE', `/files/u/${ids[0]}`, { key: db.secretKey })).status, 204);
    const renamed = await send(t.server, 'PATCH', `/files/u/${ids[1]}`, {
      key: db.secretKey,
      body: JSON.stringify({ name: 'renamed' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(renamed.status, 200, renamed.bytes.toString());
    // A document write takes an event of the same database between two uploads.
    const doc = await send(t.server, 'POST', '/notes/docs', {
      key: db.secretKey,
      body: JSON.stringify({ a: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(doc.status, 201, doc.bytes.toString());
    assert.equal(await up(250 * 1024 + 1, 'over-again'), 413);
    assert.equal(await up(250 * 1024, 'back'), 201);
    assert.equal(await up(1, 'full-again'), 413);
    const buckets = await send(t.server, 'GET', '/buckets', { key: db.secretKey });
    assert.equal(buckets.json.buckets[0].bytes, 1000 * 1024 + 24 * 1024);
  });

  test('lists take the §1 query language over file records; buckets count files and bytes', async () => {
    const db = await t.server.createDatabase();
    for (const [name, size] of [
      ['a.txt', 10],
      ['b.txt', 30],
      ['c.txt', 20],
    ] as const)
      assert.equal((await uploadRaw(t.server, db.secretKey, 'l', randomBytes(size), name, 'text/plain')).status, 201);
    const bySize = await send(t.server, 'GET', '/files/l', {
      key: db.secretKey,
      query: { sortBy: 'size', sortOrder: 'desc', filter: JSON.stringify({ size: { $gte: 20 } }) },
    });
    assert.equal(bySize.status, 200, bySize.bytes.toString());
    assert.deepEqual(
      bySize.json.files.map((f: { name: string }) => f.name),
      ['b.txt', 'c.txt'],
    );
    assert.equal(bySize.json.total, 2);
    const page1 = await send(t.server, 'GET', '/files/l', { key: db.secretKey, query: { limit: '2', sortBy: 'name' } });
    assert.deepEqual(
      page1.json.files.map((f: { name: string }) => f.name),
      ['a.txt', 'b.txt'],
    );
    const page2 = await send(t.server, 'GET', '/files/l', { key: db.secretKey, query: { limit: '2', sortBy: 'name', cursor: page1.json.nextCursor } });
    assert.deepEqual(
      page2.json.files.map((f: { name: string }) => f.name),
      ['c.txt'],
    );
    assert.equal(page2.json.nextCursor, null);
    const bad = await send(t.server, 'GET', '/files/l', { key: db.secretKey, query: { filter: '{"size":{"$foo":1}}' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.code, 'invalid_filter');
    const buckets = await send(t.server, 'GET', '/buckets', { key: db.secretKey });
    assert.deepEqual(buckets.json, { buckets: [{ name: 'l', count: 3, bytes: 60 }] });
  });

  test('PATCH renames and replaces metadata under If-Match; DELETE with a stale If-Match → 412; then 404', async () => {
    const up = await uploadRaw(t.server, t.db.secretKey, 'p', Buffer.from('hello'), 'a.txt', 'text/plain');
    const v1 = up.headers.get('etag')!;
    const patched = await send(t.server, 'PATCH', `/files/p/${up.json.id}`, {
      key: t.db.secretKey,
      body: JSON.stringify({ name: 'b.txt', metadata: { k: 'v' } }),
      headers: { 'content-type': 'application/json', 'if-match': v1 },
    });
    assert.equal(patched.status, 200, patched.bytes.toString());
    assert.equal(patched.json.name, 'b.txt');
    assert.deepEqual(patched.json.metadata, { k: 'v' });
    const v2 = patched.headers.get('etag')!;
    assert.ok(BigInt(v2.slice(1, -1)) > BigInt(v1.slice(1, -1)), 'a write moves the version');
    const stale = await send(t.server, 'DELETE', `/files/p/${up.json.id}`, { key: t.db.secretKey, headers: { 'if-match': v1 } });
    assert.equal(stale.status, 412);
    assert.equal(stale.json.error.code, 'precondition_failed');
    assert.equal(stale.headers.get('etag'), v2);
    assert.equal(stale.json.file.name, 'b.txt');
    const del = await send(t.server, 'DELETE', `/files/p/${up.json.id}`, { key: t.db.secretKey, headers: { 'if-match': v2 } });
    assert.equal(del.status, 204);
    for (const path of [`/files/p/${up.json.id}`, `/files/p/${up.json.id}/content`]) {
      assert.equal((await send(t.server, 'GET', path, { key: t.db.secretKey })).status, 404);
    }
  });
});

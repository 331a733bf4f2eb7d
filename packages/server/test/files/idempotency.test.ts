import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { useServer } from '../helpers/server.ts';
import { openByteStore } from '../../src/infra/bytes/open.ts';
import { loadConfig } from '../../src/config.ts';
import type { ByteStore } from '../../src/infra/bytes/bytes.ts';
import { forEachStoreAndBytes, send, uploadRaw } from './helpers.ts';

/** The byte store a server with this environment uses, opened from outside to look at it. */
const bytesOf = (env: Record<string, string>): ByteStore => openByteStore(loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db', ...env }).files);

async function keys(bytes: ByteStore): Promise<string[]> {
  const out: string[] = [];
  for await (const o of bytes.list()) out.push(o.key);
  return out.sort();
}

/** Issue 26: Idempotency-Key on POST /files/:bucket (API.md §1.2, §12). */
forEachStoreAndBytes('files: Idempotency-Key on uploads', (kind, env) => {
  const t = useServer(kind, () => ({ env: { ...env(), LIMIT_STORAGE_BYTES_PER_DATABASE: '10000' } }));
  const keyed = (k: string) => ({ 'idempotency-key': `${kind}-${k}` });
  const count = async (bucket: string) => (await send(t.server, 'GET', `/files/${bucket}`, { key: t.db.secretKey })).json.total as number;

  test('a raw upload retried with its key is replayed: the same record, bytes and ETag, and nothing stored', async () => {
    const bytes = bytesOf(env());
    const body = randomBytes(5_000);
    const first = await uploadRaw(t.server, t.db.secretKey, 'idem', body, 'a.bin', 'application/octet-stream', keyed('raw'));
    assert.equal(first.status, 201, first.bytes.toString());
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const stored = await keys(bytes);
    const events = t.server.changes.length;
    const again = await uploadRaw(t.server, t.db.secretKey, 'idem', body, 'a.bin', 'application/octet-stream', keyed('raw'));
    assert.equal(again.status, 201, again.bytes.toString());
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.ok(again.bytes.equals(first.bytes), 'the same answer, byte for byte');
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    assert.deepEqual(await keys(bytes), stored, 'the replay left no bytes behind');
    assert.equal(t.server.changes.length, events, 'no event');
    assert.equal(await count('idem'), 1);
    await bytes.close();
  });

  test('another body, name or bucket with a used key → 422 and its bytes removed; a malformed key → 400', async () => {
    const bytes = bytesOf(env());
    const body = randomBytes(300);
    assert.equal((await uploadRaw(t.server, t.db.secretKey, 'reuse', body, 'r.bin', 'application/octet-stream', keyed('reuse'))).status, 201);
    const stored = await keys(bytes);
    for (const [bucket, b, name] of [
      ['reuse', randomBytes(300), 'r.bin'],
      ['reuse', body, 'other-name.bin'],
      ['elsewhere', body, 'r.bin'],
    ] as const) {
      const r = await uploadRaw(t.server, t.db.secretKey, bucket, b, name, 'application/octet-stream', keyed('reuse'));
      assert.equal(r.status, 422, r.bytes.toString());
      assert.equal(r.json.error.code, 'idempotency_key_reused');
    }
    // A document write with the key is another request of the same caller too.
    const doc = await send(t.server, 'POST', '/reuse/docs', {
      key: t.db.secretKey,
      body: '{}',
      headers: { 'content-type': 'application/json', ...keyed('reuse') },
    });
    assert.equal(doc.status, 422);
    assert.deepEqual(await keys(bytes), stored, 'the refused uploads left no bytes behind');
    assert.equal(await count('reuse'), 1);
    const bad = await uploadRaw(t.server, t.db.secretKey, 'reuse', body, 'r.bin', 'application/octet-stream', { 'idempotency-key': '' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.code, 'validation_failed');
    await bytes.close();
  });

  test('multipart: a retry with another boundary is the same upload; other metadata is another', async () => {
    const form = (metadata: object) => {
      const f = new FormData();
      f.append('metadata', JSON.stringify(metadata));
      f.append('file', new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'application/octet-stream' }), 'm.bin');
      return f;
    };
    const up = (metadata: object) => send(t.server, 'POST', '/files/multi', { key: t.db.secretKey, body: form(metadata), headers: keyed('multi') });
    const first = await up({ n: 1 });
    assert.equal(first.status, 201, first.bytes.toString());
    const again = await up({ n: 1 });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.ok(again.bytes.equals(first.bytes));
    assert.equal((await up({ n: 2 })).status, 422);
    assert.equal(await count('multi'), 1);
  });

  test('a refused upload (over the quota) records nothing: its key is free again; without a key, two uploads are two files', async () => {
    const db = await t.server.createDatabase();
    assert.equal((await uploadRaw(t.server, db.secretKey, 'q', randomBytes(6_000), 'a.bin', 'application/octet-stream', keyed('first'))).status, 201);
    const over = await uploadRaw(t.server, db.secretKey, 'q', randomBytes(6_000), 'b.bin', 'application/octet-stream', keyed('over'));
    assert.equal(over.status, 413);
    assert.equal(over.json.error.code, 'quota_exceeded');
    // Another request with the key: not 422, the failed one released it.
    const later = await uploadRaw(t.server, db.secretKey, 'q', randomBytes(1_000), 'c.bin', 'application/octet-stream', keyed('over'));
    assert.equal(later.status, 201, later.bytes.toString());
    assert.equal(later.headers.get('idempotent-replayed'), null);
    const same = randomBytes(100);
    for (let i = 0; i < 2; i++) assert.equal((await uploadRaw(t.server, db.secretKey, 'plain', same, 'same.bin')).status, 201);
    assert.equal((await send(t.server, 'GET', '/files/plain', { key: db.secretKey })).json.total, 2);
  });
});

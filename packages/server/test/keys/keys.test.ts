import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { forEachStore, openTestStore } from '../helpers/stores.ts';
import { startServer, useServer, type TestServer } from '../helpers/server.ts';
import { apiClient, assertError } from '../helpers/api.ts';

const KEY = /^svc_(sk|pk)_[A-Za-z0-9]{32,}$/;
type KeyInfo = { id: string; kind: string; name: string | null; hint: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null };

/** The keys of a database, as an operator lists them. */
const listKeys = async (server: TestServer, databaseId: string) =>
  (await apiClient(server, () => server.operatorToken()).get<{ keys: KeyInfo[] }>(`/admin/databases/${databaseId}/keys`)).keys;

forEachStore('API keys', (kind) => {
  const t = useServer(kind);
  const op = apiClient(
    () => t.server,
    () => t.server.operatorToken(),
  );
  const anon = apiClient(() => t.server);
  const as = (key: string) => apiClient(() => t.server, key);

  test('keys are svc_sk_/svc_pk_ followed by at least 32 base62 characters, all different', async () => {
    const { db } = t;
    assert.match(db.secretKey, KEY);
    assert.ok(db.secretKey.startsWith('svc_sk_'));
    assert.match(db.publicKey, KEY);
    assert.ok(db.publicKey.startsWith('svc_pk_'));
    const keys = new Set([db.secretKey, db.publicKey]);
    for (const k of ['secret', 'public', 'secret'] as const) {
      const created = await op.post<KeyInfo & { key: string }>(`/admin/databases/${db.databaseId}/keys`, { kind: k, name: `n-${k}` }, 201);
      assert.equal(created.kind, k);
      assert.equal(created.name, `n-${k}`);
      assert.match(created.key, k === 'secret' ? /^svc_sk_[A-Za-z0-9]{32,}$/ : /^svc_pk_[A-Za-z0-9]{32,}$/);
      keys.add(created.key);
    }
    assert.equal(keys.size, 5);
    await op.post(`/admin/databases/${db.databaseId}/keys`, { kind: 'admin' }, 400);
  });

  test('a listing shows id, kind, name, hint (prefix…last 4), createdAt, lastUsedAt, revokedAt; a public key whole, never a secret key', async () => {
    const { db } = t;
    const r = await op.request('GET', `/admin/databases/${db.databaseId}/keys`);
    assert.equal(r.status, 200);
    const keys = (r.json as { keys: Array<KeyInfo & { key?: string }> }).keys;
    const secret = keys.find((k) => k.id === db.secretKeyId)!;
    const pub = keys.find((k) => k.id === db.publicKeyId)!;
    assert.deepEqual(Object.keys(secret).sort(), ['createdAt', 'hint', 'id', 'kind', 'lastUsedAt', 'name', 'revokedAt']);
    assert.deepEqual(Object.keys(pub).sort(), ['createdAt', 'hint', 'id', 'key', 'kind', 'lastUsedAt', 'name', 'revokedAt']);
    assert.equal(secret.kind, 'secret');
    assert.equal(pub.kind, 'public');
    assert.equal(pub.key, db.publicKey, 'a public key is shown again, whole');
    assert.equal(secret.hint, `svc_sk_…${db.secretKey.slice(-4)}`);
    assert.equal(pub.hint, `svc_pk_…${db.publicKey.slice(-4)}`);
    assert.match(secret.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(secret.revokedAt, null);
    assert.ok(!r.text.includes(db.secretKey), 'the secret key is never listed');
    assert.ok(!r.text.includes(db.secretKey.slice(7, 20)), 'nor a long part of it');

    // Public keys made later are listed whole too, revoked ones included; secret keys never.
    const later = await op.post<{ id: string; key: string }>(`/admin/databases/${db.databaseId}/keys`, { kind: 'public', name: 'web' }, 201);
    const laterSecret = await op.post<{ id: string; key: string }>(`/admin/databases/${db.databaseId}/keys`, { kind: 'secret' }, 201);
    await op.delete(`/admin/databases/${db.databaseId}/keys/${later.id}`, 204);
    const again = await op.request('GET', `/admin/databases/${db.databaseId}/keys`);
    const listed = (again.json as { keys: Array<KeyInfo & { key?: string }> }).keys;
    assert.equal(listed.find((k) => k.id === later.id)!.key, later.key);
    assert.ok(listed.find((k) => k.id === later.id)!.revokedAt);
    assert.equal(listed.find((k) => k.id === laterSecret.id)!.key, undefined);
    assert.ok(!again.text.includes(laterSecret.key.slice(7)), 'no secret key, old or new');
  });

  test('creating a database also creates its first public key: shown at creation, listed again, and it reads', async () => {
    const created = await op.post<{
      database: { id: string };
      key: { id: string; kind: string; key: string };
      publicKey: { id: string; kind: string; name: string; key: string };
    }>('/admin/databases', { name: 'with-public' }, 201);
    assert.equal(created.key.kind, 'secret');
    assert.equal(created.publicKey.kind, 'public');
    assert.match(created.publicKey.key, /^svc_pk_[A-Za-z0-9]{32,}$/);
    const { keys } = await op.get<{ keys: Array<KeyInfo & { key?: string }> }>(`/admin/databases/${created.database.id}/keys`);
    assert.deepEqual(
      keys.map((k) => [k.id, k.kind, k.key]).sort(),
      [
        [created.key.id, 'secret', undefined],
        [created.publicKey.id, 'public', created.publicKey.key],
      ].sort(),
    );
    await as(created.key.key).post('/notes/docs', { id: 'n1' }, 201);
    await as(created.publicKey.key).get('/notes/docs/n1', 200);
    assertError(await as(created.publicKey.key).request('POST', '/notes/docs', { body: { a: 1 } }), 403, 'read_only_key');
  });

  test('only a SHA-256 of a secret key is stored: its text is nowhere in api_keys (nor, on SQLite, in the files); a public key is kept whole', async () => {
    const { db } = t;
    const store = t.server.db;
    const rows = await store.store.all<Record<string, unknown>>('SELECT * FROM api_keys WHERE database_id = ?', [db.databaseId]);
    const mine = rows.find((r) => r.id === db.secretKeyId)!;
    assert.equal(mine.key_hash, createHash('sha256').update(db.secretKey).digest('hex'));
    assert.equal(mine.public_key, null);
    assert.equal(rows.find((r) => r.id === db.publicKeyId)!.public_key, db.publicKey);
    const dump = JSON.stringify(rows);
    assert.ok(!dump.includes(db.secretKey.slice(7)), 'no column holds the secret key or its random part');
    assert.ok(!dump.includes(db.secretKey.slice(7, 19)));
    if (kind === 'sqlite') {
      const dir = dirname(store.url.slice('sqlite:'.length));
      const bytes = readdirSync(dir)
        .map((f) => readFileSync(`${dir}/${f}`).toString('latin1'))
        .join('');
      assert.ok(bytes.length > 0);
      assert.ok(!bytes.includes(db.secretKey.slice(7)), 'not in the database, WAL or journal');
    }
  });

  test('no key → 401 missing_api_key; unknown, malformed or altered keys → 401 invalid_api_key', async () => {
    const { db } = t;
    assertError(await anon.request('GET', '/posts/docs'), 401, 'missing_api_key');
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/posts/docs', { a: 1 }],
      ['GET', '/posts/docs/x', undefined],
      ['PATCH', '/posts/docs/x', { a: 1 }],
      ['DELETE', '/posts/docs/x', undefined],
      ['POST', '/posts/bulk', { documents: [{}] }],
      ['GET', '/collections', undefined],
    ];
    for (const [method, path, body] of routes) assertError(await anon.request(method, path, { body }), 401, 'missing_api_key', `${method} ${path}`);
    assert.equal((await as(db.secretKey).get<{ total: number }>('/posts/docs')).total, 0, 'nothing was written');
    const flip = (k: string) => k.slice(0, -1) + (k.endsWith('A') ? 'B' : 'A');
    const invalid = [
      `svc_sk_${'A'.repeat(40)}`,
      flip(db.secretKey),
      flip(db.publicKey),
      db.secretKey.slice(0, -1),
      `${db.secretKey}x`,
      db.secretKey.toUpperCase(),
      db.secretKey.replace('svc_sk_', 'svc_pk_'),
      'svc_sk_short',
      'garbage',
      'null',
      "' OR 1=1 --",
      db.secretKey.slice(7),
    ];
    for (const key of invalid) assertError(await as(key).request('GET', '/posts/docs'), 401, 'invalid_api_key', key);
    for (const authorization of ['Basic ' + Buffer.from('a:b').toString('base64'), 'Bearer', `Token ${db.secretKey}`, `Bearer ${db.secretKey} extra`]) {
      assertError(await anon.request('GET', '/posts/docs', { headers: { authorization } }), 401, 'invalid_api_key', authorization);
    }
    await as(db.secretKey).get('/posts/docs', 200); // the real key still works
  });

  test('a revoked key gets 401 on the very next request; the other keys keep working', async () => {
    const { db } = t;
    const other = await t.server.createDatabase();
    const otherSecret = as(other.secretKey);
    await otherSecret.post('/posts/docs', { a: 1 }, 201);
    await as(other.publicKey).get('/posts/docs', 200);
    // A key can't be revoked through another database.
    await op.delete(`/admin/databases/${db.databaseId}/keys/${other.secretKeyId}`, 404);
    await otherSecret.get('/posts/docs', 200);
    await op.delete(`/admin/databases/${other.databaseId}/keys/${other.secretKeyId}`, 204);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { a: 2 }],
    ] as const) {
      assertError(await otherSecret.request(method, '/posts/docs', { body }), 401, 'invalid_api_key', method);
    }
    await as(other.publicKey).get('/posts/docs', 200);
    const listed = (await listKeys(t.server, other.databaseId)).find((k) => k.id === other.secretKeyId)!;
    assert.match(listed.revokedAt ?? '', /^\d{4}-\d{2}-\d{2}T/);
    await op.delete(`/admin/databases/${other.databaseId}/keys/nope`, 404);
  });

  test("a deleted database's keys get 401 and its data is gone", async () => {
    const gone = await t.server.createDatabase();
    await as(gone.secretKey).post('/posts/bulk', { documents: [{ a: 1 }, { a: 2 }] }, 201);
    await op.delete(`/admin/databases/${gone.databaseId}`, 204);
    for (const key of [gone.secretKey, gone.publicKey]) assertError(await as(key).request('GET', '/posts/docs'), 401, 'invalid_api_key');
    for (const table of ['documents', 'api_keys', 'events', 'collections']) {
      const n = await t.server.db.store.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE database_id = ?`, [gone.databaseId]);
      assert.equal(Number(n?.n), 0, table);
    }
  });

  // Its own store, taken back to before migration 0009, to hold a public key made then.
  test('a public key created before public keys were kept is listed without `key` (it cannot be recovered) and keeps working', async () => {
    const store = await openTestStore(kind);
    let server: TestServer | undefined;
    try {
      const first = await startServer(kind, { db: store });
      const fresh = await first.createDatabase().finally(() => first.close());
      const old = { id: 'legacy-public-key', key: `svc_pk_${'L'.repeat(40)}` };
      // Undo migration 0009, store a public key as the older code did (hash only), then migrate again.
      await store.store.run('ALTER TABLE api_keys DROP COLUMN public_key');
      await store.store.run('DELETE FROM schema_migrations WHERE version = 9');
      await store.store.run('INSERT INTO api_keys (id, database_id, kind, name, key_hash, hint, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        old.id,
        fresh.databaseId,
        'public',
        'old',
        createHash('sha256').update(old.key).digest('hex'),
        `svc_pk_…${old.key.slice(-4)}`,
        new Date().toISOString(),
      ]);
      await store.store.migrate();
      server = await startServer(kind, { db: store });
      const keys = (
        await apiClient(server, () => server!.operatorToken()).get<{ keys: Array<KeyInfo & { key?: string }> }>(`/admin/databases/${fresh.databaseId}/keys`)
      ).keys;
      const legacy = keys.find((k) => k.id === old.id)!;
      assert.equal(legacy.kind, 'public');
      assert.equal(legacy.hint, `svc_pk_…LLLL`);
      assert.equal('key' in legacy, false, 'only its hash was ever stored');
      assert.equal(keys.filter((k) => k.kind === 'public' && k.key).length, 0, 'the column was dropped and re-added: no key survived');
      await apiClient(server, old.key).get('/posts/docs', 200); // it still reads
    } finally {
      await server?.close();
      await store.drop();
    }
  });

  // Its own store and two servers in turn: the first must close (flushing the tracker) before the second reads.
  test('lastUsedAt is set once a key is used (written in batches; flushed at shutdown)', async () => {
    const store = await openTestStore(kind);
    let server = await startServer(kind, { db: store });
    try {
      const fresh = await server.createDatabase();
      const unused = (await listKeys(server, fresh.databaseId)).map((k) => k.lastUsedAt);
      assert.deepEqual(unused, [null, null], 'never used: null');
      const t0 = new Date().toISOString();
      for (let i = 0; i < 5; i += 1) await apiClient(server, fresh.secretKey).get('/posts/docs', 200);
      await server.close(); // flushes the tracker
      server = await startServer(kind, { db: store });
      const keys = await listKeys(server, fresh.databaseId);
      const used = keys.find((k) => k.id === fresh.secretKeyId)!;
      assert.ok(used.lastUsedAt && used.lastUsedAt >= t0, `lastUsedAt ${used.lastUsedAt} ≥ ${t0}`);
      assert.equal(keys.find((k) => k.id === fresh.publicKeyId)!.lastUsedAt, null, 'the unused key stays null');
    } finally {
      await server.close();
      await store.drop();
    }
  });
});

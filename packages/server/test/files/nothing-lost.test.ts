import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import Database from 'better-sqlite3';
import { startServer, useServer, type TestServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { startProcess } from '../helpers/process.ts';
import { forEachStore, openTestStore, type TestStore } from '../helpers/stores.ts';
import { ManualClock } from '../../src/infra/clock.ts';
import { openByteStore } from '../../src/infra/bytes/open.ts';
import { loadConfig } from '../../src/config.ts';
import type { ByteStore } from '../../src/infra/bytes/bytes.ts';
import { bytesEnv, forEachStoreAndBytes, send, startS3, uploadRaw, type S3Server } from './helpers.ts';

/** The byte store a server with this environment uses, opened from outside to look at it. */
const bytesOf = (env: Record<string, string>): ByteStore => openByteStore(loadConfig({ DATABASE_URL: 'sqlite:/tmp/unused.db', ...env }).files);

async function keys(bytes: ByteStore): Promise<string[]> {
  const out: string[] = [];
  for await (const o of bytes.list()) out.push(o.key);
  return out.sort();
}

/** API.md §12 "Nothing lost, nothing left behind". */
forEachStoreAndBytes('files: nothing lost, nothing left behind', (kind, env) => {
  const clock = new ManualClock();
  const t = useServer(kind, () => ({ clock, env: { ...env(), LIMIT_STORAGE_BYTES_PER_DATABASE: '1000', FILES_SWEEP_EVERY_MS: '100' } }));

  test('a refused record keeps no bytes: over the quota (the failed commit), a type the bucket refuses', async () => {
    const bytes = bytesOf(env());
    const before = await keys(bytes);
    assert.equal((await uploadRaw(t.server, t.db.secretKey, 'q', randomBytes(900), 'a')).status, 201);
    const kept = await keys(bytes);
    const over = await uploadRaw(t.server, t.db.secretKey, 'q', randomBytes(200), 'b');
    assert.equal(over.status, 413);
    assert.equal(over.json.error.code, 'quota_exceeded');
    assert.deepEqual(await keys(bytes), kept, 'the refused upload left nothing in the byte store');
    assert.equal(kept.length, before.length + 1);
    await bytes.close();
  });

  test('a deletion removes the record at once and the bytes and thumbnails by its job', async () => {
    const bytes = bytesOf(env());
    const db = await t.server.createDatabase();
    const up = await uploadRaw(t.server, db.secretKey, 'd', randomBytes(100), 'x');
    assert.ok((await keys(bytes)).some((k) => k.includes(up.json.id)));
    assert.equal((await send(t.server, 'DELETE', `/files/d/${up.json.id}`, { key: db.secretKey })).status, 204);
    assert.equal((await send(t.server, 'GET', `/files/d/${up.json.id}`, { key: db.secretKey })).status, 404);
    await eventually(async () => !(await keys(bytes)).some((k) => k.includes(up.json.id)), { what: 'the bytes removed' });
    await bytes.close();
  });

  test('the sweep removes bytes with no record once they are older than 24 hours, and keeps recorded ones', async () => {
    const bytes = bytesOf(env());
    const db = await t.server.createDatabase();
    const kept = await uploadRaw(t.server, db.secretKey, 'sw', randomBytes(10), 'kept');
    const orphan = `${db.databaseId}/01900000-0000-7000-8000-000000000000/original`;
    await bytes.put(orphan, (await import('node:stream')).Readable.from([randomBytes(10)]));
    // An hour old: still kept (an upload may still be on its way to its commit).
    clock.advance(3600_000);
    await new Promise((r) => setTimeout(r, 400));
    assert.ok((await keys(bytes)).includes(orphan), 'bytes younger than 24 hours stay');
    clock.advance(24 * 3600_000);
    await eventually(async () => !(await keys(bytes)).includes(orphan), { what: 'the orphan swept' });
    assert.ok(
      (await keys(bytes)).some((k) => k.includes(kept.json.id)),
      'a recorded file is never swept',
    );
    const back = await send(t.server, 'GET', `/files/sw/${kept.json.id}/content`, { key: db.secretKey });
    assert.equal(back.status, 200);
    await bytes.close();
  });
});

forEachStore('files: a deletion while the S3 store is down', (kind) => {
  let s3: S3Server;
  let db: TestStore;
  let env: Record<string, string>;
  before(async () => {
    s3 = await startS3('svc-down');
    db = await openTestStore(kind);
    env = bytesEnv('s3', s3);
  });
  after(async () => {
    await s3.dispose();
    await db.drop();
  });

  test('the record is gone at once; the job retries, survives a restart, and removes the bytes once the store is back', async () => {
    let server: TestServer = await startServer(kind, { db, env });
    const d = await server.createDatabase();
    const up = await uploadRaw(server, d.secretKey, 'x', randomBytes(100), 'x.bin');
    assert.equal(up.status, 201);
    const bytes = bytesOf(env);
    assert.equal((await keys(bytes)).filter((k) => k.includes(up.json.id)).length, 1);
    await s3.stop();
    const del = await send(server, 'DELETE', `/files/x/${up.json.id}`, { key: d.secretKey });
    assert.equal(del.status, 204, 'the deletion does not wait for the byte store');
    assert.equal((await send(server, 'GET', `/files/x/${up.json.id}`, { key: d.secretKey })).status, 404);
    await eventually(async () => Number((await db.store.get<{ n: number }>('SELECT MAX(attempts) AS n FROM file_jobs'))?.n ?? 0) >= 1, {
      what: 'a failed try recorded',
    });
    await server.close();
    await s3.restart();
    assert.equal((await keys(bytes)).filter((k) => k.includes(up.json.id)).length, 1, 'the bytes outlived the deletion while the store was down');
    server = await startServer(kind, { db, env });
    await eventually(async () => (await keys(bytes)).every((k) => !k.includes(up.json.id)), { what: 'the bytes removed after the restart', timeoutMs: 90_000 });
    await eventually(async () => Number((await db.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM file_jobs'))?.n) === 0, { what: 'the job done' });
    await server.close();
    await bytes.close();
  });
});

forEachStore('files: kill -9 between storing the bytes and the commit', (kind) => {
  let db: TestStore;
  before(async () => {
    db = await openTestStore(kind);
  });
  after(() => db.drop());

  test('no record is left, and the sweep removes the bytes', async () => {
    const env = { ...bytesEnv('local'), DATABASE_URL: db.url, FILES_ORPHAN_AGE_MS: '0', FILES_SWEEP_EVERY_MS: '100' };
    // The first server makes a database; it may not sweep (FILES_ORPHAN_AGE_MS 0 would sweep an upload in progress).
    let proc = await startProcess({ ...env, FILES_ORPHAN_AGE_MS: String(3600_000) });
    const admin = apiClient({ base: proc.base, url: proc.url });
    const signIn = await admin.post<{ token: string }>('/admin/sign-in', { email: 'operator@svc.test', password: 'operator-password-1' }, 200);
    const created = await admin.post<{ database: { id: string }; key: { key: string } }>('/admin/databases', { name: 'crash' }, 201, { key: signIn.token });
    const bytes = bytesOf(env);
    // Hold what the commit needs: SQLite's write lock, or the database's row on PostgreSQL.
    let release: () => Promise<void>;
    if (kind === 'sqlite') {
      const blocker = new Database(db.url.slice('sqlite:'.length));
      blocker.exec('BEGIN IMMEDIATE');
      release = async () => {
        blocker.exec('ROLLBACK');
        blocker.close();
      };
    } else {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      await c.query('BEGIN');
      await c.query('SELECT 1 FROM databases WHERE id = $1 FOR UPDATE', [created.database.id]);
      release = async () => {
        await c.query('ROLLBACK');
        await c.end();
      };
    }
    const payload = randomBytes(2000);
    const upload = new Promise<void>((resolve) => {
      const req = http.request(`${proc.base}/files/crash?name=c.bin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.key.key}`, 'content-type': 'application/octet-stream', 'content-length': payload.length },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.end(payload);
    });
    const stored = await eventually(async () => (await keys(bytes)).find((k) => k.startsWith(`${created.database.id}/`)) ?? false, {
      what: 'the bytes stored while the commit waits',
    });
    await proc.kill('SIGKILL');
    await upload;
    await release();
    const records = await db.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM files');
    assert.equal(Number(records?.n), 0, 'no record of the killed upload');
    assert.ok((await keys(bytes)).includes(stored), 'its bytes were left behind by the crash');
    proc = await startProcess(env);
    await eventually(async () => !(await keys(bytes)).includes(stored), { what: 'the sweep removed them' });
    await proc.kill('SIGKILL');
    await bytes.close();
  });
});

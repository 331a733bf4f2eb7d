import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { missingServices, openTestStore, type TestStore } from '../helpers/stores.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { bytesEnv, send, startS3, uploadRaw, type S3Server } from './helpers.ts';

const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

/** `svc export` on one store and byte store piped into `svc import` on another, as an operator runs them. */
function move(
  from: Record<string, string>,
  to: Record<string, string>,
  databaseId: string,
): Promise<{ exported: number | null; imported: number | null; stderr: string }> {
  const run = (env: Record<string, string>, args: string[]) =>
    spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exp = run(from, ['export', '--database', databaseId]);
  const imp = run(to, ['import']);
  exp.stdout.pipe(imp.stdin);
  let stderr = '';
  for (const c of [exp, imp]) c.stderr.on('data', (d) => (stderr += d));
  const code = (c: typeof exp) => new Promise<number | null>((resolve) => c.once('close', resolve));
  return Promise.all([code(exp), code(imp)]).then(([exported, imported]) => ({ exported, imported, stderr }));
}

/** API.md §11/§12: export format 3 carries file records and bytes; a database moves with its files between stores. */
describe('files: svc export | svc import moves a database with its files, SQLite + local disk → PostgreSQL + S3 → SQLite + local disk', async () => {
  const missing = await missingServices({ postgres: true });
  if (missing) {
    test('moving files', { skip: missing }, () => undefined);
    return;
  }
  let s3: S3Server;
  const stores: TestStore[] = [];
  const servers: TestServer[] = [];
  before(async () => {
    s3 = await startS3('svc-move');
  });
  after(async () => {
    for (const s of servers) await s.close();
    for (const s of stores) await s.drop();
    await s3.dispose();
  });

  test('every record, version and byte arrives; a link signed before the move still works', async () => {
    const a = await openTestStore('sqlite');
    const b = await openTestStore('postgres');
    const c = await openTestStore('sqlite');
    stores.push(a, b, c);
    const envA = { DATABASE_URL: a.url, ...bytesEnv('local') };
    const envB = { DATABASE_URL: b.url, ...bytesEnv('s3', s3) };
    const envC = { DATABASE_URL: c.url, ...bytesEnv('local') };
    const serverA = await startServer('sqlite', { db: a, env: envA });
    servers.push(serverA);
    const db = await serverA.createDatabase();
    const contents = {
      'empty.txt': Buffer.alloc(0),
      'big.bin': randomBytes(2.5 * 1024 * 1024),
      'pic.png': await sharp({ create: { width: 30, height: 30, channels: 3, background: '#123' } })
        .png()
        .toBuffer(),
    };
    const records: Record<string, { id: string }> = {};
    for (const [name, bytes] of Object.entries(contents)) {
      const r = await uploadRaw(serverA, db.secretKey, 'stuff', bytes, name);
      assert.equal(r.status, 201, r.bytes.toString());
      records[name] = r.json;
    }
    const link = await send(serverA, 'POST', `/files/stuff/${records['big.bin'].id}/url`, {
      key: db.secretKey,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const token = new URL(link.json.url).searchParams.get('token')!;
    const listA = await send(serverA, 'GET', '/files/stuff', { key: db.secretKey, query: { sortBy: 'name' } });

    const check = async (server: TestServer, what: string) => {
      const list = await send(server, 'GET', '/files/stuff', { key: db.secretKey, query: { sortBy: 'name' } });
      assert.deepEqual(list.json.files, listA.json.files, `${what}: the records`);
      for (const [name, bytes] of Object.entries(contents)) {
        const got = await send(server, 'GET', `/files/stuff/${records[name].id}/content`, { key: db.secretKey });
        assert.equal(got.status, 200, `${what}: ${name}`);
        assert.ok(got.bytes.equals(bytes), `${what}: ${name} is byte-identical`);
        const one = await send(server, 'GET', `/files/stuff/${records[name].id}`, { key: db.secretKey });
        assert.equal(one.headers.get('etag'), (await send(serverA, 'GET', `/files/stuff/${records[name].id}`, { key: db.secretKey })).headers.get('etag'));
      }
      const viaLink = await send(server, 'GET', `/files/stuff/${records['big.bin'].id}/content`, { query: { token } });
      assert.equal(viaLink.status, 200, `${what}: the file-signing key moved with the database`);
    };

    const there = await move(envA, envB, db.databaseId);
    assert.deepEqual([there.exported, there.imported], [0, 0], there.stderr);
    const serverB = await startServer('postgres', { db: b, env: envB });
    servers.push(serverB);
    await check(serverB, 'PostgreSQL + S3');

    const back = await move(envB, envC, db.databaseId);
    assert.deepEqual([back.exported, back.imported], [0, 0], back.stderr);
    const serverC = await startServer('sqlite', { db: c, env: envC });
    servers.push(serverC);
    await check(serverC, 'back on SQLite + local disk');
  });
});

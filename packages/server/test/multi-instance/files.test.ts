import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import sharp from 'sharp';
import { missingServices, postgresTestStore, REDIS_URL, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { openWs } from '../helpers/ws.ts';
import { BYTE_STORES, bytesEnv, send, sha256, startS3, type S3Server } from '../files/helpers.ts';

/** Each database's file bytes at most: the last test fills it through both instances. */
const QUOTA = 4 * 1024 * 1024;

/**
 * API.md §12 "Where bytes live": several instances on one PostgreSQL, one Redis and one byte store
 * (one local directory both use, or S3) serve files as one service: an upload through one is read,
 * listed, linked and deleted through the other, its events reach the other's sockets, and a
 * thumbnail asked of both at once is made once (files/thumbs.ts: the claim row).
 */
for (const bytes of BYTE_STORES) {
  describe(`files on two instances (${bytes} bytes)`, { skip: await missingServices({ postgres: true, redis: true }) }, () => {
    let db: TestStore;
    let s3: S3Server | undefined;
    let env: Record<string, string>;
    let a: ServerProcess;
    let b: ServerProcess;
    let key: string;

    before(async () => {
      db = await postgresTestStore();
      if (bytes === 's3') s3 = await startS3();
      // LOG_LEVEL info: each making of a thumbnail logs 'thumbnail made', which the last test counts.
      env = {
        DATABASE_URL: db.url,
        REDIS_URL,
        RATE_LIMIT_PER_IP: '100000',
        RATE_LIMIT_PER_KEY: '100000',
        LOG_LEVEL: 'info',
        LIMIT_STORAGE_BYTES_PER_DATABASE: String(QUOTA),
        ...bytesEnv(bytes, s3),
      };
      a = await startProcess(env);
      b = await startProcess(env);
      const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
      const created = await request(a, 'POST', '/admin/databases', { key: op, body: { name: `files-two-${bytes}` } });
      assert.equal(created.status, 201, created.text);
      key = (created.json as { key: { key: string } }).key.key;
    });
    after(async () => {
      await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
      await s3?.dispose();
      if (env?.STORAGE_URL?.startsWith('file:')) rmSync(env.STORAGE_URL.slice(5), { recursive: true, force: true });
      await db?.drop();
    });

    test("uploaded through A: read, listed, linked and deleted through B; B's socket hears file.created and file.deleted", async () => {
      const token = await request(b, 'POST', '/realtime/token', { key, body: { collections: ['files/docs'] } });
      assert.equal(token.status, 201, token.text);
      const socket = await openWs((token.json as { url: string }).url);
      const body = randomBytes(200_000);
      const up = await send(a, 'POST', '/files/docs', { key, body, headers: { 'content-type': 'application/octet-stream' }, query: { name: 'a.bin' } });
      assert.equal(up.status, 201, up.bytes.toString());
      const id = up.json.id as string;
      assert.equal(up.json.sha256, sha256(body));

      const record = await send(b, 'GET', `/files/docs/${id}`, { key });
      assert.equal(record.status, 200);
      assert.deepEqual(record.json, up.json);
      const content = await send(b, 'GET', `/files/docs/${id}/content`, { key });
      assert.equal(content.status, 200);
      assert.ok(content.bytes.equals(body), 'the bytes stored through A, served by B');
      const list = await send(b, 'GET', '/files/docs', { key });
      assert.deepEqual(
        list.json.files.map((f: { id: string }) => f.id),
        [id],
      );
      const link = await send(b, 'POST', `/files/docs/${id}/url`, { key, body: '{}', headers: { 'content-type': 'application/json' } });
      assert.equal(link.status, 200, link.bytes.toString());
      const path = new URL(link.json.url as string);
      for (const via of [a, b]) {
        const got = await fetch(`${via.url}${path.pathname}${path.search}`);
        assert.equal(got.status, 200, `the link made on B, followed on ${via === a ? 'A' : 'B'}`);
        assert.ok(Buffer.from(await got.arrayBuffer()).equals(body));
      }

      const [created] = await socket.waitFor((m) => m.type === 'event' && m.event === 'file.created');
      assert.equal(created.collection, 'files/docs');
      assert.deepEqual(created.file, up.json);

      assert.equal((await send(b, 'DELETE', `/files/docs/${id}`, { key })).status, 204);
      const [deleted] = await socket.waitFor((m) => m.type === 'event' && m.event === 'file.deleted');
      assert.equal(deleted.file.id, id);
      assert.equal((await send(a, 'GET', `/files/docs/${id}`, { key })).status, 404);
      assert.equal((await send(a, 'GET', `/files/docs/${id}/content`, { key })).status, 404);
      const followed = await fetch(`${a.url}${path.pathname}${path.search}`);
      assert.equal(followed.status, 404, 'a link of a deleted file');
      await followed.arrayBuffer();
      await socket.close();
    });

    test('a new thumbnail asked of both instances at once is made once, and both answer its bytes', async () => {
      const image = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#3a7' } })
        .jpeg()
        .toBuffer();
      const up = await send(a, 'POST', '/files/pics', { key, body: image, headers: { 'content-type': 'image/jpeg' }, query: { name: 'p.jpg' } });
      assert.equal(up.status, 201, up.bytes.toString());
      const made = () => (a.output() + b.output()).split('\n').filter((l) => l.includes('"thumbnail made"')).length;
      assert.equal(made(), 0);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => send(i % 2 ? a : b, 'GET', `/files/pics/${up.json.id}/content`, { key, query: { thumb: '100x100' } })),
      );
      for (const r of answers) assert.equal(r.status, 200, r.bytes.toString().slice(0, 200));
      assert.deepEqual(
        answers.map((r) => [r.headers.get('content-type'), r.headers.get('content-length'), sha256(r.bytes).slice(0, 8)]),
        answers.map(() => [answers[0].headers.get('content-type'), answers[0].headers.get('content-length'), sha256(answers[0].bytes).slice(0, 8)]),
        'the same bytes from both',
      );
      assert.equal(made(), 1, 'made once across the two instances');
      const meta = await sharp(answers[0].bytes).metadata();
      assert.deepEqual([meta.width, meta.height], [100, 100]);
    });

    test('the quota counts what both instances stored and deleted, whichever stored last', async () => {
      const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
      const created = await request(b, 'POST', '/admin/databases', { key: op, body: { name: `files-quota-${bytes}` } });
      const own = (created.json as { key: { key: string } }).key.key;
      const up = (via: ServerProcess, size: number) =>
        send(via, 'POST', '/files/q', { key: own, body: randomBytes(size), headers: { 'content-type': 'application/octet-stream' }, query: { name: 'q.bin' } });
      const quarter = QUOTA / 4;
      const ids: string[] = [];
      for (const via of [a, b, a, b]) {
        const r = await up(via, quarter);
        assert.equal(r.status, 201, r.bytes.toString());
        ids.push(r.json.id);
      }
      for (const via of [a, b]) assert.equal((await up(via, 1)).status, 413, 'full, as both instances see it');
      assert.equal((await send(b, 'DELETE', `/files/q/${ids[0]}`, { key: own })).status, 204);
      assert.equal((await up(a, quarter + 1)).status, 413);
      assert.equal((await up(a, quarter)).status, 201, 'the room B made by deleting, seen by A');
      for (const via of [b, a]) assert.equal((await up(via, 1)).status, 413);
    });
  });
}

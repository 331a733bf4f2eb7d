import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';
import { forEachStoreAndBytes, send, uploadRaw } from './helpers.ts';

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp', width = 400, height = 200) =>
  sharp({ create: { width, height, channels: 3, background: '#3a7' } })
    .toFormat(format)
    .toBuffer();

/** A PNG whose header declares width × height over a few bytes of data: a decompression bomb's header. */
function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** API.md §12 "Thumbnails". */
forEachStoreAndBytes('files: thumbnails', (kind, env) => {
  const t = useServer(kind, () => ({ env: env() }));

  test('100x100 crops to fill; the bucket sizes fit (WxHf) and keep the ratio (Wx0); others → 400; ETag "<sha256>-<thumb>"', async () => {
    const op = await t.server.operatorToken();
    const r = await send(t.server, 'PATCH', `/admin/databases/${t.db.databaseId}`, {
      key: op,
      body: JSON.stringify({ settings: { files: { pics: { thumbs: ['50x50f', '80x0'] } } } }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 200, r.bytes.toString());
    const up = await uploadRaw(t.server, t.db.secretKey, 'pics', await image('jpeg'), 'p.jpg', 'image/jpeg');
    for (const [thumb, w, h] of [
      ['100x100', 100, 100],
      ['50x50f', 50, 25],
      ['80x0', 80, 40],
    ] as const) {
      const got = await send(t.server, 'GET', `/files/pics/${up.json.id}/content`, { key: t.db.secretKey, query: { thumb } });
      assert.equal(got.status, 200, `${thumb}: ${got.bytes.toString().slice(0, 200)}`);
      assert.equal(got.headers.get('content-type'), 'image/jpeg');
      assert.equal(got.headers.get('etag'), `"${up.json.sha256}-${thumb}"`);
      const meta = await sharp(got.bytes).metadata();
      assert.deepEqual([meta.width, meta.height, meta.format], [w, h, 'jpeg'], thumb);
    }
    const other = await send(t.server, 'GET', `/files/pics/${up.json.id}/content`, { key: t.db.secretKey, query: { thumb: '64x64' } });
    assert.equal(other.status, 400);
    assert.equal(other.json.error.code, 'validation_failed');
  });

  test("a GIF's thumbnail is a PNG; concurrent first requests make it once and get the same bytes", async () => {
    const up = await uploadRaw(t.server, t.db.secretKey, 'g', await image('gif'), 'a.gif', 'image/gif');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send(t.server, 'GET', `/files/g/${up.json.id}/content`, { key: t.db.secretKey, query: { thumb: '100x100' } })),
    );
    for (const a of answers) {
      assert.equal(a.status, 200);
      assert.equal(a.headers.get('content-type'), 'image/png');
      assert.ok(a.bytes.equals(answers[0].bytes));
    }
    assert.equal((await sharp(answers[0].bytes).metadata()).format, 'png');
  });

  test('a header over 40 megapixels (a decompression bomb), an SVG or a text file → 400', async () => {
    const bomb = await uploadRaw(t.server, t.db.secretKey, 'b', pngDeclaring(50_000, 50_000), 'bomb.png', 'image/png');
    assert.equal(bomb.json.contentType, 'image/png');
    const r = await send(t.server, 'GET', `/files/b/${bomb.json.id}/content`, { key: t.db.secretKey, query: { thumb: '100x100' } });
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, 'validation_failed');
    const svg = await uploadRaw(t.server, t.db.secretKey, 'b', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'i.svg', 'image/svg+xml');
    assert.equal((await send(t.server, 'GET', `/files/b/${svg.json.id}/content`, { key: t.db.secretKey, query: { thumb: '100x100' } })).status, 400);
  });
});

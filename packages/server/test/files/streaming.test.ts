import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { useServer } from '../helpers/server.ts';
import { forEachStore } from '../helpers/stores.ts';
import { bytesEnv, send } from './helpers.ts';

const GiB = 1024 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** Sends `total` bytes made on the fly (never held) as a raw upload; resolves with the answer and the bytes' SHA-256. */
function streamUpload(
  base: string,
  key: string,
  path: string,
  total: number,
  onChunk?: () => void,
): Promise<{ status: number; body: string; sha256: string; sent: number }> {
  const chunk = Buffer.alloc(CHUNK, 7);
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = http.request(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream', 'content-length': total },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sha256: hash.digest('hex'), sent }));
    });
    req.on('error', reject);
    const pump = () => {
      while (sent < total) {
        const n = Math.min(CHUNK, total - sent);
        const piece = n === CHUNK ? chunk : chunk.subarray(0, n);
        hash.update(piece);
        sent += n;
        onChunk?.();
        if (!req.write(piece)) return req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** API.md §12 "Uploads stream to the byte store: memory does not grow with the file's size." */
forEachStore('files: uploads stream', (kind) => {
  const t = useServer(kind, () => ({ env: { ...bytesEnv('local'), LIMIT_FILE_BYTES: String(2 * GiB), LIMIT_STORAGE_BYTES_PER_DATABASE: String(4 * GiB) } }));

  test('a 1 GiB upload raises the RSS by less than 64 MiB and is stored whole', async () => {
    // Another request first, so what the first request of a route costs is not counted.
    await send(t.server, 'POST', '/files/warm', {
      key: t.db.secretKey,
      body: Buffer.alloc(1024),
      headers: { 'content-type': 'text/plain' },
      query: { name: 'w' },
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const r = await streamUpload(t.server.base, t.db.secretKey, '/files/big?name=big.bin', GiB, () => {
      peak = Math.max(peak, process.memoryUsage.rss());
    });
    assert.equal(r.status, 201, r.body);
    const file = JSON.parse(r.body);
    assert.equal(file.size, GiB);
    assert.equal(file.sha256, r.sha256);
    const grown = (peak - before) / (1024 * 1024);
    assert.ok(grown < 64, `the RSS grew by ${grown.toFixed(1)} MiB during a 1 GiB upload`);
    await send(t.server, 'DELETE', `/files/big/${file.id}`, { key: t.db.secretKey });
  });
});

forEachStore('files: the size limit', (kind) => {
  const t = useServer(kind, () => ({ env: { ...bytesEnv('local'), LIMIT_FILE_BYTES: String(1024 * 1024) } }));

  test('an upload of unknown length past LIMIT_FILE_BYTES is answered 413 before the client sent it all', async () => {
    const chunk = Buffer.alloc(CHUNK, 1);
    const answer = await new Promise<{ status: number; sentWhenAnswered: number }>((resolve, reject) => {
      let sent = 0;
      let stop = false;
      const req = http.request(`${t.server.base}/files/limit?name=x`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.db.secretKey}`, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        stop = true;
        resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent });
        res.resume();
        req.destroy();
      });
      req.on('error', (e) => (stop ? undefined : reject(e)));
      // Up to 64 MiB, paced by the server reading: the answer comes long before.
      const pump = () => {
        while (!stop && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once('drain', pump);
        }
        if (!stop) req.end();
      };
      pump();
    });
    assert.equal(answer.status, 413);
    assert.ok(answer.sentWhenAnswered < 16 * 1024 * 1024, `answered after ${answer.sentWhenAnswered} bytes were sent`);
    const list = await send(t.server, 'GET', '/files/limit', { key: t.db.secretKey });
    assert.equal(list.json.total, 0);
  });
});

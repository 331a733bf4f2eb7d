import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';
import { forEachStoreAndBytes, send } from './helpers.ts';

const RULES = {
  // Contrived on purpose: rules that what a multipart upload's headers show already decide.
  'files/large': { read: true, create: { size: { $gte: 1_000_000 } } },
  'files/named': { read: true, create: { name: 'only.bin' } },
  'files/small': { read: true, create: { size: { $lte: 4096 } } },
};

const BOUNDARY = 'early-refusal-boundary';

/**
 * Sends a multipart upload's headers and only the start of its body (its Content-Length promises
 * `declared` bytes), and resolves with the answer: it comes only if the server answered without
 * waiting for the rest, which is never sent.
 */
function startMultipart(base: string, key: string, session: string, path: string, declared: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'x-session-token': session,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': declared,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    req.write(randomBytes(1000));
  });
}

function multipartBody(name: string, bytes: Buffer): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  return form;
}

/**
 * API.md §12 "Access": an upload whose record cannot match the create rule is refused before its
 * body is read — for multipart bodies too, when their headers show it (the size at most the
 * Content-Length, the owner, a query name); otherwise the rule is checked on the final record.
 */
forEachStoreAndBytes('files: multipart uploads refused before the body', (kind, env) => {
  const t = useServer(kind, () => ({ env: env() }));
  let ann: SignedIn;
  const up = (bucket: string, form: FormData) =>
    send(t.server, 'POST', `/files/${bucket}`, { key: t.db.publicKey, body: form, headers: { 'x-session-token': ann.session.token } });

  before(async () => {
    await apiClient(
      () => t.server,
      () => t.db.secretKey,
    ).put('/rules', { rules: RULES });
    ann = await newUser(t.server, t.db.publicKey, 'ann@early.test');
  });

  test('a Content-Length below the size the rule asks for, or a query name the rule refuses: 403 before the body; nothing kept', {
    timeout: 120_000,
  }, async () => {
    const large = await startMultipart(t.server.base, t.db.publicKey, ann.session.token, '/files/large', 20_000);
    assert.equal(large.status, 403, large.body);
    assert.equal(JSON.parse(large.body).error.code, 'forbidden');
    const named = await startMultipart(t.server.base, t.db.publicKey, ann.session.token, '/files/named?name=other.bin', 20_000);
    assert.equal(named.status, 403, named.body);
    for (const bucket of ['large', 'named']) {
      const list = await send(t.server, 'GET', `/files/${bucket}`, { key: t.db.secretKey });
      assert.equal(list.json.total, 0, bucket);
    }
  });

  test('uploads the rule may let through are read and checked on their final record', async () => {
    const big = await up('large', multipartBody('big.bin', randomBytes(1_000_000)));
    assert.equal(big.status, 201, big.bytes.toString());
    const named = await up('named', multipartBody('only.bin', randomBytes(10)));
    assert.equal(named.status, 201, named.bytes.toString());
    const wrongName = await up('named', multipartBody('other.bin', randomBytes(10)));
    assert.equal(wrongName.status, 403, 'the name from the part, checked on the final record');
    // A body larger than 4096 bytes may still hold a small file (the rest is metadata or framing): read, then refused by the final size.
    const small = await up('small', multipartBody('s.bin', randomBytes(100)));
    assert.equal(small.status, 201, small.bytes.toString());
    const tooBig = await up('small', multipartBody('b.bin', randomBytes(5000)));
    assert.equal(tooBig.status, 403);
  });
});

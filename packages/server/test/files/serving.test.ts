import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { forEachStoreAndBytes, send, uploadRaw } from './helpers.ts';

/** API.md §12 "Serving" and "Links for browsers": what a CDN would do, and what keeps a browser from running an upload. */
forEachStoreAndBytes('files: serving and links', (kind, env) => {
  const t = useServer(kind, () => ({ env: { ...env(), RATE_LIMIT_FILES_PER_IP: '40' } }));
  const bytes = randomBytes(1000);

  test('ETag "<sha256>" and 304; one Range → 206; several → 200 whole; unsatisfiable → 416 with Content-Range', async () => {
    const up = await uploadRaw(t.server, t.db.secretKey, 's', bytes, 'data.bin');
    const path = `/files/s/${up.json.id}/content`;
    const whole = await send(t.server, 'GET', path, { key: t.db.secretKey });
    assert.equal(whole.headers.get('etag'), `"${up.json.sha256}"`);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    const cached = await send(t.server, 'GET', path, { key: t.db.secretKey, headers: { 'if-none-match': `W/"${up.json.sha256}"` } });
    assert.equal(cached.status, 304);
    assert.equal(cached.bytes.length, 0);
    const part = await send(t.server, 'GET', path, { key: t.db.secretKey, headers: { range: 'bytes=10-19' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), 'bytes 10-19/1000');
    assert.ok(part.bytes.equals(bytes.subarray(10, 20)));
    const suffix = await send(t.server, 'GET', path, { key: t.db.secretKey, headers: { range: 'bytes=-5' } });
    assert.ok(suffix.bytes.equals(bytes.subarray(995)));
    const several = await send(t.server, 'GET', path, { key: t.db.secretKey, headers: { range: 'bytes=0-1,5-6' } });
    assert.equal(several.status, 200);
    assert.ok(several.bytes.equals(bytes));
    const beyond = await send(t.server, 'GET', path, { key: t.db.secretKey, headers: { range: 'bytes=1000-' } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.json.error.code, 'range_not_satisfiable');
    assert.equal(beyond.headers.get('content-range'), 'bytes */1000');
    const head = await send(t.server, 'HEAD', path, { key: t.db.secretKey });
    assert.equal(head.headers.get('content-length'), '1000');
  });

  test('an uploaded page or SVG is an attachment, sandboxed and never sniffed; a PNG and text/plain are inline', async () => {
    const html = await uploadRaw(t.server, t.db.secretKey, 's', Buffer.from('<script>alert(1)</script>'), 'page.html', 'text/html');
    const svg = await uploadRaw(t.server, t.db.secretKey, 's', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'i.svg', 'image/svg+xml');
    const text = await uploadRaw(t.server, t.db.secretKey, 's', Buffer.from('hello'), 'résumé.txt', 'text/plain');
    for (const [f, disposition] of [
      [html.json, 'attachment'],
      [svg.json, 'attachment'],
      [text.json, 'inline'],
    ] as const) {
      const r = await send(t.server, 'GET', `/files/s/${f.id}/content`, { key: t.db.secretKey });
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('content-security-policy'), 'sandbox');
      assert.ok(r.headers.get('content-disposition')!.startsWith(`${disposition};`), `${f.name}: ${r.headers.get('content-disposition')}`);
      assert.equal(r.headers.get('content-type')!.split(';')[0], f.contentType);
    }
    const named = await send(t.server, 'GET', `/files/s/${text.json.id}/content`, { key: t.db.secretKey, query: { download: '1' } });
    assert.equal(named.headers.get('content-disposition'), `attachment; filename="r_sum_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`);
  });

  test('signed links: bound to file, thumb and download; expired or altered → 401; a rotated key kills them; after deletion 404', async () => {
    const secret = apiClient(
      () => t.server,
      () => t.db.secretKey,
    );
    const up = await uploadRaw(t.server, t.db.secretKey, 'l', bytes, 'a.bin');
    const other = await uploadRaw(t.server, t.db.secretKey, 'l', bytes, 'b.bin');
    const link = await secret.post<{ url: string; expiresAt: string }>(`/files/l/${up.json.id}/url`, { expiresIn: 60 }, 200);
    const ok = await fetch(link.url);
    assert.equal(ok.status, 200);
    assert.ok(Buffer.from(await ok.arrayBuffer()).equals(bytes));
    const token = new URL(link.url).searchParams.get('token')!;
    const elsewhere = await send(t.server, 'GET', `/files/l/${other.json.id}/content`, { query: { token } });
    assert.equal(elsewhere.status, 401, 'a token names one file');
    const asDownload = await send(t.server, 'GET', `/files/l/${up.json.id}/content`, { query: { token, download: '1' } });
    assert.equal(asDownload.status, 401, 'a token names its download flag');
    const altered = await send(t.server, 'GET', `/files/l/${up.json.id}/content`, { query: { token: `${token.slice(0, -2)}xx` } });
    assert.equal(altered.status, 401);
    assert.equal(altered.json.error.code, 'invalid_token');
    const noToken = await send(t.server, 'GET', `/files/l/${up.json.id}/content`);
    assert.equal(noToken.status, 401);
    const bad = await secret.request('POST', `/files/l/${up.json.id}/url`, { body: { expiresIn: 59 } });
    assert.equal(bad.status, 400);
    const op = await t.server.operatorToken();
    const rotated = await send(t.server, 'POST', `/admin/databases/${t.db.databaseId}/rotate-file-key`, { key: op });
    assert.equal(rotated.status, 204);
    assert.equal((await fetch(link.url)).status, 401, 'a rotated key kills every link');
    const fresh = await secret.post<{ url: string }>(`/files/l/${up.json.id}/url`, {}, 200);
    assert.equal((await fetch(fresh.url)).status, 200);
    await secret.delete(`/files/l/${up.json.id}`);
    assert.equal((await fetch(fresh.url)).status, 404);
  });

  test('public buckets: anyone, immutable caching; a private bucket there → 404; downloads without a key count per IP', async () => {
    const op = await t.server.operatorToken();
    const db = await t.server.createDatabase();
    const patched = await send(t.server, 'PATCH', `/admin/databases/${db.databaseId}`, {
      key: op,
      body: JSON.stringify({ settings: { files: { avatars: { public: true } } } }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(patched.status, 200, patched.bytes.toString());
    const pub = await uploadRaw(t.server, db.secretKey, 'avatars', bytes, 'me.bin');
    const priv = await uploadRaw(t.server, db.secretKey, 'private', bytes, 'me.bin');
    const r = await send(t.server, 'GET', `/public/${db.databaseId}/avatars/${pub.json.id}`);
    assert.equal(r.status, 200);
    assert.ok(r.bytes.equals(bytes));
    assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal((await send(t.server, 'GET', `/public/${db.databaseId}/private/${priv.json.id}`)).status, 404);
    let limited: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 45 && !limited; i++) {
      const x = await send(t.server, 'GET', `/public/${db.databaseId}/avatars/${pub.json.id}`);
      if (x.status === 429) limited = x;
    }
    assert.ok(limited, 'RATE_LIMIT_FILES_PER_IP (40 here) answers 429 past it');
    assert.equal(limited.json.error.code, 'rate_limited');
    const withKey = await send(t.server, 'GET', `/files/avatars/${pub.json.id}/content`, { key: db.secretKey });
    assert.equal(withKey.status, 200, 'requests with a key are not counted against the download limit');
  });
});

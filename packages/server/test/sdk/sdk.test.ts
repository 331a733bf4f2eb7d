// GET /sdk/svc.js: the SDK as one ES module with its source map, served by every instance so a page
// with no build step can import it (the README's tutorial does, in Chromium: packages/client/test/tutorial.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';

forEachStore('the SDK as one ES module', (kind) => {
  const t = useServer(kind);

  test('/sdk/svc.js is JavaScript any origin may load, with an ETag that answers 304, and links its map', async () => {
    const r = await fetch(`${t.server.url}/sdk/svc.js`, { headers: { origin: 'http://app.example' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(r.headers.get('access-control-allow-origin'), '*', 'module scripts are fetched with CORS');
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.match(r.headers.get('cache-control') ?? '', /public/);
    const etag = r.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]{20,}"$/);
    const js = await r.text();
    assert.match(js, /\/\/# sourceMappingURL=svc\.js\.map\s*$/);
    assert.doesNotMatch(js, /^\s*import\s/m, 'one module: it imports nothing');

    const again = await fetch(`${t.server.url}/sdk/svc.js`, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const other = await fetch(`${t.server.url}/sdk/svc.js`, { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(other.status, 200);

    const map = await fetch(`${t.server.url}/sdk/svc.js.map`);
    assert.equal(map.status, 200);
    assert.match(map.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await map.json()) as { version: number; sources: string[]; sourcesContent: string[] };
    assert.equal(body.version, 3);
    assert.ok(
      body.sources.some((s) => s.endsWith('src/client.ts')),
      'the map points at the TypeScript sources',
    );
    assert.equal(body.sourcesContent.length, body.sources.length, 'and carries them, so no other file is needed');
  });

  test('/sdk/svc@<version>.js is the same module under a URL that never changes, cached for good', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../client/package.json', import.meta.url), 'utf8')) as { version: string };
    const pinned = await fetch(`${t.server.url}/sdk/svc@${version}.js`);
    assert.equal(pinned.status, 200);
    assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await pinned.text(), await (await fetch(`${t.server.url}/sdk/svc.js`)).text());
    assert.equal((await fetch(`${t.server.url}/sdk/svc@0.0.0-other.js`)).status, 404);
  });

  test('the module exports the SDK: createClient talks to this server', async () => {
    const js = await (await fetch(`${t.server.url}/sdk/svc.js`)).text();
    const sdk = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as Record<string, unknown>;
    for (const name of ['createClient', 'SvcError', 'LocalStorageSessionStore', 'MemorySessionStore', 'verifyWebhook']) {
      assert.equal(typeof sdk[name], 'function', name);
    }
    type Notes = { create(d: object): Promise<{ id: string }>; get(id: string): Promise<{ title: string }> };
    const createClient = sdk.createClient as (o: { url: string; key: string }) => { collection(name: string): Notes };
    const notes = createClient({ url: t.server.url, key: t.db.secretKey }).collection('notes');
    const doc = await notes.create({ title: 'from the bundle' });
    assert.equal((await notes.get(doc.id)).title, 'from the bundle');
  });

  test('the bundle is outside the API: not in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${t.server.base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/sdk')));
  });
});

// svc.files(bucket) (API.md §12) against a real server: upload (Blob, File, bytes, a Node stream),
// list, get, url, download, update, remove; a public key with a signed-in user under owner rules.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { SvcError } from '../src/index.ts';
import { fixture, type Fixture } from './helpers.ts';

describe('files', () => {
  let f: Fixture;
  before(async () => {
    f = await fixture({ env: { STORAGE_URL: `file:${mkdtempSync(join(tmpdir(), 'svc-sdk-files-'))}` } });
  });
  after(() => f.close());

  test('upload from a Blob, a File, bytes and a Node stream; list, get, download, update, remove', async () => {
    const svc = f.admin();
    const docs = svc.files('docs');
    const a = await docs.upload(new Blob(['hello'], { type: 'text/plain' }), { name: 'a.txt' });
    assert.equal(a.size, 5);
    assert.equal(a.contentType, 'text/plain');
    const b = await docs.upload(new File(['file body'], 'b.txt', { type: 'text/plain' }), { metadata: { tag: 'x' } });
    assert.equal(b.name, 'b.txt');
    assert.deepEqual(b.metadata, { tag: 'x' });
    const c = await docs.upload(new Uint8Array([1, 2, 3]), { name: 'c.bin' });
    assert.equal(c.contentType, 'application/octet-stream');
    const d = await docs.upload(Readable.from([Buffer.from('str'), Buffer.from('eamed')]), { name: 'd.txt', contentType: 'text/plain' });
    assert.equal(d.size, 8);
    const page = await docs.list({ sortBy: 'name', filter: { contentType: 'text/plain' } });
    assert.deepEqual(
      page.files.map((x) => x.name),
      ['a.txt', 'b.txt', 'd.txt'],
    );
    assert.deepEqual(await docs.get(a.id), a);
    assert.equal(await (await docs.download(d.id)).text(), 'streamed');
    const renamed = await docs.update(a.id, { name: 'z.txt' });
    assert.equal(renamed.name, 'z.txt');
    const link = await docs.url(a.id, { expiresIn: 120 });
    assert.equal(await (await fetch(link.url)).text(), 'hello', 'a link needs no key');
    await docs.remove(a.id);
    await assert.rejects(docs.get(a.id), (e: unknown) => e instanceof SvcError && e.status === 404);
  });

  test("a signed-in user's uploads are theirs under owner rules; another user cannot see them", async () => {
    const own = { $auth: 'id' } as const;
    await f.admin().rules.set({ 'files/avatars': { read: { owner: own }, create: { owner: own }, delete: { owner: own } } });
    const ann = f.browser();
    const bob = f.browser();
    await ann.auth.signUp({ email: 'ann@sdk-files.test', password: 'correct horse battery' });
    await bob.auth.signUp({ email: 'bob@sdk-files.test', password: 'correct horse battery' });
    const mine = await ann.files('avatars').upload(new Blob(['pic'], { type: 'image/x-test' }), { name: 'me.pic' });
    assert.equal(mine.owner, (await ann.auth.getUser()).id);
    assert.equal((await bob.files('avatars').list()).total, 0);
    await assert.rejects(bob.files('avatars').get(mine.id), (e: unknown) => e instanceof SvcError && e.status === 404);
  });
});

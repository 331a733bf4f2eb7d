import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { SvcError, type UpdateDocument } from '../src/index.ts';
import { newKey } from '../src/http.ts';
import { fixture, forward, listenLocal, type Fixture } from './helpers.ts';

interface Post {
  title: string;
  likes: number;
  tags: string[];
  stats?: { views: number };
}

/** Issue 26, item 6: typed update operators, ifMatch, batch and automatic Idempotency-Keys in the SDK (API.md §1.2). */
describe('safe writes in the SDK', () => {
  let f: Fixture;
  before(async () => {
    f = await fixture();
  });
  after(async () => {
    await f.close();
  });

  test('update(id, { $inc, $addToSet, … }) applies operators; types name only fitting fields', async () => {
    const posts = f.admin().collection<Post>('posts');
    const p = await posts.create({ title: 'a', likes: 0, tags: [] });
    const u = await posts.update(p.id, { $inc: { likes: 2, 'stats.views': 1 }, $addToSet: { tags: { $each: ['x', 'x', 'y'] } } });
    assert.equal(u?.likes, 2);
    assert.deepEqual(u?.tags, ['x', 'y']);
    assert.deepEqual(u?.stats, { views: 1 });
    // Compile-time checks (npm run typecheck): $inc only on number fields, $push with the element type.
    const ok: UpdateDocument<Post> = { $inc: { likes: 1 }, $push: { tags: 'z' }, $set: { title: 'b' } };
    // @ts-expect-error title is a string: $inc does not take it
    const badInc: UpdateDocument<Post> = { $inc: { title: 1 } };
    // @ts-expect-error tags holds strings
    const badPush: UpdateDocument<Post> = { $push: { tags: 3 } };
    assert.ok(ok && badInc && badPush);
  });

  test('ifMatch: getVersioned gives the version; a stale one rejects with 412 and the current document', async () => {
    const posts = f.admin().collection<Post>('posts');
    const p = await posts.create({ title: 'v1', likes: 0, tags: [] });
    const { version } = await posts.getVersioned(p.id);
    assert.match(version, /^\d+$/);
    const next = await posts.updateVersioned(p.id, { title: 'v2' }, { ifMatch: version });
    assert.equal(next.document?.title, 'v2');
    assert.ok(BigInt(next.version) > BigInt(version));
    const stale = await posts.update(p.id, { title: 'lost' }, { ifMatch: version }).then(
      () => assert.fail('a stale ifMatch must fail'),
      (e: unknown) => e,
    );
    assert.ok(stale instanceof SvcError);
    assert.equal(stale.status, 412);
    assert.equal(stale.code, 'precondition_failed');
    assert.equal(stale.current?.version, next.version);
    assert.equal((stale.current?.document as Post).title, 'v2');
    await assert.rejects(posts.delete(p.id, { ifMatch: version }), (e: unknown) => e instanceof SvcError && e.status === 412);
    await posts.delete(p.id, { ifMatch: '*' });
  });

  test('svc.batch([...]) applies all or nothing; a failure names operations.<i>', async () => {
    const svc = f.admin();
    const results = await svc.batch([
      { op: 'create', collection: 'orders', document: { id: 'o1', qty: 1 } },
      { op: 'update', collection: 'orders', id: 'o1', patch: { $inc: { qty: 2 } } },
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      [201, 200],
    );
    assert.equal(results[1].document?.qty, 3);
    const e = await svc
      .batch([
        { op: 'create', collection: 'orders', document: { id: 'o2' } },
        { op: 'delete', collection: 'orders', id: 'nope' },
      ])
      .then(
        () => assert.fail('must fail'),
        (err: unknown) => err,
      );
    assert.ok(e instanceof SvcError && e.status === 404);
    assert.equal(e.details?.[0].path, 'operations.1');
    await assert.rejects(svc.collection('orders').get('o2'), (x: unknown) => x instanceof SvcError && x.status === 404);
  });

  test("the SDK's Idempotency-Keys are UUIDv7s: the time first, so they sort in the order they were made", () => {
    assert.match(newKey(0x0123456789ab), /^01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const keys = [1_000, 2_000, 1_700_000_000_000, 1_700_000_000_001].map((t) => newKey(t));
    assert.deepEqual([...keys].sort(), keys);
    assert.notEqual(newKey(5), newKey(5));
    // Past several refills of the random bytes' pool: every key well formed, none repeated.
    const many = Array.from({ length: 1000 }, () => newKey(7));
    assert.equal(new Set(many).size, many.length);
    for (const k of many) assert.match(k, /^00000000-0007-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('a write whose answer is lost is retried with the same Idempotency-Key: created once', async () => {
    // A real proxy that forwards the first write to the server, then drops the answer (a phone losing signal).
    const seen: Array<{ method: string; key: string | undefined }> = [];
    let dropped = false;
    const proxy = await listenLocal(
      http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', async () => {
          const key = req.headers['idempotency-key'];
          seen.push({ method: req.method ?? '', key: typeof key === 'string' ? key : undefined });
          if (req.method === 'POST' && !dropped) {
            dropped = true;
            const r = await fetch(f.server.url + req.url, { method: 'POST', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) });
            await r.arrayBuffer();
            res.destroy();
            return;
          }
          await forward(f.server.url, req, chunks, res);
        });
      }),
    );
    try {
      const svc = f.admin({ url: proxy.url });
      const created = await svc.collection('retried').create({ n: 1 });
      assert.equal(seen.length, 2);
      assert.ok(seen[0].key && seen[0].key === seen[1].key, 'both attempts carried one key');
      const all = await f.admin().collection('retried').list();
      assert.equal(all.total, 1);
      assert.equal(all.documents[0].id, created.id);
      // Reads carry no key; each write its own.
      await svc.collection('retried').get(created.id);
      await svc.collection('retried').update(created.id, { $inc: { n: 1 } });
      assert.equal(seen[2].key, undefined);
      assert.ok(seen[3].key && seen[3].key !== seen[0].key);
      // UUIDv7s: in time order, so the server's index of keys grows at its end.
      assert.match(seen[0].key, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.ok(seen[3].key.slice(0, 13) >= seen[0].key.slice(0, 13), 'a later write, a key no earlier');
    } finally {
      await proxy.close();
    }
  });
});

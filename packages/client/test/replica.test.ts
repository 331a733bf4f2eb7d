import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage, SvcError, type FetchLike, type Replica, type ReplicaConflict } from '../src/index.ts';
import { fixture, killableWebSocket, until, type Fixture } from './helpers.ts';
import { prng, randomDocument, randomFilter } from '../../filter/test/random.ts';

interface Todo {
  title: string;
  done?: boolean;
  n?: number;
}

/** A fetch that can be cut off, as a device that loses its connection, recording the headers of writes it lets through. */
function switchableFetch() {
  const state = { offline: false, writes: [] as Array<{ method: string; url: string; ifMatch: string | null; key: string | null }> };
  const fetch: FetchLike = async (input, init) => {
    if (state.offline) throw new TypeError('fetch failed (offline)');
    const h = new Headers(init?.headers as HeadersInit);
    if (init?.method && init.method !== 'GET')
      state.writes.push({ method: init.method, url: String(input), ifMatch: h.get('if-match'), key: h.get('idempotency-key') });
    return globalThis.fetch(input, init);
  };
  return { state, fetch };
}

const titles = (r: Replica<Todo>) => r.query({ sortBy: 'title' }).map((d) => d.title);

/** Issue 28, item 2: the replica in the SDK (API.md §3.1). */
describe('replica', () => {
  let f: Fixture;
  let dir: string;
  before(async () => {
    f = await fixture();
    dir = mkdtempSync(join(tmpdir(), 'svc-replica-'));
  });
  after(async () => {
    await f.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('snapshot, then the live socket; after a dropped socket it catches up', async () => {
    const admin = f.admin().collection<Todo>('live');
    for (const title of ['a', 'b', 'c']) await admin.create({ title });
    const ws = killableWebSocket();
    const r = f.admin({ WebSocket: ws.WebSocket }).collection<Todo>('live').replica();
    await r.ready;
    await until(() => r.query().length === 3 && r.online, 10_000, 'snapshot');
    const d = await admin.create({ title: 'd' });
    await until(() => r.get(d.id) !== undefined, 10_000, 'the live event');
    ws.kill();
    await admin.update(d.id, { title: 'd2' });
    const e = await admin.create({ title: 'e' });
    await until(() => r.get(e.id) !== undefined && r.get(d.id)?.title === 'd2', 15_000, 'catch-up after reconnect');
    assert.deepEqual(titles(r), ['a', 'b', 'c', 'd2', 'e']);
    r.close();
  });

  test('offline writes apply at once and queue (client UUIDs, Idempotency-Key, If-Match); online, they are sent in order', async () => {
    const net = switchableFetch();
    const r = f.admin({ fetch: net.fetch }).collection<Todo>('queue').replica();
    await r.ready;
    const kept = await f.admin().collection<Todo>('queue').create({ title: 'kept', n: 1 });
    await until(() => r.get(kept.id) !== undefined, 10_000, 'kept');
    const keptVersion = (await f.admin().collection('queue').getVersioned(kept.id)).version;
    net.state.offline = true;
    const pending: number[] = [];
    r.on('pending', (n) => pending.push(n));
    const made = await r.create({ title: 'made offline' });
    assert.match(made.id, /^[0-9a-f-]{36}$/, 'a client-made UUID');
    await r.update(made.id, { done: true });
    await r.update(kept.id, { n: 2 });
    const gone = await r.create({ title: 'gone' });
    await r.delete(gone.id);
    assert.equal(r.pending, 5);
    assert.deepEqual(titles(r), ['kept', 'made offline'], 'the local view shows every write at once');
    assert.equal(r.get(made.id)?.done, true);
    await r.flush();
    assert.equal(r.pending, 5, 'offline: still queued');
    net.state.offline = false;
    await r.flush();
    assert.equal(r.pending, 0);
    assert.deepEqual(pending.slice(0, 5), [1, 2, 3, 4, 5]);
    const server = await f.admin().collection<Todo>('queue').list({ sortBy: 'title' });
    assert.deepEqual(
      server.documents.map((d) => [d.title, d.done, d.n]),
      [
        ['kept', undefined, 2],
        ['made offline', true, undefined],
      ],
    );
    const writes = net.state.writes.filter((w) => w.url.includes('/queue/'));
    assert.deepEqual(
      writes.map((w) => w.method),
      ['POST', 'PATCH', 'PATCH', 'POST', 'DELETE'],
      'sent in the order made',
    );
    assert.ok(
      writes.every((w) => w.key),
      'every write carries an Idempotency-Key',
    );
    assert.equal(writes[2].ifMatch, `"${keptVersion}"`, 'the update of a server document carries the If-Match of the version it was made on');
    assert.match(writes[1].ifMatch ?? '', /^"\d+"$/, 'the update of a document created offline: the version its create got');
    r.close();
  });

  test('a write refused with 412 is taken back, told with the local and server documents, and onConflict may merge it', async () => {
    const net = switchableFetch();
    const conflicts: Array<ReplicaConflict<Todo>> = [];
    const other = f.admin().collection<Todo>('clash');
    const doc = await other.create({ title: 'base', n: 0 });
    const r = f
      .admin({ fetch: net.fetch })
      .collection<Todo>('clash')
      .replica({ onConflict: (local, server) => (local && server ? { ...server, title: `${server.title}+${local.title}` } : undefined) });
    r.on('conflict', (c) => conflicts.push(c));
    await r.ready;
    await until(() => r.get(doc.id) !== undefined, 10_000, 'doc');
    net.state.offline = true;
    await r.update(doc.id, { title: 'mine' });
    await other.update(doc.id, { title: 'theirs', n: 5 });
    net.state.offline = false;
    await r.flush();
    assert.equal(conflicts.length, 1);
    assert.equal(conflicts[0].error.status, 412);
    assert.equal(conflicts[0].local?.title, 'mine');
    assert.equal(conflicts[0].server?.title, 'theirs');
    await r.flush();
    await until(() => r.pending === 0, 10_000, 'the merged write');
    const now = await other.get(doc.id);
    assert.deepEqual([now.title, now.n], ['theirs+mine', 5], 'the merged document was sent again on the server version');
    await until(() => r.get(doc.id)?.title === 'theirs+mine', 10_000, 'the copy');

    // Without a merge, a refused delete is taken back: the server's document stays.
    const r2 = f.admin({ fetch: net.fetch }).collection<Todo>('clash').replica();
    await r2.ready;
    await until(() => r2.get(doc.id) !== undefined, 10_000, 'doc in r2');
    net.state.offline = true;
    await r2.delete(doc.id);
    assert.equal(r2.get(doc.id), undefined);
    await other.update(doc.id, { n: 6 });
    net.state.offline = false;
    await r2.flush();
    await until(() => r2.get(doc.id)?.n === 6, 10_000, 'the delete taken back');
    r.close();
    r2.close();
  });

  test('FileStorage: a new process (a new replica on the same file) finds the copy and the pending writes', async () => {
    const file = join(dir, 'notes.json');
    const net = switchableFetch();
    const admin = f.admin().collection<Todo>('notes');
    await admin.create({ title: 'on server' });
    const r = f
      .admin({ fetch: net.fetch })
      .collection<Todo>('notes')
      .replica({ storage: new FileStorage(file) });
    await r.ready;
    await until(() => r.query().length === 1, 10_000, 'snapshot');
    net.state.offline = true;
    await r.create({ title: 'written offline' });
    r.close();
    const again = f
      .admin({ fetch: net.fetch })
      .collection<Todo>('notes')
      .replica({ storage: new FileStorage(file) });
    await again.ready;
    assert.deepEqual(titles(again), ['on server', 'written offline']);
    assert.equal(again.pending, 1);
    net.state.offline = false;
    await again.flush();
    assert.deepEqual(
      (await admin.list({ sortBy: 'title' })).documents.map((d) => d.title),
      ['on server', 'written offline'],
    );
    again.close();
  });

  test("property: the replica's queries answer exactly as the server's lists, for random filters and sorts", async () => {
    const r0 = prng(28);
    const docs = Array.from({ length: 80 }, (_, i) => randomDocument(r0, i));
    const admin = f.admin().collection('prop');
    await admin.bulkCreate(docs as never);
    const r = f.admin().collection('prop').replica();
    await r.ready;
    await until(() => r.query().length === docs.length, 10_000, 'snapshot');
    const sorts = ['id', 'createdAt', 'a', 'b', 'n', 'n.x', 'tags', 'missing'];
    let compared = 0;
    for (let i = 0; i < 60; i++) {
      const filter = randomFilter(r0) as Record<string, unknown>;
      const sortBy = r0.pick(sorts);
      const sortOrder = r0.pick(['asc', 'desc'] as const);
      let server: string[];
      try {
        server = (await admin.list({ filter: filter as never, sortBy, sortOrder, limit: 1000 })).documents.map((d) => d.id);
      } catch (e) {
        // A filter the server refuses, the replica refuses too.
        assert.ok(e instanceof SvcError && e.status === 400, String(e));
        assert.throws(() => r.query({ filter, sortBy, sortOrder }));
        continue;
      }
      const local = r.query({ filter, sortBy, sortOrder }).map((d) => d.id);
      assert.deepEqual(local, server, `filter ${JSON.stringify(filter)} sortBy ${sortBy} ${sortOrder}`);
      compared++;
    }
    assert.ok(compared > 40, `compared ${compared}`);
    r.close();
  });
});

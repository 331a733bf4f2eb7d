import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, MemorySessionStore, SvcError, type Doc, type FieldPath, type Filter, type OpenFilter } from '../src/index.ts';
import { startRecorder, startServer, type TestServer } from './helpers.ts';
import { postgresAvailable } from '../../server/test/helpers/stores.ts';

interface Post {
  title: string;
  status: 'open' | 'done';
  score: number;
  tags: string[];
  author: { name: string; age?: number };
  items?: Array<{ sku: string; qty: number }>;
}

const posts = (n: number): Post[] =>
  Array.from({ length: n }, (_, i) => ({
    title: `t${i}`,
    status: i % 2 ? 'open' : 'done',
    score: i % 10,
    tags: i % 3 ? ['a'] : ['a', 'b'],
    author: { name: `n${i % 4}`, age: i },
    items: [{ sku: `s${i % 5}`, qty: i % 7 }],
  }));

// Compile-time checks of Filter<T> (tsc runs over the tests): each @ts-expect-error must be an error.
const typed: Filter<Post>[] = [
  { status: 'open', score: { $gte: 2, $lt: 8 }, 'author.name': { $prefix: 'n' }, tags: 'a' },
  { tags: { $all: ['a', 'b'], $size: 2 }, 'items.qty': { $gt: 3 }, items: { $elemMatch: { sku: 's1', qty: { $gte: 1 } } } },
  { $or: [{ id: 'x' }, { createdAt: { $gte: '2026-01-01T00:00:00.000Z' } }], 'author.age': { $exists: false }, title: { $icontains: 'T' } },
  // @ts-expect-error a path T does not have
  { titel: 'x' },
  // @ts-expect-error a value of the wrong type
  { score: 'high' },
  // @ts-expect-error a value outside a literal union
  { status: 'closed' },
  // @ts-expect-error an operand of the wrong type, under a nested path
  { 'author.name': { $gt: 3 } },
  // @ts-expect-error an unknown operator
  { score: { $near: 1 } },
];
const open: OpenFilter = { anything: { $gt: 1 }, 'deep.path': 'x' };
const paths: FieldPath<Post>[] = ['title', 'author.name', 'items.sku'];
// @ts-expect-error not a path of Post
const badPath: FieldPath<Post> = 'author.nick';
void [open, paths, badPath];

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`querying from the SDK [${kind}]`, async () => {
    if (kind === 'postgres' && !(await postgresAvailable())) throw new Error('PostgreSQL is not available');
    let server: TestServer;
    let recorder: Awaited<ReturnType<typeof startRecorder>>;
    let key: string;
    before(async () => {
      server = await startServer(kind);
      key = (await server.createDatabase()).secretKey;
      recorder = await startRecorder(server.url);
    });
    after(async () => {
      await recorder.close();
      await server.close();
    });
    const client = (url = server.url) => createClient({ url, key, sessionStore: new MemorySessionStore() });

    test('typed filters run as written', async () => {
      const c = client().collection<Post>('typed');
      await c.bulkCreate(posts(60));
      const total = async (filter: Filter<Post>) => (await c.list({ filter, limit: 0 })).total;
      assert.equal(await total(typed[0]), 18);
      assert.equal(await total({ tags: { $all: ['a', 'b'] } }), 20);
      assert.equal(await total({ 'author.name': 'n1', score: { $in: [1, 5, 9] } }), 9);
      const loose = client().collection('typed');
      assert.equal((await loose.list({ filter: { 'author.name': { $in: ['n0', 'n2'] } }, limit: 0 })).total, 30);
    });

    test('list: nextCursor and cursor page by keyset; limit 0 counts; fields project', async () => {
      const c = client().collection<Post>('paged');
      await c.bulkCreate(posts(45));
      const first = await c.list({ sortBy: 'score', limit: 20 });
      assert.equal(typeof first.nextCursor, 'string');
      const second = await c.list({ sortBy: 'score', limit: 20, cursor: first.nextCursor! });
      const third = await c.list({ sortBy: 'score', limit: 20, cursor: second.nextCursor! });
      assert.equal(third.documents.length, 5);
      assert.equal(third.nextCursor, null);
      const ids = [...first.documents, ...second.documents, ...third.documents].map((d) => d.id);
      assert.equal(new Set(ids).size, 45);
      await assert.rejects(
        c.list({ sortBy: 'title', cursor: first.nextCursor! }),
        (e: unknown) => e instanceof SvcError && e.status === 400 && e.code === 'invalid_cursor',
      );
      assert.deepEqual(await c.list({ limit: 0, filter: { status: 'open' } }), { documents: [], total: 22, limit: 0, offset: 0, nextCursor: null });

      const projected = await c.list({ fields: ['title', 'author.name'], limit: 1 });
      const doc = projected.documents[0];
      assert.deepEqual(Object.keys(doc).sort(), ['author', 'createdAt', 'id', 'title', 'updatedAt']);
      // Projected documents are typed with every field optional.
      const age: number | undefined = doc.author?.age;
      assert.equal(age, undefined);
      assert.deepEqual(doc.author, { name: 'n0' });
      const one = await c.get(doc.id, { fields: ['tags'] });
      assert.deepEqual(one.tags, ['a', 'b']);
      assert.equal(one.title, undefined);
    });

    test('iterate() pages by cursor: every document once while others are inserted', async () => {
      const c = client(recorder.url).collection<Post>('iterated');
      const created = await c.bulkCreate(posts(230));
      const before = recorder.requests.length;
      const seen: Doc<Post>[] = [];
      let added = 0;
      for await (const d of c.iterate({ pageSize: 25, sortBy: 'score', sortOrder: 'desc' })) {
        seen.push(d);
        // New documents of every score land before and after the position reached.
        if (seen.length % 25 === 1) await c.create({ ...posts(1)[0], score: added++ % 10 });
      }
      const ids = seen.map((d) => d.id);
      assert.equal(new Set(ids).size, ids.length, 'no document twice');
      for (const d of created) assert.ok(ids.includes(d.id), `${d.id} was skipped`);
      const pages = recorder.requests.slice(before).filter((r) => r.method === 'GET');
      assert.ok(pages.length >= 10);
      assert.ok(
        pages.every((r) => !r.url.includes('offset=')),
        'no offset paging',
      );
      assert.ok(
        pages.slice(1).every((r) => r.url.includes('cursor=')),
        'every page after the first carries the cursor',
      );
      const scores = seen.map((d) => d.score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => b - a),
        'in the list order',
      );
    });

    test('search and fields are sent as query parameters', async () => {
      const c = client(recorder.url).collection<Post>('sent');
      const before = recorder.requests.length;
      await c.list({ search: 'hello world', fields: ['title', 'author.name'] }).catch(() => undefined);
      const r = recorder.requests[before];
      const q = new URL(r.url, 'http://x').searchParams;
      assert.equal(q.get('search'), 'hello world');
      assert.equal(q.get('fields'), 'title,author.name');
    });
  });
}

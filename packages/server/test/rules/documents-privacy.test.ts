import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';

type Todo = { id: string; owner: string; title: string; createdAt: string; updatedAt: string; [k: string]: unknown };
type Page = { documents: Todo[]; total: number };

const own = { $auth: 'id' };
const RULES = { todos: { read: { owner: own }, create: { owner: own }, update: { owner: own }, delete: { owner: own } } };

/**
 * API.md §10 for the app it was made for: a private todo list in a browser, public key and a
 * session, no backend. Two users may neither see, change nor delete each other's todos, by any
 * route; what they may do to their own works as it would with a secret key.
 */
forEachStore('private todos: two users under owner rules', (kind) => {
  const t = useServer(kind);
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const as = (u: SignedIn): ApiClient =>
    apiClient(
      () => t.server,
      () => t.db.publicKey,
      () => ({ headers: { 'x-session-token': u.session.token } }),
    );
  let ann: SignedIn;
  let bob: SignedIn;
  let annC: ApiClient;
  let bobC: ApiClient;
  let annTodos: Todo[];
  let bobTodos: Todo[];

  before(async () => {
    await secret.put('/rules', { rules: RULES });
    ann = await newUser(t.server, t.db.publicKey, 'ann@todos.test');
    bob = await newUser(t.server, t.db.publicKey, 'bob@todos.test');
    annC = as(ann);
    bobC = as(bob);
    annTodos = (
      await annC.post<{ documents: Todo[] }>(
        '/todos/bulk',
        { documents: ['milk', 'bread', 'eggs'].map((title, i) => ({ owner: ann.user.id, title, rank: i })) },
        201,
      )
    ).documents;
    bobTodos = [];
    for (const title of ['taxes', 'garden']) bobTodos.push(await bobC.post<Todo>('/todos/docs', { owner: bob.user.id, title, rank: 10 }, 201));
  });

  const stored = () => secret.get<Page>('/todos/docs', 200, { query: { limit: 1000, sortBy: 'title' } });

  test('each lists only their own todos, whatever they filter, sort or page by', async () => {
    for (const [client, mine] of [
      [annC, annTodos],
      [bobC, bobTodos],
    ] as const) {
      const ids = mine.map((d) => d.id).sort();
      const page = await client.get<Page>('/todos/docs', 200, { query: { limit: 100 } });
      assert.deepEqual(page.documents.map((d) => d.id).sort(), ids);
      assert.equal(page.total, ids.length);
      const queries: Array<Record<string, string | number>> = [
        { sortBy: 'title', sortOrder: 'desc' },
        { sortBy: 'owner' },
        { sortBy: 'rank', limit: 1, offset: 1 },
        { filter: JSON.stringify({ owner: { $exists: true } }) },
        { filter: JSON.stringify({ title: { $gte: '' } }) },
      ];
      for (const query of queries) {
        const r = await client.get<Page>('/todos/docs', 200, { query });
        assert.ok(
          r.documents.every((d) => ids.includes(d.id)),
          JSON.stringify(query),
        );
        assert.ok(r.total <= ids.length, JSON.stringify(query));
      }
    }
  });

  test("a filter naming the other user's id finds nothing, alone or ORed", async () => {
    for (const filter of [
      { owner: bob.user.id },
      { owner: { $in: [bob.user.id, 'x'] } },
      { $or: [{ owner: bob.user.id }, { title: 'taxes' }] },
      { owner: { $ne: ann.user.id } },
    ]) {
      const r = await annC.get<Page>('/todos/docs', 200, { query: { filter: JSON.stringify(filter) } });
      assert.deepEqual([r.documents, r.total], [[], 0], JSON.stringify(filter));
    }
  });

  test("neither gets, changes nor deletes the other's todos: 404 as if they did not exist; the todos are untouched", async () => {
    const before = await stored();
    for (const [client, theirs] of [
      [annC, bobTodos],
      [bobC, annTodos],
    ] as const) {
      for (const todo of theirs) {
        assertError(await client.request('GET', `/todos/docs/${todo.id}`), 404, 'not_found', 'get');
        assertError(await client.request('PATCH', `/todos/docs/${todo.id}`, { body: { title: 'mine now' } }), 404, 'not_found', 'patch');
        assertError(
          await client.request('PATCH', `/todos/docs/${todo.id}`, { body: { owner: todo.owner === ann.user.id ? bob.user.id : ann.user.id } }),
          404,
          'not_found',
          'patch that takes it',
        );
        assertError(await client.request('DELETE', `/todos/docs/${todo.id}`), 404, 'not_found', 'delete');
      }
    }
    assert.deepEqual(await stored(), before);
  });

  test('neither gives a todo away nor creates one for the other, one by one or in a bulk', async () => {
    const before = await stored();
    assertError(await annC.request('PATCH', `/todos/docs/${annTodos[0].id}`, { body: { owner: bob.user.id } }), 403, 'forbidden', 'give away');
    assertError(await annC.request('POST', '/todos/docs', { body: { owner: bob.user.id, title: 'spam' } }), 403, 'forbidden', 'create for bob');
    assertError(
      await annC.request('POST', '/todos/bulk', {
        body: {
          documents: [
            { owner: ann.user.id, title: 'ok' },
            { owner: bob.user.id, title: 'spam' },
          ],
        },
      }),
      403,
      'forbidden',
      'bulk',
    );
    // Third version (§10): a canonical UUID id is allowed whatever the create rule says about id, so
    // bob's (random UUIDv7) id is a duplicate, 409; an id of another form still needs a rule naming id.
    assertError(await annC.request('POST', '/todos/docs', { body: { id: bobTodos[0].id, owner: ann.user.id } }), 409, 'conflict', "bob's id");
    assertError(await annC.request('POST', '/todos/docs', { body: { id: 'bobs-todo', owner: ann.user.id } }), 403, 'forbidden', 'an own id');
    assert.deepEqual(await stored(), before);
  });

  test('each changes and deletes their own, and the other still sees nothing of it', async () => {
    const edited = await annC.patch<Todo>(`/todos/docs/${annTodos[1].id}`, { title: 'rye bread', done: true });
    assert.deepEqual([edited.title, edited.done, edited.owner], ['rye bread', true, ann.user.id]);
    await annC.delete(`/todos/docs/${annTodos[2].id}`);
    assertError(await annC.request('GET', `/todos/docs/${annTodos[2].id}`), 404, 'not_found', 'deleted');
    assert.equal((await annC.get<Page>('/todos/docs')).total, 2);
    assert.equal((await bobC.get<Page>('/todos/docs')).total, 2);
    const titles = (await stored()).documents.map((d) => d.title);
    assert.deepEqual(titles, ['garden', 'milk', 'rye bread', 'taxes']);
  });

  test("the check and the write see the same version: an update racing a change of owner never lands on a todo that was no longer the user's", async () => {
    const todo = await annC.post<Todo>('/todos/docs', { owner: ann.user.id, title: 'contested' }, 201);
    const from = t.server.changes.length;
    // The secret key hands the todo back and forth while ann edits it; each of her edits stamps it.
    await Promise.all([
      (async () => {
        for (let i = 0; i < 20; i += 1) await secret.patch(`/todos/docs/${todo.id}`, { owner: i % 2 ? ann.user.id : bob.user.id });
      })(),
      (async () => {
        for (let i = 0; i < 20; i += 1) {
          const r = await annC.request('PATCH', `/todos/docs/${todo.id}`, { body: { stamp: i } });
          assert.ok(r.status === 200 || r.status === 404, r.text);
        }
      })(),
    ]);
    const updates = t.server.changes
      .slice(from)
      .filter((e) => e.type === 'document.updated' && e.document.id === todo.id)
      .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
    assert.ok(updates.length >= 20);
    let current: unknown = todo;
    for (const e of updates) {
      // Each update starts from the version the one before it made: none was judged on an older one.
      assert.deepEqual(e.previous, current, `event ${e.id} started from another version than the last`);
      if (e.document.stamp !== e.previous?.stamp)
        assert.equal(e.previous?.owner, ann.user.id, `ann's edit ${String(e.document.stamp)} landed on a todo of ${String(e.previous?.owner)}`);
      current = e.document;
    }
  });
});

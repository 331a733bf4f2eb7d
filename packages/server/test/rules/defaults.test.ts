// `defaults` in rules (API.md §10, third version): fields a public-key create fills in when its body
// lacks them, before the create rule is checked; constants or `$auth` operands; never over a value
// the body gives; a missing `$auth` value leaves the field out; secret keys get none.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';

type Doc = { id: string; [k: string]: unknown };
const own = { $auth: 'id' };
const RULES = {
  todos: {
    defaults: { owner: own, done: false, tags: ['inbox'] },
    read: { owner: own },
    create: { owner: own },
    update: { owner: own },
  },
  notes: { defaults: { author: { $auth: 'email' }, kind: 'note' }, create: true, read: true },
  '*': { defaults: { origin: 'browser' }, create: true, read: true },
};

forEachStore('rules: defaults', (kind) => {
  const t = useServer(kind);
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const anonymous = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  let ann: SignedIn;
  let bob: SignedIn;
  let annC: ApiClient;

  before(async () => {
    await secret.put('/rules', { rules: RULES });
    ann = await newUser(t.server, t.db.publicKey, 'ann@defaults.test');
    bob = await newUser(t.server, t.db.publicKey, 'bob@defaults.test');
    annC = apiClient(
      () => t.server,
      () => t.db.publicKey,
      () => ({ headers: { 'x-session-token': ann.session.token } }),
    );
  });

  test('GET /rules answers the defaults exactly as written', async () => {
    assert.deepEqual(await secret.get('/rules'), { rules: RULES });
  });

  test('a create without owner gets the signed-in user as owner (so the owner rule allows it), and the constants', async () => {
    const todo = await annC.post<Doc>('/todos/docs', { title: 'Buy milk' }, 201);
    assert.equal(todo.owner, ann.user.id);
    assert.equal(todo.done, false);
    assert.deepEqual(todo.tags, ['inbox']);
    assert.deepEqual(await secret.get<Doc>(`/todos/docs/${todo.id}`), todo, 'stored as answered');
  });

  test('a value the body gives is never overridden: another owner stays, and the create rule refuses it', async () => {
    const kept = await annC.post<Doc>('/todos/docs', { title: 'Done already', done: true, tags: null }, 201);
    assert.equal(kept.done, true);
    assert.equal(kept.tags, null, 'null is a value the body gives');
    const r = await annC.request('POST', '/todos/docs', { body: { title: 'For bob', owner: bob.user.id } });
    assertError(r, 403, 'forbidden');
  });

  test('bulk: every document gets the defaults it lacks', async () => {
    const { documents } = await annC.post<{ documents: Doc[] }>('/todos/bulk', { documents: [{ title: 'a' }, { title: 'b', done: true }] }, 201);
    assert.deepEqual(
      documents.map((d) => [d.title, d.owner, d.done]),
      [
        ['a', ann.user.id, false],
        ['b', ann.user.id, true],
      ],
    );
  });

  test('without a session, a $auth default is left out (the owner rule then answers 401), constants still apply', async () => {
    assertError(await anonymous.request('POST', '/todos/docs', { body: { title: 'x' } }), 401, 'invalid_session');
    const note = await anonymous.post<Doc>('/notes/docs', { text: 'hi' }, 201);
    assert.equal(note.kind, 'note');
    assert.ok(!('author' in note), 'no user: no author');
  });

  test('a $auth value the user lacks leaves the field out (the e-mail counts only once verified)', async () => {
    const note = await annC.post<Doc>('/notes/docs', { text: 'unverified' }, 201);
    assert.ok(!('author' in note), `an unverified e-mail is missing: ${JSON.stringify(note)}`);
    assert.equal(note.kind, 'note');
  });

  test('the "*" entry gives its defaults to collections without an entry; a collection entry replaces them whole', async () => {
    const other = await anonymous.post<Doc>('/misc/docs', { n: 1 }, 201);
    assert.equal(other.origin, 'browser');
    const note = await anonymous.post<Doc>('/notes/docs', { n: 2 }, 201);
    assert.ok(!('origin' in note));
  });

  test('secret keys get no defaults', async () => {
    const todo = await secret.post<Doc>('/todos/docs', { title: 'server side' }, 201);
    assert.ok(!('owner' in todo) && !('done' in todo) && !('tags' in todo), JSON.stringify(todo));
    const { documents } = await secret.post<{ documents: Doc[] }>('/misc/bulk', { documents: [{ n: 1 }] }, 201);
    assert.ok(!('origin' in documents[0]));
  });

  test('bad defaults are 400 invalid_rules naming each: not an object, a path, a system field, an unknown $auth field, a $ key', async () => {
    const bad = {
      a: { defaults: 'owner' },
      b: { defaults: { 'author.name': 'x', id: 'fixed', createdAt: 'now', owner: { $auth: 'name' }, meta: { $set: 1 } } },
    };
    const r = await secret.request('PUT', '/rules', { body: { rules: bad } });
    assertError(r, 400, 'invalid_rules');
    const paths = (r.json as { error: { details: Array<{ path: string; message: string }> } }).error.details.map((d) => d.path).sort();
    assert.deepEqual(paths, [
      '/rules/a/defaults',
      '/rules/b/defaults/author.name',
      '/rules/b/defaults/createdAt',
      '/rules/b/defaults/id',
      '/rules/b/defaults/meta',
      '/rules/b/defaults/owner',
    ]);
    assert.deepEqual(await secret.get('/rules'), { rules: RULES }, 'nothing was written');
    // The same check through the database's settings.
    const token = await t.server.operatorToken();
    const patch = await secret.request('PATCH', `/admin/databases/${t.db.databaseId}`, { key: token, body: { settings: { rules: bad } } });
    assertError(patch, 400, 'invalid_rules');
  });
});

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { request, useServer, type Response } from '../helpers/server.ts';
import { apiClient, assertError, assertStatus, type ApiClient } from '../helpers/api.ts';
import { auth, newUser, type SignedIn } from '../helpers/auth-client.ts';
import { indexCatalog } from '../documents/index-catalog.ts';

type Doc = Record<string, unknown> & { id: string };
type Page = { documents: Doc[]; total: number; limit: number; offset: number };

const own = { $auth: 'id' };

/**
 * API.md §10's table, row by row, for public-key requests to the document routes, over HTTP on
 * both stores. The secret key sets the scene (rules never bind it) and checks what was written.
 */
const RULES = {
  todos: { read: { owner: own }, create: { owner: own }, update: { owner: own }, delete: { owner: own } },
  // The update rule matches more than the read rule, and the other way round.
  drafts: { read: { published: true }, update: { owner: own }, delete: { owner: own } },
  locked: {
    read: { owner: own },
    update: { $and: [{ owner: own }, { locked: { $ne: true } }] },
    delete: { $and: [{ owner: own }, { locked: { $ne: true } }] },
  },
  members: { read: 'signedIn', create: 'signedIn' },
  open: { read: true, create: true, update: true, delete: true },
  closed: { read: false, create: false },
  writeOnly: { create: true },
  profiles: { read: true, create: { id: own }, update: { id: own } },
  invites: { read: { invitee: { $auth: 'email' } } },
  // Updates and deletes need no user, but the read rule does.
  notes: { read: { owner: own }, update: true, delete: true },
  tasks: { read: { assignee: own } },
  '*': { read: true },
};

forEachStore('document routes under rules (API.md §10 table)', (kind) => {
  const t = useServer(kind);
  const secret = apiClient(
    () => t.server,
    () => t.db.secretKey,
  );
  const anonymous = apiClient(
    () => t.server,
    () => t.db.publicKey,
  );
  /** A public-key client acting for a user (X-Session-Token). */
  const as = (u: SignedIn | string): ApiClient =>
    apiClient(
      () => t.server,
      () => t.db.publicKey,
      () => ({ headers: { 'x-session-token': typeof u === 'string' ? u : u.session.token } }),
    );
  let ann: SignedIn;
  let bob: SignedIn;
  let annC: ApiClient;
  let bobC: ApiClient;

  before(async () => {
    await secret.put('/rules', { rules: RULES });
    ann = await newUser(t.server, t.db.publicKey, 'ann@example.com');
    bob = await newUser(t.server, t.db.publicKey, 'bob@example.com');
    annC = as(ann);
    bobC = as(bob);
  });

  /** Everything a database holds, as the secret key sees it, and the number of changes: to prove nothing was written. */
  const snapshot = async (collection: string) => ({
    docs: (await secret.get<Page>(`/${collection}/docs`, 200, { query: { limit: 1000 } })).documents,
    changes: t.server.changes.length,
  });

  test('a write whose rule is false or absent → 403 read_only_key, with or without a session, whatever the body; nothing written', async () => {
    const d = await secret.post<Doc>('/closed/docs', { owner: ann.user.id }, 201);
    const w = await secret.post<Doc>('/writeOnly/docs', { a: 1 }, 201);
    const before = [await snapshot('closed'), await snapshot('writeOnly'), await snapshot('members')];
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/closed/docs', { owner: ann.user.id }],
      ['POST', '/closed/bulk', { documents: [{ owner: ann.user.id }] }],
      ['PATCH', `/closed/docs/${d.id}`, { x: 1 }],
      ['PATCH', '/closed/docs/missing', { x: 1 }],
      ['DELETE', `/closed/docs/${d.id}`, undefined],
      ['PATCH', `/writeOnly/docs/${w.id}`, { a: 2 }],
      ['DELETE', `/writeOnly/docs/${w.id}`, undefined],
      ['PATCH', `/members/docs/${d.id}`, { a: 2 }],
      ['POST', '/closed/docs', 'not an object'],
    ];
    for (const client of [anonymous, annC]) {
      for (const [method, path, body] of cases) assertError(await client.request(method, path, { body }), 403, 'read_only_key', `${method} ${path}`);
    }
    assertError(await annC.request('PATCH', `/closed/docs/${d.id}`, { raw: '{not json', contentType: 'application/json' }), 403, 'read_only_key', 'a bad body');
    assert.deepEqual([await snapshot('closed'), await snapshot('writeOnly'), await snapshot('members')], before);
  });

  test('a read whose rule is false or absent → 403 forbidden, with or without a session', async () => {
    const d = await secret.post<Doc>('/writeOnly/docs', { a: 1 }, 201);
    for (const client of [anonymous, annC]) {
      for (const path of ['/closed/docs', '/closed/docs/anything', '/writeOnly/docs', `/writeOnly/docs/${d.id}`]) {
        assertError(await client.request('GET', path), 403, 'forbidden', `GET ${path}`);
      }
    }
    // A create rule of `true` is enough to write without reading.
    const made = await anonymous.post<Doc>('/writeOnly/docs', { b: 2 }, 201);
    assert.equal(made.b, 2);
  });

  test('"signedIn" or a filter rule without a live session → 401 invalid_session, on every route', async () => {
    const todo = await annC.post<Doc>('/todos/docs', { owner: ann.user.id }, 201);
    const ended = await newUser(t.server, t.db.publicKey, 'ended@example.com');
    assertStatus(await auth.post(t.server, t.db.publicKey, '/auth/sign-out', ended.session.token), 204, 'sign-out');
    const other = await t.server.createDatabase();
    const stranger = await newUser(t.server, other.publicKey, 'stranger@example.com');
    const before = await snapshot('todos');
    const sessions: Array<[string, Record<string, string>]> = [
      ['no session', {}],
      ['an empty one', { 'x-session-token': '' }],
      ['an unknown one', { 'x-session-token': 'not-a-session' }],
      ['an ended one', { 'x-session-token': ended.session.token }],
      ["another database's", { 'x-session-token': stranger.session.token }],
    ];
    const calls: Array<[string, string, unknown]> = [
      ['GET', '/todos/docs', undefined],
      ['GET', `/todos/docs/${todo.id}`, undefined],
      ['POST', '/todos/docs', { owner: ann.user.id }],
      ['POST', '/todos/bulk', { documents: [{ owner: ann.user.id }] }],
      ['PATCH', `/todos/docs/${todo.id}`, { x: 1 }],
      ['DELETE', `/todos/docs/${todo.id}`, undefined],
      ['GET', '/members/docs', undefined],
      ['POST', '/members/docs', { a: 1 }],
      ['PATCH', `/drafts/docs/${todo.id}`, { x: 1 }],
      // update and delete: true would do, but the read rule needs a user.
      ['PATCH', `/notes/docs/${todo.id}`, { x: 1 }],
      ['DELETE', `/notes/docs/${todo.id}`, undefined],
    ];
    for (const [what, headers] of sessions) {
      for (const [method, path, body] of calls) {
        assertError(await anonymous.request(method, path, { body, headers }), 401, 'invalid_session', `${method} ${path} with ${what}`);
      }
    }
    assert.deepEqual(await snapshot('todos'), before);
  });

  test('"signedIn": any live session of this database reads and creates; `true` ignores the session, even a bad one', async () => {
    const m = await annC.post<Doc>('/members/docs', { by: 'ann' }, 201);
    assert.deepEqual(await bobC.get(`/members/docs/${m.id}`), m);
    assert.equal((await bobC.get<Page>('/members/docs')).total, 1);
    const o = await as('not-a-session').post<Doc>('/open/docs', { a: 1 }, 201);
    assert.deepEqual(await as('not-a-session').get(`/open/docs/${o.id}`), o);
    assert.equal((await as('not-a-session').patch<Doc>(`/open/docs/${o.id}`, { a: 2 })).a, 2);
    await as('not-a-session').delete(`/open/docs/${o.id}`);
  });

  test('a list under a filter rule: only the matching documents; total, limit and offset count only them', async () => {
    await secret.post('/todos/bulk', { documents: Array.from({ length: 7 }, (_, i) => ({ owner: bob.user.id, n: i, list: 'paging' })) }, 201);
    await secret.post('/todos/bulk', { documents: Array.from({ length: 5 }, (_, i) => ({ owner: ann.user.id, n: i, list: 'paging' })) }, 201);
    await secret.post(
      '/todos/bulk',
      {
        documents: [
          { n: 99, list: 'paging' },
          { owner: null, list: 'paging' },
          { owner: [ann.user.id], list: 'paging' },
        ],
      },
      201,
    );
    const filter = JSON.stringify({ list: 'paging' });
    const all = await annC.get<Page>('/todos/docs', 200, { query: { filter, limit: 1000, sortBy: 'n' } });
    assert.deepEqual(
      all.documents.map((d) => [d.owner, d.n]),
      [0, 1, 2, 3, 4].map((n) => [ann.user.id, n]),
      'an array holding ann is not ann',
    );
    assert.equal(all.total, 5);
    const page = await annC.get<Page>('/todos/docs', 200, { query: { filter, limit: 2, offset: 2, sortBy: 'n', sortOrder: 'desc' } });
    assert.deepEqual(
      page.documents.map((d) => d.n),
      [2, 1],
    );
    assert.deepEqual([page.total, page.limit, page.offset], [5, 2, 2]);
    const past = await annC.get<Page>('/todos/docs', 200, { query: { filter, limit: 2, offset: 5 } });
    assert.deepEqual([past.documents, past.total], [[], 5], 'past the end of what ann sees, not of the collection');
    assert.equal((await bobC.get<Page>('/todos/docs', 200, { query: { filter, limit: 3 } })).total, 7);
    assert.equal((await secret.get<Page>('/todos/docs', 200, { query: { filter } })).total, 15, 'the secret key sees every document');
    // A filter on a field every hidden document has cannot widen the rule.
    const spy = await annC.get<Page>('/todos/docs', 200, {
      query: { filter: JSON.stringify({ $or: [{ owner: bob.user.id }, { n: 99 }, { owner: { $exists: false } }] }) },
    });
    assert.deepEqual([spy.documents, spy.total], [[], 0]);
    // A $auth value that is missing (an unverified e-mail) matches nothing, never a missing field.
    await secret.post('/invites/bulk', { documents: [{ invitee: 'ann@example.com' }, { note: 'no invitee' }, { invitee: null }] }, 201);
    const invites = await annC.get<Page>('/invites/docs');
    assert.deepEqual([invites.documents, invites.total], [[], 0]);
  });

  test("a list under a filter rule builds an automatic index for the rule's field, as a filter does", async () => {
    const { indexOn, waitForIndex } = indexCatalog(() => t.server, kind);
    await secret.post('/tasks/docs', { assignee: ann.user.id }, 201);
    assert.deepEqual(await indexOn('assignee'), []);
    for (let i = 0; i < 3; i += 1) assert.equal((await annC.get<Page>('/tasks/docs')).total, 1);
    assert.equal((await waitForIndex('assignee')).length, 1);
  });

  test("get, update or delete of a document that the operation's rule or the read rule does not match → 404; nothing changes", async () => {
    const bobs = await bobC.post<Doc>('/todos/docs', { owner: bob.user.id, title: 'bob' }, 201);
    // drafts: ann may update and delete her drafts, but read only published ones.
    const draft = await secret.post<Doc>('/drafts/docs', { owner: ann.user.id, published: false }, 201);
    const published = await secret.post<Doc>('/drafts/docs', { owner: bob.user.id, published: true }, 201);
    // locked: ann reads her locked document, but may neither update nor delete it.
    const lockedDoc = await secret.post<Doc>('/locked/docs', { owner: ann.user.id, locked: true }, 201);
    // notes: anyone may update and delete, but only the notes they can read.
    const bobsNote = await secret.post<Doc>('/notes/docs', { owner: bob.user.id }, 201);
    const before = await Promise.all(['todos', 'drafts', 'locked', 'notes'].map(snapshot));
    const refused: Array<[string, string, unknown]> = [
      ['GET', `/todos/docs/${bobs.id}`, undefined],
      ['PATCH', `/todos/docs/${bobs.id}`, { title: 'ann was here' }],
      ['DELETE', `/todos/docs/${bobs.id}`, undefined],
      ['GET', `/drafts/docs/${draft.id}`, undefined],
      ['PATCH', `/drafts/docs/${draft.id}`, { published: false }],
      ['DELETE', `/drafts/docs/${draft.id}`, undefined],
      ['PATCH', `/drafts/docs/${published.id}`, { x: 1 }],
      ['DELETE', `/drafts/docs/${published.id}`, undefined],
      ['PATCH', `/locked/docs/${lockedDoc.id}`, { locked: false }],
      ['DELETE', `/locked/docs/${lockedDoc.id}`, undefined],
      ['GET', '/todos/docs/no-such-id', undefined],
      ['PATCH', '/todos/docs/no-such-id', { x: 1 }],
      ['DELETE', '/todos/docs/no-such-id', undefined],
      ['PATCH', `/notes/docs/${bobsNote.id}`, { x: 1 }],
      ['DELETE', `/notes/docs/${bobsNote.id}`, undefined],
    ];
    const answers: Response[] = [];
    for (const [method, path, body] of refused) {
      const r = await annC.request(method, path, { body });
      assertError(r, 404, 'not_found', `${method} ${path}`);
      answers.push(r);
    }
    assert.deepEqual(await Promise.all(['todos', 'drafts', 'locked', 'notes'].map(snapshot)), before);
    // Hidden and missing documents answer alike, but for the id the message names.
    const shape = (r: Response) => r.text.replaceAll(/'[^']*'/g, "'…'");
    assert.equal(shape(answers[0]), shape(answers[10]));
    assert.deepEqual(await annC.get(`/locked/docs/${lockedDoc.id}`), lockedDoc, 'the read rule alone lets ann get it');
  });

  test('a create, or any document of a bulk, that the create rule does not match → 403 forbidden; nothing written', async () => {
    const before = await snapshot('todos');
    for (const body of [{ owner: bob.user.id }, { title: 'no owner' }, { owner: [ann.user.id] }, { owner: null }]) {
      assertError(await annC.request('POST', '/todos/docs', { body }), 403, 'forbidden', JSON.stringify(body));
    }
    const bulk = {
      documents: [
        { owner: ann.user.id, n: 1 },
        { owner: bob.user.id, n: 2 },
        { owner: ann.user.id, n: 3 },
      ],
    };
    assertError(await annC.request('POST', '/todos/bulk', { body: bulk }), 403, 'forbidden', 'a bulk with one foreign todo');
    assert.deepEqual(await snapshot('todos'), before);
    const made = await annC.post<{ documents: Doc[] }>(
      '/todos/bulk',
      {
        documents: [
          { owner: ann.user.id, n: 1 },
          { owner: ann.user.id, n: 2 },
        ],
      },
      201,
    );
    assert.deepEqual(
      made.documents.map((d) => d.n),
      [1, 2],
    );
  });

  test('an update whose stored document matches but whose result would not → 403 forbidden; nothing written', async () => {
    const mine = await annC.post<Doc>('/todos/docs', { owner: ann.user.id, title: 'mine' }, 201);
    const locking = await secret.post<Doc>('/locked/docs', { owner: ann.user.id, title: 'open for now' }, 201);
    const before = await snapshot('todos');
    for (const body of [{ owner: bob.user.id }, { owner: null }, { owner: [ann.user.id, bob.user.id] }]) {
      assertError(await annC.request('PATCH', `/todos/docs/${mine.id}`, { body }), 403, 'forbidden', JSON.stringify(body));
    }
    assertError(
      await annC.request('PATCH', `/locked/docs/${locking.id}`, { body: { locked: true } }),
      403,
      'forbidden',
      'ann locks it (the result breaks the update rule)',
    );
    assert.deepEqual(await snapshot('todos'), before);
    assert.deepEqual(await secret.get(`/locked/docs/${locking.id}`), locking);
    const edited = await annC.patch<Doc>(`/todos/docs/${mine.id}`, { title: 'edited' });
    assert.deepEqual(edited, await secret.get(`/todos/docs/${mine.id}`));
    assert.equal(edited.title, 'edited');
  });

  test('an update whose result the read rule hides → 204 with no body; the update is applied', async () => {
    const draft = await secret.post<Doc>('/drafts/docs', { owner: ann.user.id, published: true, title: 'out' }, 201);
    assert.deepEqual(await annC.get(`/drafts/docs/${draft.id}`), draft);
    const r = await annC.request('PATCH', `/drafts/docs/${draft.id}`, { body: { published: false, title: 'hidden now' } });
    assertStatus(r, 204, 'PATCH that unpublishes');
    assert.equal(r.text, '');
    const stored = await secret.get<Doc>(`/drafts/docs/${draft.id}`);
    assert.deepEqual([stored.published, stored.title], [false, 'hidden now']);
    assertError(await annC.request('GET', `/drafts/docs/${draft.id}`), 404, 'not_found', 'now hidden');
    const last = t.server.changes.at(-1)!;
    assert.deepEqual([last.type, last.document.id, last.document.title], ['document.updated', draft.id, 'hidden now'], 'the change log has it');
  });

  test('a create carrying its own id when the create rule does not name id → 403 forbidden; a rule that names id decides', async () => {
    const taken = await secret.post<Doc>('/todos/docs', { id: 'taken-by-bob', owner: bob.user.id }, 201);
    const before = await snapshot('todos');
    // Same answer whether the id is taken or free: ids are not probed.
    for (const id of [taken.id, 'free-id']) {
      assertError(await annC.request('POST', '/todos/docs', { body: { id, owner: ann.user.id } }), 403, 'forbidden', `own id ${id}`);
      assertError(
        await annC.request('POST', '/todos/bulk', { body: { documents: [{ owner: ann.user.id }, { id, owner: ann.user.id }] } }),
        403,
        'forbidden',
        `bulk with id ${id}`,
      );
    }
    assertError(await anonymous.request('POST', '/open/docs', { body: { id: 'chosen', a: 1 } }), 403, 'forbidden', 'a create rule of true names no id either');
    assert.deepEqual(await snapshot('todos'), before);
    // profiles: create {id: $auth.id}: a profile whose id is the user's own.
    const profile = await annC.post<Doc>('/profiles/docs', { id: ann.user.id, name: 'Ann' }, 201);
    assert.equal(profile.id, ann.user.id);
    assertError(await annC.request('POST', '/profiles/docs', { body: { id: bob.user.id, name: 'not Ann' } }), 403, 'forbidden', "a profile with bob's id");
    assertError(await annC.request('POST', '/profiles/docs', { body: { name: 'no id' } }), 403, 'forbidden', 'a generated id is not the user id');
    assertError(await annC.request('POST', '/profiles/docs', { body: { id: ann.user.id } }), 409, 'conflict', 'her own profile, twice');
    assertError(await bobC.request('PATCH', `/profiles/docs/${ann.user.id}`, { body: { name: 'Bob' } }), 404, 'not_found', "bob updates ann's profile");
    assert.equal((await annC.patch<Doc>(`/profiles/docs/${ann.user.id}`, { name: 'Ann B.' })).name, 'Ann B.');
  });

  test('GET /collections with a public key: only the collections whose read rule is true; the secret key sees all', async () => {
    const seeded = ['todos', 'drafts', 'members', 'open', 'closed', 'writeOnly', 'profiles', 'invites', 'notes', 'elsewhere'];
    for (const c of seeded) await secret.post(`/${c}/docs`, { seed: true }, 201);
    const everything = await secret.get<{ collections: Array<{ name: string; count: number }> }>('/collections');
    const names = new Set(everything.collections.map((c) => c.name));
    assert.ok(
      seeded.every((c) => names.has(c)),
      `the secret key sees every collection: ${[...names]}`,
    );
    // open and profiles read true; elsewhere has no entry, so "*" (read: true) is its entry.
    const expected = everything.collections.filter((c) => ['elsewhere', 'open', 'profiles'].includes(c.name));
    assert.equal(expected.length, 3);
    assert.deepEqual(await anonymous.get('/collections'), { collections: expected });
    assert.deepEqual(await annC.get('/collections'), { collections: expected }, 'a session does not add "signedIn" or filter collections');
  });

  test('the secret key and the operator are not subject to rules; a rule change applies to the next request', async () => {
    const bobs = await secret.post<Doc>('/todos/docs', { owner: bob.user.id }, 201);
    assert.equal((await secret.patch<Doc>(`/todos/docs/${bobs.id}`, { owner: 'anyone' })).owner, 'anyone');
    const op = apiClient(
      () => t.server,
      () => t.server.operatorToken(),
      () => ({ headers: { 'x-database-id': t.db.databaseId } }),
    );
    assert.equal((await op.post<Doc>('/closed/docs', { id: 'by-operator' }, 201)).id, 'by-operator');
    await op.delete('/closed/docs/by-operator');
    try {
      await secret.put('/rules', { rules: { todos: { read: true } } });
      assert.deepEqual(await anonymous.get(`/todos/docs/${bobs.id}`), await secret.get(`/todos/docs/${bobs.id}`));
      assertError(await annC.request('POST', '/todos/docs', { body: { owner: ann.user.id } }), 403, 'read_only_key', 'create is gone');
      await secret.put('/rules', { rules: {} });
      assertError(await anonymous.request('GET', '/todos/docs'), 403, 'forbidden', 'no entry at all');
      const off = await request(t.server, 'PATCH', `/admin/databases/${t.db.databaseId}`, {
        key: await t.server.operatorToken(),
        body: { settings: { rules: null } },
      });
      assertStatus(off, 200, 'rules removed');
      assert.equal((await anonymous.get<Page>('/todos/docs')).total > 0, true, 'no rules: the default lets public keys read');
      assertError(await annC.request('POST', '/todos/docs', { body: { owner: ann.user.id } }), 403, 'read_only_key', 'and write nothing');
    } finally {
      await secret.put('/rules', { rules: RULES });
    }
  });
});

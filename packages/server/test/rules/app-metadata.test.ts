import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { useServer } from '../helpers/server.ts';
import { apiClient, assertError, type ApiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';
import { insert, MARKS, putRules, settle, tokenUrl, watch } from '../realtime/watch.ts';

type Doc = { id: string; team?: unknown; title: string; [k: string]: unknown };
type Page = { documents: Doc[]; total: number };

const team = { $auth: 'appMetadata.team' };
const RULES = {
  projects: { read: { team }, create: { team }, update: { team }, delete: { team } },
  orgs: { read: { orgId: { $auth: 'appMetadata.org.id' } } },
  open: { read: { level: { $ne: { $auth: 'appMetadata.level' } } } },
  [MARKS]: { read: true },
};

/**
 * API.md §10 with §2.1: `{"$auth": "appMetadata.<path>"}` stands for the signed-in user's
 * appMetadata, which only the app's backend sets (PATCH /auth/users/:id). Documents see a change
 * at the next request; realtime within a second (the facts of the users a socket watches as are
 * read again at most once a second, realtime/user-facts.ts).
 */
forEachStore('rules: $auth appMetadata', (kind) => {
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
  const setMetadata = (u: SignedIn, appMetadata: object) => secret.patch(`/auth/users/${u.user.id}`, { appMetadata });
  const titles = async (c: ApiClient, collection: string) =>
    (await c.get<Page>(`/${collection}/docs`, 200, { query: { sortBy: 'title', limit: 1000 } })).documents.map((d) => d.title);

  before(async () => {
    await putRules(t.server, t.db.secretKey, RULES);
    for (const [title, teamValue] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
      ['n1', null],
      ['x1', ['a']],
    ] as const) {
      await insert(t.server, t.db.secretKey, 'projects', { title, team: teamValue });
    }
    await insert(t.server, t.db.secretKey, 'projects', { title: 'z-no-team' });
    await insert(t.server, t.db.secretKey, 'orgs', { title: 'org-7', orgId: 7 });
    await insert(t.server, t.db.secretKey, 'orgs', { title: 'org-8', orgId: 8 });
    await insert(t.server, t.db.secretKey, 'open', { title: 'gold', level: 'gold' });
    await insert(t.server, t.db.secretKey, 'open', { title: 'silver', level: 'silver' });
  });

  test('a list shows the documents whose field equals the value at appMetadata.<path>, never an array holding it', async () => {
    const ann = await newUser(t.server, t.db.publicKey, 'ann@teams.test');
    await setMetadata(ann, { team: 'a', org: { id: 7 }, level: 'gold' });
    assert.deepEqual(await titles(as(ann), 'projects'), ['a1', 'a2']);
    assert.deepEqual(await titles(as(ann), 'orgs'), ['org-7'], 'a nested path, a number');
    assert.deepEqual(await titles(as(ann), 'open'), ['silver'], '$ne against a value');
    const one = (await as(ann).get<Page>('/projects/docs', 200, { query: { filter: JSON.stringify({ title: 'b1' }) } })).documents;
    assert.deepEqual(one, [], "the caller's filter cannot reach past the rule");
  });

  test('a user without the key in appMetadata sees nothing, $ne included; an object or list value stands for nothing', async () => {
    const bob = await newUser(t.server, t.db.publicKey, 'bob@teams.test');
    assert.deepEqual(await titles(as(bob), 'projects'), [], 'appMetadata {}');
    assert.deepEqual(await titles(as(bob), 'open'), [], 'a missing operand makes $ne false too');
    await setMetadata(bob, { team: ['a'], org: 7 });
    assert.deepEqual(await titles(as(bob), 'projects'), [], 'a list is no scalar');
    assert.deepEqual(await titles(as(bob), 'orgs'), [], 'appMetadata.org.id under a number is missing');
    await setMetadata(bob, { team: { name: 'a' } });
    assert.deepEqual(await titles(as(bob), 'projects'), [], 'an object is no scalar');
  });

  test('writes obey it: create, update and delete only within the team; a changed appMetadata applies at the next request', async () => {
    const cid = await newUser(t.server, t.db.publicKey, 'cid@teams.test');
    await setMetadata(cid, { team: 'a' });
    const c = as(cid);
    const mine = await c.post<Doc>('/projects/docs', { title: 'a-new', team: 'a' }, 201);
    assertError(await c.request('POST', '/projects/docs', { body: { title: 'b-new', team: 'b' } }), 403, 'forbidden');
    assertError(await c.request('PATCH', `/projects/docs/${mine.id}`, { body: { team: 'b' } }), 403, 'forbidden');
    const b1 = (await secret.get<Page>('/projects/docs', 200, { query: { filter: JSON.stringify({ title: 'b1' }) } })).documents[0];
    assertError(await c.request('DELETE', `/projects/docs/${b1.id}`), 404, 'not_found');

    await setMetadata(cid, { team: 'b' });
    assert.deepEqual(await titles(c, 'projects'), ['b1'], 'the next request sees team b');
    assertError(await c.request('GET', `/projects/docs/${mine.id}`), 404, 'not_found');
    await c.patch(`/projects/docs/${b1.id}`, { note: 'seen by b' });
    assert.equal((await secret.get<Doc>(`/projects/docs/${b1.id}`)).note, 'seen by b');
    await secret.delete(`/projects/docs/${mine.id}`);
  });

  test('a disabled user is nobody: a filter rule answers 401 invalid_session', async () => {
    const dee = await newUser(t.server, t.db.publicKey, 'dee@teams.test');
    await setMetadata(dee, { team: 'a' });
    assert.deepEqual(await titles(as(dee), 'projects'), ['a1', 'a2']);
    await secret.patch(`/auth/users/${dee.user.id}`, { disabled: true });
    assertError(await as(dee).request('GET', '/projects/docs'), 401, 'invalid_session');
  });

  test('realtime: a socket gets the events its appMetadata lets it see, and follows a change of appMetadata within a second', async () => {
    const eve = await newUser(t.server, t.db.publicKey, 'eve@teams.test');
    await setMetadata(eve, { team: 'a' });
    const socket = await watch(await tokenUrl(t.server, t.db.publicKey, ['projects', MARKS], eve.session.token));
    const a = await insert(t.server, t.db.secretKey, 'projects', { title: 'rt-a', team: 'a' });
    await insert(t.server, t.db.secretKey, 'projects', { title: 'rt-b', team: 'b' });
    const [seen] = await settle(t.server, t.db.secretKey, [socket]);
    assert.deepEqual(
      seen.map((e) => e.document.id),
      [a.id],
    );

    await setMetadata(eve, { team: 'b' });
    // Each round writes one document of each team: once the change is read, only team b's arrive.
    let delivered: Array<Record<string, any>> = [];
    for (let n = 0; n < 100; n += 1) {
      socket.messages.length = 0;
      await insert(t.server, t.db.secretKey, 'projects', { title: `rt-a-${n}`, team: 'a' });
      await insert(t.server, t.db.secretKey, 'projects', { title: `rt-b-${n}`, team: 'b' });
      [delivered] = await settle(t.server, t.db.secretKey, [socket]);
      if (delivered.length === 1 && delivered[0].document.team === 'b') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(
      delivered.map((e) => e.document.team),
      ['b'],
      'after the change: team b only',
    );
    await socket.close();
  });
});

// The end user's session on documents and realtime (API.md §10): with a PUBLIC key, every document
// route and every realtime token request carries X-Session-Token while a session is stored; with a
// SECRET key, never. Asserted at the HTTP level, through a recording proxy in front of a real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySessionStore, type RealtimeState, type SvcClient } from '../src/index.ts';
import { fixture, killableWebSocket, startRecorder, until, type Fixture, type RecordedRequest } from './helpers.ts';

const fast = { reconnectInitialMs: 50, reconnectMaxMs: 500 };

/** The routes §10 puts under rules: documents, bulk and the collection list. */
const isDocumentRoute = (r: RecordedRequest) => /^\/v1\/(collections|[A-Za-z][\w-]*\/(docs|bulk))(\/|\?|$)/.test(r.url);
const isTokenRequest = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/realtime/token';

/** Every document call the SDK has, whatever the server answers (the rules decide that, not the SDK). */
async function everyDocumentCall(client: SvcClient): Promise<void> {
  const todos = client.collection<{ title: string }>('todos');
  const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
  await quietly(todos.create({ title: 'one' }));
  await quietly(todos.bulkCreate([{ title: 'two' }]));
  await quietly(todos.get('some-id'));
  await quietly(todos.update('some-id', { title: 'changed' }));
  await quietly(todos.delete('some-id'));
  await quietly(todos.list({ filter: { title: 'one' } }));
  await quietly(
    (async () => {
      for await (const _ of todos.iterate({ pageSize: 10 })) break;
    })(),
  );
  await quietly(client.collections());
}

describe('X-Session-Token on documents and realtime', () => {
  let f: Fixture;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  before(async () => {
    f = await fixture();
    recorder = await startRecorder(f.server.url);
  });
  after(async () => {
    await recorder.close();
    await f.close();
  });

  test('public key and a stored session: every document route carries it, with no new calls', async () => {
    const store = new MemorySessionStore();
    const client = f.browser({ url: recorder.url, sessionStore: store });
    const { session } = await client.auth.signUp({ email: 'ada@example.com', password: 'correct horse' });
    assert.ok(session);
    recorder.requests.length = 0;
    await everyDocumentCall(client);
    const docs = recorder.requests.filter(isDocumentRoute);
    assert.equal(docs.length, recorder.requests.length, 'no call besides the document calls');
    assert.deepEqual(
      docs.map((r) => `${r.method} ${r.url.split('?')[0]}`),
      [
        'POST /v1/todos/docs',
        'POST /v1/todos/bulk',
        'GET /v1/todos/docs/some-id',
        'PATCH /v1/todos/docs/some-id',
        'DELETE /v1/todos/docs/some-id',
        'GET /v1/todos/docs',
        'GET /v1/todos/docs',
        'GET /v1/collections',
      ],
    );
    for (const r of docs) assert.equal(r.session, session.token, `${r.method} ${r.url} carries the session`);
    assert.ok(
      docs.every((r) => r.status > 0),
      'the real server answered each',
    );
    assert.equal(store.get()?.token, session.token, 'answers other than invalid_session keep the session');
  });

  test('public key, signed out: no header', async () => {
    const client = f.browser({ url: recorder.url });
    recorder.requests.length = 0;
    await everyDocumentCall(client);
    assert.ok(recorder.requests.length >= 8);
    assert.ok(recorder.requests.every((r) => r.session === undefined));
  });

  test('secret key: no header on documents and realtime, even with a session stored (rules never bind it)', async (t) => {
    const store = new MemorySessionStore();
    await f.browser({ sessionStore: store }).auth.signUp({ email: 'backend-user@example.com', password: 'correct horse' });
    const admin = f.admin({ url: recorder.url, sessionStore: store });
    recorder.requests.length = 0;
    await everyDocumentCall(admin);
    let open = false;
    t.after(
      admin.realtime.subscribe(['todos'], () => undefined, {
        onState: (s) => {
          open ||= s === 'open';
        },
      }),
    );
    await until(() => open, 5000, 'open');
    assert.ok(recorder.requests.some(isTokenRequest));
    assert.ok(
      recorder.requests.every((r) => r.session === undefined),
      'a secret-key backend sends what it always sent',
    );
    assert.equal((await admin.auth.getUser()).email, 'backend-user@example.com', 'its own auth calls still act as the user');
  });

  test('realtime: the token is asked for with the session, again on reconnect, and anew when the user changes', async (t) => {
    const store = new MemorySessionStore();
    const ws = killableWebSocket();
    const client = f.browser({ url: recorder.url, sessionStore: store, WebSocket: ws.WebSocket, realtime: fast });
    const ada = await client.auth.signUp({ email: 'rt-ada@example.com', password: 'correct horse' });
    assert.ok(ada.session);
    recorder.requests.length = 0;
    const states: RealtimeState[] = [];
    const unsubscribe = client.realtime.subscribe(['todos'], () => undefined, { onState: (s) => states.push(s) });
    t.after(unsubscribe);
    const opens = () => states.filter((s) => s === 'open').length;
    const tokens = () => recorder.requests.filter(isTokenRequest).map((r) => r.session);
    await until(() => opens() === 1, 5000, 'open');
    assert.deepEqual(tokens(), [ada.session.token]);

    // A drop while the token is valid reuses it: it still belongs to the signed-in user.
    ws.kill();
    await until(() => opens() === 2, 5000, 'reopened');
    assert.deepEqual(tokens(), [ada.session.token]);

    // Another user signs in on this client: the subscription reconnects at once with a token for them.
    const bob = await client.auth.signUp({ email: 'rt-bob@example.com', password: 'correct horse' });
    assert.ok(bob.session);
    await until(() => opens() === 3, 5000, 'reopened as bob');
    assert.deepEqual(tokens(), [ada.session.token, bob.session.token]);

    // Signing out: at once a token for nobody.
    await client.auth.signOut();
    await until(() => opens() === 4, 5000, 'reopened signed out');
    assert.deepEqual(tokens(), [ada.session.token, bob.session.token, undefined]);

    // The store changed under the client (another tab, another client on the same store): the next
    // reconnect sees the held token is not the current user's and asks with the current session.
    const carol = await f.browser({ url: recorder.url, sessionStore: store }).auth.signUp({ email: 'rt-carol@example.com', password: 'correct horse' });
    assert.ok(carol.session);
    ws.kill();
    await until(() => opens() === 5, 5000, 'reopened after the drop');
    assert.deepEqual(tokens(), [ada.session.token, bob.session.token, undefined, carol.session.token]);
    unsubscribe();
    assert.ok(
      ws.sockets.every((s) => s.readyState !== s.OPEN),
      'every replaced socket was closed',
    );
  });
});

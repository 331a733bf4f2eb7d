// End to end, the README's "A private todo app with rules": its snippets, as written, against a real
// server on each store: the rules set with the secret key (and with the CLI), then the browser code
// run for two users of one database. Each sees only their own todos via list, get and realtime.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as sdk from '@svc/client';
import { forEachStore } from '../../server/test/helpers/stores.ts';
import { startServer, type TestDatabase, type TestServer } from '../../server/test/helpers/server.ts';
import { runSnippet, sectionBlocks, typeErrors } from './readme-snippets.ts';
import { until } from './helpers.ts';

const { SvcError, createClient, MemorySessionStore } = sdk;
type Todo = { title: string; done: boolean; owner: string };
type Client = sdk.SvcClient;

const blocks = sectionBlocks('A private todo app with rules');
const [rulesSnippet, browserSnippet] = blocks.filter((b) => b.lang === 'ts').map((b) => b.code);
const rulesFile = blocks.find((b) => b.lang === 'json')!.code;
const PASSWORD = 'correct horse battery';
const CLI = fileURLToPath(new URL('../../server/bin/svc.js', import.meta.url));

/** What the browser snippet leaves behind, and what it printed. */
interface App {
  svc: Client;
  user: sdk.User;
  todos: sdk.CollectionService<Todo>;
  todo: sdk.Doc<Todo>;
  documents: sdk.Doc<Todo>[];
  unsubscribe: () => void;
  log: string[];
}

/** Runs the README's browser snippet for one user, with the database's URL and public key. */
async function browserApp(server: TestServer, db: TestDatabase, email: string): Promise<App> {
  const code = browserSnippet
    .replace("'http://localhost:8700'", JSON.stringify(server.url))
    .replace("'svc_pk_…'", JSON.stringify(db.publicKey))
    .replace("'ada@example.com'", JSON.stringify(email));
  const log: string[] = [];
  const console = { log: (...args: unknown[]) => log.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')) };
  const app = await runSnippet<Omit<App, 'log'>>(code, sdk, { console }, ['svc', 'user', 'todos', 'todo', 'documents', 'unsubscribe']);
  await until(() => log.includes('realtime open'), 10_000, `${email}'s realtime open`);
  return { ...app, log };
}

/** The realtime lines a snippet printed (`document.created Buy milk`), without state changes. */
const events = (app: App) => app.log.filter((l) => l.startsWith('document.'));

/** Runs `svc …` on the server's store. */
function cli(server: TestServer, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: server.db.url } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const isError = (status: number, code: string) => (e: unknown) => e instanceof SvcError && e.status === status && e.code === code;

test('the README snippets type-check against the built package', () => {
  assert.ok(rulesSnippet && browserSnippet, 'the section has the two TypeScript snippets');
  assert.deepEqual(typeErrors([rulesSnippet, browserSnippet]), []);
});

forEachStore('a private todo app with rules (README)', (kind) => {
  let server: TestServer;
  let db: TestDatabase;
  let admin: Client;
  let ada: App;
  let bob: App;
  before(async () => {
    // Sockets of ended sessions are closed within this (default 2 s).
    server = await startServer(kind, { env: { REALTIME_GRANT_CHECK_MS: '200' } });
    db = await server.createDatabase();
    admin = createClient({ url: server.url, key: db.secretKey, sessionStore: new MemorySessionStore() });
  });
  after(async () => {
    ada?.unsubscribe();
    bob?.unsubscribe();
    await server?.close();
  });

  test('step 1: the secret-key snippet sets the rules; rules.json through the CLI is the same', async () => {
    await runSnippet(rulesSnippet, sdk, { process: { env: { SVC_URL: server.url, SVC_SECRET_KEY: db.secretKey } } }, []);
    const mine = { owner: { $auth: 'id' } };
    const expected = { todos: { defaults: mine, read: mine, create: mine, update: mine, delete: mine } };
    assert.deepEqual(await admin.rules.get(), expected);
    assert.deepEqual(JSON.parse(rulesFile), expected, 'the rules.json of the README holds the same rules');

    await admin.rules.set({ '*': { read: true } });
    const dir = mkdtempSync(join(tmpdir(), 'svc-readme-'));
    try {
      writeFileSync(join(dir, 'rules.json'), rulesFile);
      const r = await cli(server, ['rules', 'set', '--database', db.databaseId, '--file', join(dir, 'rules.json')]);
      assert.equal(r.code, 0, r.out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(await admin.rules.get(), expected, 'svc rules set --file rules.json set them');
  });

  test('step 2, two users: each lists and gets only their own todos, and writes only their own', async () => {
    ada = await browserApp(server, db, 'ada@example.com');
    bob = await browserApp(server, db, 'bob@example.com');
    for (const [app, name] of [
      [ada, 'ada'],
      [bob, 'bob'],
    ] as const) {
      assert.equal(app.user.email, `${name}@example.com`);
      assert.deepEqual(
        app.documents.map((t) => [t.id, t.title, t.done, t.owner]),
        [[app.todo.id, 'Buy milk', true, app.user.id]],
        `${name} lists their own todo only`,
      );
      assert.equal(app.log[0], JSON.stringify(['✓ Buy milk']), `${name}'s snippet printed their list`);
    }
    assert.equal((await admin.collection('todos').list()).total, 2, 'both todos exist');

    const bobs = bob.todos;
    await assert.rejects(bobs.get(ada.todo.id), isError(404, 'not_found'), "Ada's todo does not exist for Bob");
    await assert.rejects(bobs.update(ada.todo.id, { done: false }), isError(404, 'not_found'));
    await assert.rejects(bobs.delete(ada.todo.id), isError(404, 'not_found'));
    await assert.rejects(bobs.create({ title: 'For Ada', done: false, owner: ada.user.id }), isError(403, 'forbidden'));
    await assert.rejects(bobs.update(bob.todo.id, { owner: ada.user.id }), isError(403, 'forbidden'), 'the result must stay his');
    const page = await ada.todos.list({ filter: { title: 'Buy milk' } });
    assert.deepEqual([page.total, page.documents.map((t) => t.id)], [1, [ada.todo.id]], 'a filter never reaches past the rule');
    assert.deepEqual(await ada.svc.collections(), [], 'no collection is readable by everyone');
    const all = await admin.collection<Todo>('todos').list();
    assert.deepEqual(
      all.documents.map((t) => [t.title, t.done, t.owner]).sort(),
      [
        ['Buy milk', true, ada.user.id],
        ['Buy milk', true, bob.user.id],
      ],
      'nothing refused was written',
    );
  });

  test('step 2, realtime: each socket gets the events of its own todos only, including a todo moving between them', async () => {
    await ada.todos.create({ title: 'Call mum', done: false, owner: ada.user.id });
    const walk = await bob.todos.create({ title: 'Walk the dog', done: false, owner: bob.user.id });
    await admin.collection<Todo>('todos').create({ title: 'From the admin', done: false, owner: ada.user.id });
    await bob.todos.delete(bob.todo.id);
    await bob.todos.update(walk.id, { done: true });
    // Seen by both sockets (out of Bob's view, into Ada's), so it comes last on each: nothing of the
    // other's can arrive after it, since a socket's events come in commit order.
    await admin.collection<Todo>('todos').update(walk.id, { owner: ada.user.id });
    await until(() => events(ada).at(-1) === 'document.updated Walk the dog', 10_000, `Ada's last event (${events(ada).join('; ')})`);
    await until(() => events(bob).at(-1) === 'document.deleted Walk the dog', 10_000, `Bob's last event (${events(bob).join('; ')})`);
    assert.deepEqual(events(ada), ['document.created Call mum', 'document.created From the admin', 'document.updated Walk the dog']);
    assert.deepEqual(events(bob), [
      'document.created Walk the dog',
      'document.deleted Buy milk',
      'document.updated Walk the dog',
      'document.deleted Walk the dog',
    ]);
  });

  test('a session that ended elsewhere is forgotten: realtime goes on for nobody, document calls answer invalid_session', async () => {
    const auth: string[] = [];
    ada.svc.auth.onAuthStateChange((event) => auth.push(event));
    const opens = ada.log.filter((l) => l === 'realtime open').length;
    // Ada changes her password on another device: every other session of hers ends.
    const elsewhere = createClient({ url: server.url, key: db.publicKey, sessionStore: new MemorySessionStore() });
    await elsewhere.auth.signIn({ email: 'ada@example.com', password: PASSWORD });
    await elsewhere.auth.changePassword({ currentPassword: PASSWORD, newPassword: 'a new password for ada' });

    // The server closes her socket (4401); the SDK asks for a new token with the ended session, is
    // told invalid_session, forgets it (SIGNED_OUT) and reconnects as nobody.
    await until(() => auth.includes('SIGNED_OUT'), 10_000, 'SIGNED_OUT');
    await until(() => ada.log.filter((l) => l === 'realtime open').length > opens, 10_000, 'reconnected');
    assert.equal(await ada.svc.auth.getSession(), null);
    await assert.rejects(ada.todos.list(), isError(401, 'invalid_session'), 'a filter rule needs a session');

    // A document call is what learns it first on a client without realtime: it forgets the session too.
    const carol = createClient({ url: server.url, key: db.publicKey, sessionStore: new MemorySessionStore() });
    const carolEvents: string[] = [];
    carol.auth.onAuthStateChange((event) => carolEvents.push(event));
    const { user } = await carol.auth.signUp({ email: 'carol@example.com', password: PASSWORD });
    await carol.collection<Todo>('todos').create({ title: 'Mine', done: false, owner: user.id });
    const carolElsewhere = createClient({ url: server.url, key: db.publicKey, sessionStore: new MemorySessionStore() });
    await carolElsewhere.auth.signIn({ email: 'carol@example.com', password: PASSWORD });
    await carolElsewhere.auth.changePassword({ currentPassword: PASSWORD, newPassword: 'a new password for carol' });
    await assert.rejects(carol.collection<Todo>('todos').list(), isError(401, 'invalid_session'));
    assert.equal(await carol.auth.getSession(), null, 'forgotten');
    assert.equal(carolEvents.at(-1), 'SIGNED_OUT');
    assert.equal((await carolElsewhere.collection<Todo>('todos').list()).total, 1, 'the session of the other device goes on');
  });
});

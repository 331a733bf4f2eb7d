import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify as verifyGithubStyle } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { missingServices, openTestStore, type TestStore } from '../helpers/stores.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { auth } from '../helpers/auth-client.ts';
import { startFakeGoogle } from '../helpers/oauth-providers.ts';
import { oauthBrowser } from '../helpers/oauth-browser.ts';
import { openWs } from '../helpers/ws.ts';
import { eventually } from '../helpers/eventually.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { pipeExportImport, svc } from './cli.ts';

/** Where users reach svc (PUBLIC_URL, where OAuth callbacks are registered): the browser maps it onto each server. */
const PUBLIC_URL = 'http://svc.example.test:8700';
const APP = 'http://localhost:5173/signed-in';
const PASSWORD = 'correct horse battery';

/** The rows of every carried table, from an export file, with JSON text parsed (each engine spells JSON its own way). */
function rowsOf(file: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const v = JSON.parse(line) as { table?: string; row?: Record<string, unknown> };
    if (!v.table || !v.row) continue;
    const row = Object.fromEntries(Object.entries(v.row).map(([k, x]) => [k, typeof x === 'string' && /^[[{]/.test(x) ? JSON.parse(x) : x]));
    delete row.last_used_at; // written by each server in batches, as keys are used
    (out[v.table] ??= []).push(row);
  }
  return out;
}

/** An answer with every cursor replaced by whether there was one (a cursor is signed for its store). */
const withoutCursors = <T>(value: T): T => JSON.parse(JSON.stringify(value, (k, v) => (k === 'nextCursor' ? v !== null : v)));

describe('svc export | svc import moves a database SQLite → PostgreSQL → SQLite with the same answers', async () => {
  const missing = await missingServices({ postgres: true });
  if (missing) {
    test('moving between stores', { skip: missing }, () => undefined);
    return;
  }
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  let receiver: Receiver;
  let failing: Receiver;
  const servers: TestServer[] = [];
  const stores: TestStore[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'svc-move-'));

  before(async () => {
    google = await startFakeGoogle();
    receiver = await startReceiver();
    failing = await startReceiver(() => ({ status: 500, body: 'down' }));
  });
  after(async () => {
    for (const s of servers) await s.close();
    for (const s of stores) await s.drop();
    await google.close();
    await receiver.close();
    await failing.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A server on a fresh store of a kind, or on `db`. */
  const serve = async (kind: 'sqlite' | 'postgres', db?: TestStore) => {
    const store = db ?? (await openTestStore(kind));
    if (!db) stores.push(store);
    const server = await startServer(kind, { db: store, env: { ...google.env, PUBLIC_URL, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    servers.push(server);
    return server;
  };

  /** Signs in through Google (the fake) on a server; returns the session's user id. */
  const googleSignIn = async (server: TestServer, publicKey: string) => {
    const browser = oauthBrowser(server, PUBLIC_URL);
    const start = await browser.hop(`${PUBLIC_URL}/v1/auth/oauth/google?${new URLSearchParams({ key: publicKey, redirectUrl: APP })}`);
    assert.equal(start.status, 302, start.text);
    const atProvider = await browser.hop(start.location!);
    const callback = await browser.hop(atProvider.location!);
    const token = new URL(callback.location!).searchParams.get('token');
    assert.ok(token, `no token in ${callback.location}`);
    return ((await auth.me(server, publicKey, token)).json as { user: { id: string } }).user.id;
  };

  /** The requests whose answers must be the same before and after a move. */
  const answers = async (server: TestServer, keys: { secret: string; public: string }, databaseId: string, session: string) => {
    const secret = apiClient(server, keys.secret);
    const op = apiClient(server, () => server.operatorToken());
    const signedIn = apiClient(server, keys.public, { headers: { 'x-session-token': session } });
    // A cursor is signed for the store that issued it: compare the page it leads to, not its bytes.
    const { nextCursor, ...page } = await secret.get<{ documents: Array<{ id: string }>; nextCursor?: string | null }>('/posts/docs', 200, {
      query: { limit: 5 },
    });
    const second = nextCursor ? await secret.get('/posts/docs', 200, { query: { limit: 5, cursor: nextCursor } }) : null;
    return withoutCursors({
      posts: await secret.get('/posts/docs', 200, { query: { limit: 100, sortBy: 'n', sortOrder: 'desc' } }),
      filtered: await secret.get('/posts/docs', 200, { query: { filter: JSON.stringify({ n: { $gte: 10 } }), limit: 100 } }),
      page,
      second,
      searched: await secret.get('/posts/docs', 200, { query: { search: 'post 1', limit: 100 } }),
      one: await secret.get(`/posts/docs/${page.documents[0].id}`),
      todosAsUser: await signedIn.get('/todos/docs', 200, { query: { limit: 100 } }),
      collections: await secret.get('/collections'),
      publicCollections: await apiClient(server, keys.public).get('/collections'),
      rules: await secret.get('/rules'),
      database: await op.get(`/admin/databases/${databaseId}`),
      // Each server records when a key was last used, in batches: not part of what must match.
      keys: ((await op.get<{ keys: Array<Record<string, unknown>> }>(`/admin/databases/${databaseId}/keys`)).keys ?? []).map(({ lastUsedAt, ...k }) => k),
      users: await secret.get('/auth/users', 200, { query: { limit: 100 } }),
      webhooks: await secret.get('/webhooks'),
    });
  };

  test('documents, users, OAuth identities, webhooks, rules and settings; event ids continue; import refuses an existing id', async () => {
    // The source: a real server on SQLite, used through the API.
    const a = await serve('sqlite');
    const db = await a.createDatabase('moving-app');
    const keys = { secret: db.secretKey, public: db.publicKey };
    const api = apiClient(a, keys.secret);
    const op = apiClient(a, () => a.operatorToken());
    await op.patch(`/admin/databases/${db.databaseId}`, {
      settings: {
        redirectUrls: [APP],
        search: { posts: ['title'] },
        oauth: { google: { clientId: 'google-client-id', clientSecret: 'google-client-secret' } },
      },
    });
    await api.put('/rules', { rules: { todos: { read: { owner: { $auth: 'id' } } }, '*': { read: true } } });
    for (let n = 0; n < 30; n++) await api.post('/posts/docs', { n, title: `post ${n}`, tags: ['a', n % 2 ? 'odd' : 'even'], nested: { x: n / 2 } }, 201);
    const posts = await api.get<{ documents: Array<{ id: string }> }>('/posts/docs', 200, { query: { limit: 3 } });
    await api.patch(`/posts/docs/${posts.documents[0].id}`, { title: 'edited' });
    await api.delete(`/posts/docs/${posts.documents[1].id}`);

    const signUp = await auth.signUp(a, keys.public, { email: 'ada@example.com', password: PASSWORD });
    assert.equal(signUp.status, 201, signUp.text);
    const ada = (signUp.json as { user: { id: string } }).user.id;
    google.state.user = { sub: 'g-ada-2', email: 'grace@example.com', email_verified: true, name: 'Grace' };
    const grace = await googleSignIn(a, keys.public);
    await api.post('/todos/docs', { owner: ada, text: 'ada 1' }, 201);
    await api.post('/todos/docs', { owner: grace, text: 'grace 1' }, 201);
    // Columns of later migrations travel too (0008: app_metadata, disabled).
    await a.db.store.run(`UPDATE users SET app_metadata = ${a.db.store.dialect.jsonParam} WHERE id = ?`, [JSON.stringify({ plan: 'pro' }), ada]);

    const hook = await api.post<{ id: string; secret: string }>('/webhooks', { url: receiver.url, events: ['document.created'] }, 201);
    const broken = await api.post<{ id: string }>('/webhooks', { url: failing.url, collections: ['todos'] }, 201);
    await api.post('/todos/docs', { owner: ada, text: 'ada 2' }, 201); // a delivery that fails once and stays pending
    await failing.waitFor(1);
    const pendingBefore = await eventually(async () => {
      const r = await api.get<{ deliveries: Array<{ status: string; attempts: number }> }>(`/webhooks/${broken.id}/deliveries`);
      return r.deliveries.length === 1 && r.deliveries[0].attempts === 1 && r;
    });

    const signInA = await auth.signIn(a, keys.public, 'ada@example.com', PASSWORD);
    const session = (signInA.json as { session: { token: string } }).session.token;
    const before = await answers(a, keys, db.databaseId, session);
    assert.ok((before.searched as { documents: unknown[] }).documents.length > 0, 'search finds posts before the move');
    const lastA = a.changes.filter((c) => c.databaseId === db.databaseId).at(-1)!.id;

    // SQLite → PostgreSQL, with the target server already running.
    const b = await serve('postgres');
    const moved = await pipeExportImport(a.db.url, b.db.url, db.databaseId);
    assert.equal(moved.exported.code, 0, moved.exported.stderr);
    assert.equal(moved.imported.code, 0, moved.imported.stderr);

    const sessionB = ((await auth.signIn(b, keys.public, 'ada@example.com', PASSWORD)).json as { session: { token: string } }).session.token;
    assert.ok(sessionB, 'ada signs in with her password on PostgreSQL');
    assert.deepEqual(await answers(b, keys, db.databaseId, sessionB), before, 'the same answers on PostgreSQL as on SQLite');
    assert.equal(await googleSignIn(b, keys.public), grace, 'the Google identity signs the same user in');
    const pendingB = await apiClient(b, keys.secret).get(`/webhooks/${broken.id}/deliveries`);
    assert.deepEqual(pendingB, pendingBefore, 'the pending delivery moved, with its attempt');

    // New writes on the target: event ids go on above the old last id, and the webhook still signs with its secret.
    const secretB = apiClient(b, keys.secret);
    const { url } = await secretB.post<{ url: string }>('/realtime/token', { collections: ['posts'] }, 201);
    // The token's URL is on PUBLIC_URL; the socket goes to the server itself.
    const ws = await openWs(`${url.replace(PUBLIC_URL.replace(/^http/, 'ws'), b.url.replace(/^http/, 'ws'))}&after=${lastA}`);
    try {
      await ws.waitFor((m) => m.type === 'ready');
      const seen = receiver.received.length;
      const created = await secretB.post<{ id: string }>('/posts/docs', { n: 100, title: 'on postgres' }, 201);
      const [event] = await ws.waitFor((m) => m.type === 'event');
      assert.equal(event.id, String(BigInt(lastA) + 1n), 'the first new event is numbered right after the last exported one');
      assert.equal(event.document.id, created.id);
      assert.equal(ws.events().length, 1, 'no old id is replayed');
      const [got] = (await receiver.waitFor(seen + 1)).slice(seen);
      assert.equal(JSON.parse(got.body).id, event.id);
      assert.equal(await verifyGithubStyle(hook.secret, got.body, String(got.headers['x-service-signature'])), true);
      new StandardWebhook(hook.secret).verify(got.body, {
        'webhook-id': String(got.headers['webhook-id']),
        'webhook-timestamp': String(got.headers['webhook-timestamp']),
        'webhook-signature': String(got.headers['webhook-signature']),
      });
    } finally {
      await ws.close();
    }
    await secretB.delete(
      `/posts/docs/${(await secretB.get<{ documents: Array<{ id: string }> }>('/posts/docs', 200, { query: { filter: '{"n":100}' } })).documents[0].id}`,
    );

    // And back: PostgreSQL → a new SQLite store, through a file this time; every column of every row arrives.
    const fileB = join(dir, 'from-postgres.ndjson');
    const exported = await svc(b.db.url, ['export', '--database', db.databaseId], { stdoutFile: fileB });
    assert.equal(exported.code, 0, exported.stderr);
    const c = await serve('sqlite');
    const imported = await svc(c.db.url, ['--json', 'import'], { stdinFile: fileB });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(JSON.parse(imported.stdout).imported, db.databaseId);
    const sessionC = ((await auth.signIn(c, keys.public, 'ada@example.com', PASSWORD)).json as { session: { token: string } }).session.token;
    const afterC = await answers(c, keys, db.databaseId, sessionC);
    assert.deepEqual({ ...afterC, webhooks: undefined }, { ...before, webhooks: undefined }, 'same answers after the round trip');
    const fileC = join(dir, 'from-sqlite.ndjson');
    assert.equal((await svc(c.db.url, ['export', '--database', db.databaseId], { stdoutFile: fileC })).code, 0);
    assert.deepEqual(rowsOf(fileC), rowsOf(fileB), 'every row and column the same on SQLite as on PostgreSQL');
    const users = rowsOf(fileC).users as Array<{ id: string; app_metadata: unknown; disabled: number }>;
    assert.deepEqual(users.find((u) => u.id === ada)?.app_metadata, { plan: 'pro' });
    assert.ok(rowsOf(fileC).api_keys.length >= 2);

    // An import never overwrites: the same file again is refused, and nothing changes.
    const again = await svc(c.db.url, ['--json', 'import'], { stdinFile: fileB });
    assert.notEqual(again.code, 0);
    assert.equal(JSON.parse(again.stderr).error.code, 'conflict');
    assert.deepEqual(await answers(c, keys, db.databaseId, sessionC), afterC);
  });
});

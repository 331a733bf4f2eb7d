import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachStore } from '../helpers/stores.ts';
import { errorCode, request, useServer, type Response } from '../helpers/server.ts';
import { loadRules } from '../../src/rules/rules.ts';

type Details = Array<{ path: string; message: string }>;
const details = (r: Response) => (r.json as { error: { details?: Details } }).error.details ?? [];

const RULES = {
  todos: {
    read: { owner: { $auth: 'id' } },
    create: { owner: { $auth: 'id' } },
    update: { $and: [{ owner: { $auth: 'id' } }, { locked: { $ne: true } }] },
    delete: false,
  },
  posts: { read: true, create: { authorId: { $auth: 'id' } }, update: 'signedIn' },
  shared: { read: { $or: [{ public: true }, { members: { $in: [{ $auth: 'email' }, 'everyone'] } }] } },
  teams: { read: { team: { $eq: { $auth: 'appMetadata.team.id' } }, level: { $lte: { $auth: 'appMetadata.level' } } } },
  constructor: { read: true },
  '*': { read: true },
};

forEachStore('rules management', (kind) => {
  const ctx = useServer(kind);
  const get = (key: string, headers?: Record<string, string>) => request(ctx.server, 'GET', '/rules', { key, headers });
  const put = (key: string, rules: unknown, headers?: Record<string, string>) => request(ctx.server, 'PUT', '/rules', { key, body: { rules }, headers });
  const patchSettings = async (settings: unknown) =>
    request(ctx.server, 'PATCH', `/admin/databases/${ctx.db.databaseId}`, { key: await ctx.server.operatorToken(), body: { settings } });

  test('with no rules set, GET answers the default {"*": {"read": true}}', async () => {
    const r = await get(ctx.db.secretKey);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { rules: { '*': { read: true } } });
    assert.equal(await loadRules(ctx.server.db.store, ctx.db.databaseId), undefined, 'nothing stored: the wiring applies the default');
  });

  test('PUT stores rules whole and GET answers them exactly as written, key order included', async () => {
    const r = await put(ctx.db.secretKey, RULES);
    assert.equal(r.status, 200, r.text);
    assert.equal(JSON.stringify(r.json), JSON.stringify({ rules: RULES }));
    const g = await get(ctx.db.secretKey);
    assert.equal(JSON.stringify(g.json), JSON.stringify({ rules: RULES }), 'the same text back, on both stores (jsonb would sort keys)');
    assert.deepEqual(await loadRules(ctx.server.db.store, ctx.db.databaseId), RULES);

    const smaller = { posts: { read: true } };
    assert.equal((await put(ctx.db.secretKey, smaller)).status, 200);
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: smaller }, 'a PUT replaces, never merges');
  });

  test('a public key may neither read nor write the rules: 403 read_only_key', async () => {
    const g = await get(ctx.db.publicKey);
    assert.equal(g.status, 403);
    assert.equal(errorCode(g), 'read_only_key');
    const p = await put(ctx.db.publicKey, { '*': { read: true, create: true } });
    assert.equal(p.status, 403);
    assert.equal(errorCode(p), 'read_only_key');
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: { posts: { read: true } } }, 'nothing changed');
    assert.equal((await request(ctx.server, 'GET', '/rules')).status, 401, 'no key at all');
  });

  test('an operator token with X-Database-Id acts as the secret key', async () => {
    const op = await ctx.server.operatorToken();
    const headers = { 'x-database-id': ctx.db.databaseId };
    assert.equal((await put(op, { notes: { read: 'signedIn' } }, headers)).status, 200);
    assert.deepEqual((await get(op, headers)).json, { rules: { notes: { read: 'signedIn' } } });
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: { notes: { read: 'signedIn' } } });
  });

  test('each kind of bad rule → 400 invalid_rules naming its path; nothing is stored', async () => {
    const before = (await get(ctx.db.secretKey)).json;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ 'bad name': { read: true } }, '/rules/bad name', /collection name/],
      [{ auth: { read: true } }, '/rules/auth', /reserved/],
      [{ 'a/b~c': { read: true } }, '/rules/a~1b~0c', /collection name/],
      [{ posts: true }, '/rules/posts', /object of operations/],
      [{ posts: { write: true } }, '/rules/posts/write', /not an operation/],
      [{ posts: { read: 'yes' } }, '/rules/posts/read', /true, false, "signedIn" or a filter/],
      [{ posts: { read: 1 } }, '/rules/posts/read', /true, false, "signedIn" or a filter/],
      [{ posts: { read: null } }, '/rules/posts/read', /true, false, "signedIn" or a filter/],
      [{ posts: { read: [] } }, '/rules/posts/read', /true, false, "signedIn" or a filter/],
      [{ posts: { read: {} } }, '/rules/posts/read', /may not be empty/],
      [{ posts: { read: { owner: { $auth: 'name' } } } }, '/rules/posts/read', /"name" is not a \$auth field/],
      [{ posts: { read: { owner: { $auth: 'appMetadata' } } } }, '/rules/posts/read', /is not a \$auth field/],
      [{ posts: { read: { owner: { $auth: 'appMetadata.a..b' } } } }, '/rules/posts/read', /is not a \$auth field/],
      [{ posts: { read: { owner: { $in: [{ $auth: 7 }] } } } }, '/rules/posts/read', /7 is not a \$auth field/],
      [{ posts: { read: { owner: { $regex: 'x' } } } }, '/rules/posts/read', /unknown operator \$regex/],
      [{ posts: { read: { 'a..b': 1 } } }, '/rules/posts/read', /not a field path/],
      [{ posts: { read: { owner: { $exists: { $auth: 'id' } } } } }, '/rules/posts/read', /\$exists takes true or false/],
      [{ posts: { read: { owner: { $auth: 'id', $gt: 1 } } } }, '/rules/posts/read', /unknown operator \$auth/],
      [{ posts: { read: { $and: [] } } }, '/rules/posts/read', /non-empty list/],
      [{ posts: { read: { tags: ['a'] } } }, '/rules/posts/read', /objects and arrays are not comparable/],
      [[], '/rules', /must be an object/],
      [null, '/rules', /must be an object/],
    ];
    for (const [rules, path, message] of cases) {
      const r = await put(ctx.db.secretKey, rules);
      assert.equal(r.status, 400, `${JSON.stringify(rules)}: ${r.text}`);
      assert.equal(errorCode(r), 'invalid_rules', JSON.stringify(rules));
      assert.equal(details(r).length, 1, `${JSON.stringify(rules)}: ${r.text}`);
      assert.equal(details(r)[0].path, path, JSON.stringify(rules));
      assert.match(details(r)[0].message, message, JSON.stringify(rules));
    }
    const several = await put(ctx.db.secretKey, { posts: { read: 'yes', write: true }, 'x y': {}, ok: { read: true }, '*': { delete: { $auth: 'id' } } });
    assert.deepEqual(
      details(several).map((d) => d.path),
      ['/rules/posts/read', '/rules/posts/write', '/rules/x y', '/rules/*/delete'],
      'every bad rule, in order',
    );
    assert.deepEqual((await get(ctx.db.secretKey)).json, before, 'nothing was stored');
  });

  test('a body without rules, or with other fields, is 400 validation_failed', async () => {
    assert.equal(errorCode(await request(ctx.server, 'PUT', '/rules', { key: ctx.db.secretKey, body: {} })), 'validation_failed');
    assert.equal(errorCode(await request(ctx.server, 'PUT', '/rules', { key: ctx.db.secretKey, body: { rules: {}, extra: 1 } })), 'validation_failed');
  });

  test('settings.rules through PATCH /admin/databases/:id: validated the same way, replaced whole, removed with null', async () => {
    assert.equal((await put(ctx.db.secretKey, RULES)).status, 200);
    const bad = await patchSettings({ rules: { posts: { read: { owner: { $auth: 'phone' } } } } });
    assert.equal(bad.status, 400);
    assert.equal(errorCode(bad), 'invalid_rules');
    assert.deepEqual(
      details(bad).map((d) => d.path),
      ['/settings/rules/posts/read'],
    );

    const ok = await patchSettings({ rules: { posts: { update: false } } });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: { posts: { update: false } } }, 'replaced whole, not merged with the old rules');

    assert.equal((await patchSettings({ siteUrl: 'https://app.example.com' })).status, 200);
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: { posts: { update: false } } }, 'other settings leave the rules alone');

    assert.equal((await patchSettings({ rules: null })).status, 200);
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: { '*': { read: true } } }, 'null removes them: the default applies');
    assert.equal(await loadRules(ctx.server.db.store, ctx.db.databaseId), undefined);
    const db = await request(ctx.server, 'GET', `/admin/databases/${ctx.db.databaseId}`, { key: await ctx.server.operatorToken() });
    assert.equal((db.json as { database: { settings: { siteUrl: string } } }).database.settings.siteUrl, 'https://app.example.com');
  });

  test('an empty rules object is kept as written: no collection has an entry, so public keys may do nothing', async () => {
    assert.equal((await put(ctx.db.secretKey, {})).status, 200);
    assert.deepEqual((await get(ctx.db.secretKey)).json, { rules: {} });
    assert.deepEqual(await loadRules(ctx.server.db.store, ctx.db.databaseId), {});
  });

  test("the rules of one database are not another's", async () => {
    const other = await ctx.server.createDatabase();
    assert.equal((await put(ctx.db.secretKey, { posts: { read: true } })).status, 200);
    assert.deepEqual((await get(other.secretKey)).json, { rules: { '*': { read: true } } });
  });
});

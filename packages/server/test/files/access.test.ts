import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { useServer } from '../helpers/server.ts';
import { apiClient } from '../helpers/api.ts';
import { newUser, type SignedIn } from '../helpers/auth-client.ts';
import { forEachStoreAndBytes, send, uploadRaw, type ByteResponse } from './helpers.ts';

const own = { $auth: 'id' };
const RULES = {
  'files/private': { read: { owner: own }, create: { owner: own, size: { $lte: 4096 } }, update: { owner: own }, delete: { owner: own } },
  // A `$auth` value the user lacks makes the rule deny (§10), also in the list's SQL.
  'files/named': { read: { name: { $auth: 'appMetadata.file' } } },
  'files/*': { read: true },
  '*': { read: true, create: true, update: true, delete: true },
};

/**
 * API.md §12 "Access" with two users and a public key: under owner rules neither user reads,
 * lists, links, replaces or deletes the other's files by any route; a key with no session gets
 * 401; "files/*" covers other buckets and "*" never does.
 */
forEachStoreAndBytes('files: access under §10 rules', (kind, env) => {
  const t = useServer(kind, () => ({ env: env() }));
  let ann: SignedIn;
  let bob: SignedIn;
  let annFile: { id: string };
  let bobFile: { id: string };
  const as = (u: SignedIn | undefined, method: string, path: string, opts: Parameters<typeof send>[3] = {}): Promise<ByteResponse> =>
    send(t.server, method, path, { key: t.db.publicKey, ...opts, headers: { ...(u ? { 'x-session-token': u.session.token } : {}), ...opts.headers } });

  before(async () => {
    await apiClient(
      () => t.server,
      () => t.db.secretKey,
    ).put('/rules', { rules: RULES });
    ann = await newUser(t.server, t.db.publicKey, 'ann@files.test');
    bob = await newUser(t.server, t.db.publicKey, 'bob@files.test');
    const a = await as(ann, 'POST', '/files/private', {
      body: randomBytes(100),
      headers: { 'content-type': 'application/octet-stream' },
      query: { name: 'ann.bin' },
    });
    assert.equal(a.status, 201, a.bytes.toString());
    assert.equal(a.json.owner, ann.user.id, 'the owner comes from the session');
    annFile = a.json;
    const b = await as(bob, 'POST', '/files/private', {
      body: randomBytes(100),
      headers: { 'content-type': 'application/octet-stream' },
      query: { name: 'bob.bin' },
    });
    assert.equal(b.status, 201);
    bobFile = b.json;
  });

  test('a rule whose $auth value the user lacks lets the user list nothing', async () => {
    const up = await send(t.server, 'POST', '/files/named', {
      key: t.db.secretKey,
      body: randomBytes(10),
      headers: { 'content-type': 'application/octet-stream' },
      query: { name: 'x.bin' },
    });
    assert.equal(up.status, 201, up.bytes.toString());
    const list = await as(ann, 'GET', '/files/named');
    assert.equal(list.status, 200, list.bytes.toString());
    assert.equal(list.json.total, 0);
    assert.deepEqual(list.json.files, []);
  });

  test("neither user reads, lists, links, renames or deletes the other's file by any route", async () => {
    for (const [me, theirs] of [
      [ann, bobFile],
      [bob, annFile],
    ] as const) {
      const list = await as(me, 'GET', '/files/private');
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.json.files.map((f: { owner: string }) => f.owner),
        [me.user.id],
      );
      assert.equal(list.json.total, 1);
      const sneaky = await as(me, 'GET', '/files/private', { query: { filter: JSON.stringify({ id: theirs.id }) } });
      assert.equal(sneaky.json.total, 0, 'a filter naming the other file finds nothing');
      for (const [method, path, body] of [
        ['GET', `/files/private/${theirs.id}`, undefined],
        ['GET', `/files/private/${theirs.id}/content`, undefined],
        ['HEAD', `/files/private/${theirs.id}/content`, undefined],
        ['POST', `/files/private/${theirs.id}/url`, '{}'],
        ['PATCH', `/files/private/${theirs.id}`, JSON.stringify({ name: 'mine.bin' })],
        ['DELETE', `/files/private/${theirs.id}`, undefined],
      ] as const) {
        const r = await as(me, method, path, { body, headers: body ? { 'content-type': 'application/json' } : {} });
        assert.equal(r.status, 404, `${method} ${path} by the other user: ${r.bytes.toString()}`);
      }
    }
    const stored = await send(t.server, 'GET', '/files/private', { key: t.db.secretKey });
    assert.deepEqual(stored.json.files.map((f: { name: string }) => f.name).sort(), ['ann.bin', 'bob.bin'], 'nothing was renamed or deleted');
  });

  test('each may do everything with their own file', async () => {
    const mine = await as(ann, 'GET', `/files/private/${annFile.id}/content`);
    assert.equal(mine.status, 200);
    const renamed = await as(ann, 'PATCH', `/files/private/${annFile.id}`, {
      body: JSON.stringify({ name: 'ann2.bin' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(renamed.status, 200);
    const link = await as(ann, 'POST', `/files/private/${annFile.id}/url`, { body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(link.status, 200);
    const viaLink = await fetch(link.json.url);
    assert.equal(viaLink.status, 200, 'a signed link needs no key');
  });

  test('the create rule: the owner from the session, the final size; refused before the body when Content-Length cannot pass; nothing kept', async () => {
    const noSession = await as(undefined, 'POST', '/files/private', { body: randomBytes(10), headers: { 'content-type': 'text/plain' }, query: { name: 'x' } });
    assert.equal(noSession.status, 401);
    assert.equal(noSession.json.error.code, 'invalid_session');
    const tooBig = await as(ann, 'POST', '/files/private', { body: randomBytes(5000), headers: { 'content-type': 'text/plain' }, query: { name: 'big' } });
    assert.equal(tooBig.status, 403);
    assert.equal(tooBig.json.error.code, 'forbidden');
    // A secret key may upload as anyone.
    const forBob = await uploadRaw(t.server, t.db.secretKey, 'private', randomBytes(10), 'given.bin');
    assert.equal(forBob.json.owner, null);
    const owned = await send(t.server, 'POST', '/files/private', {
      key: t.db.secretKey,
      body: randomBytes(10),
      headers: { 'content-type': 'text/plain' },
      query: { name: 'x', owner: bob.user.id },
    });
    assert.equal(owned.json.owner, bob.user.id);
    const list = await send(t.server, 'GET', '/files/private', { key: t.db.secretKey, query: { filter: JSON.stringify({ name: 'big' }) } });
    assert.equal(list.json.total, 0);
  });

  test('"files/*" covers other buckets and "*" never does; GET /buckets shows a public key only readable buckets, without bytes', async () => {
    const up = await uploadRaw(t.server, t.db.secretKey, 'open', Buffer.from('hi'), 'hi.txt', 'text/plain');
    const read = await as(undefined, 'GET', `/files/open/${up.json.id}`);
    assert.equal(read.status, 200, 'files/* read: true');
    const write = await as(undefined, 'POST', '/files/open', { body: Buffer.from('x'), headers: { 'content-type': 'text/plain' }, query: { name: 'x' } });
    assert.equal(write.status, 403);
    assert.equal(write.json.error.code, 'read_only_key', '"*" allows create on collections, never on buckets');
    const buckets = await as(undefined, 'GET', '/buckets');
    assert.equal(buckets.status, 200);
    assert.deepEqual(
      buckets.json.buckets.map((b: { name: string }) => b.name),
      ['open'],
    );
    assert.equal(buckets.json.buckets[0].bytes, undefined);
  });

  test('rules name files/<bucket> keys; a bad bucket name in a rule key → 400 invalid_rules', async () => {
    const secret = apiClient(
      () => t.server,
      () => t.db.secretKey,
    );
    const r = await secret.request('PUT', '/rules', { body: { rules: { 'files/bad name': { read: true } } } });
    assert.equal(r.status, 400);
    assert.equal((r.json as { error: { code: string } }).error.code, 'invalid_rules');
  });
});

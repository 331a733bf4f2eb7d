import { describe, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { missingServices, postgresTestStore, type TestStore } from '../helpers/stores.ts';
import { OPERATOR, request } from '../helpers/server.ts';
import { startProcess, type ServerProcess } from '../helpers/process.ts';
import { auth, newUser } from '../helpers/auth-client.ts';
import { closeCode } from '../realtime/upgrade.ts';
import { brief, insert, MARKS, putRules, settle, tokenUrl, watch } from '../realtime/watch.ts';

/**
 * API.md §10 "Realtime" on several instances without Redis (events reach the other instance
 * through its poll of the change log): sockets on B obey rules set on A, a rule change on A
 * applies to B's very next event (realtime reads the rules with each batch, never caches them),
 * and a sign-out on A closes the user's socket on B.
 */
describe('two instances on one PostgreSQL, no Redis: realtime under rules', { skip: await missingServices({ postgres: true }) }, () => {
  let db: TestStore;
  let a: ServerProcess;
  let b: ServerProcess;
  let keys: { secret: string; public: string };

  before(async () => {
    db = await postgresTestStore();
    [a, b] = await Promise.all([startProcess({ DATABASE_URL: db.url }), startProcess({ DATABASE_URL: db.url })]);
    const op = ((await request(a, 'POST', '/admin/sign-in', { body: OPERATOR })).json as { token: string }).token;
    const created = await request(a, 'POST', '/admin/databases', { key: op, body: { name: 'rules' } });
    assert.equal(created.status, 201, created.text);
    const { database, key } = created.json as { database: { id: string }; key: { key: string } };
    const pub = await request(a, 'POST', `/admin/databases/${database.id}/keys`, { key: op, body: { kind: 'public' } });
    keys = { secret: key.key, public: (pub.json as { key: string }).key };
  });
  after(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM')]);
    await db?.drop();
  });

  test('rules set on A filter the sockets on B; a rule change on A applies on B to the next event; a sign-out on A closes the socket on B', async () => {
    await putRules(a, keys.secret, { todos: { read: { owner: { $auth: 'id' } } }, [MARKS]: { read: true } });
    const alice = await newUser(a, keys.public, 'alice@example.com');
    const bob = await newUser(a, keys.public, 'bob@example.com');
    const collections = ['todos', MARKS];
    const ofAlice = await watch(await tokenUrl(b, keys.public, collections, alice.session.token));
    const ofBob = await watch(await tokenUrl(b, keys.public, collections, bob.session.token));
    const ofNobody = await watch(await tokenUrl(b, keys.public, collections));

    const hers = await insert(a, keys.secret, 'todos', { owner: alice.user.id });
    const his = await insert(a, keys.secret, 'todos', { owner: bob.user.id });
    let [seenByAlice, seenByBob, seenByNobody] = await settle(a, keys.secret, [ofAlice, ofBob, ofNobody]);
    assert.deepEqual(seenByAlice.map(brief), [['document.created', hers.id]]);
    assert.deepEqual(seenByBob.map(brief), [['document.created', his.id]]);
    assert.deepEqual(seenByNobody, []);

    await putRules(a, keys.secret, { todos: { read: true }, [MARKS]: { read: true } });
    const everyones = await insert(a, keys.secret, 'todos', { owner: null });
    [seenByAlice, seenByBob, seenByNobody] = await settle(a, keys.secret, [ofAlice, ofBob, ofNobody]);
    assert.deepEqual(seenByNobody.map(brief), [['document.created', everyones.id]], 'the new rule, from the first event after it');
    assert.deepEqual(seenByAlice.map(brief), [
      ['document.created', hers.id],
      ['document.created', everyones.id],
    ]);

    assert.equal((await auth.post(a, keys.public, '/auth/sign-out', alice.session.token)).status, 204);
    assert.equal(await closeCode(ofAlice.closed), 4401);
    await Promise.all([ofBob.close(), ofNobody.close()]);
  });
});
